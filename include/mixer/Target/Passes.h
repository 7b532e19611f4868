//===- Passes.h - target description passes ---------------------*- C++ -*-===//

#ifndef MIXER_TARGET_PASSES_H
#define MIXER_TARGET_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::mixer {

#define GEN_PASS_DECL
#include "mixer/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mixer/Target/Passes.h.inc"

} // namespace mlir::mixer

#endif // MIXER_TARGET_PASSES_H
