//===- Passes.h - mixer transformation passes -------------------*- C++ -*-===//

#ifndef MIXER_DIALECT_MIXER_TRANSFORMS_PASSES_H
#define MIXER_DIALECT_MIXER_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace mixer {

#define GEN_PASS_DECL
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"

} // namespace mixer
} // namespace mlir

#endif // MIXER_DIALECT_MIXER_TRANSFORMS_PASSES_H
