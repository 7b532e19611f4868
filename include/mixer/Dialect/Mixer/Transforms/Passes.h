//===- Passes.h - mixer transformation passes -------------------*- C++ -*-===//

#ifndef MIXER_DIALECT_MIXER_TRANSFORMS_PASSES_H
#define MIXER_DIALECT_MIXER_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::mixer {
// Both sections of the generated file: the pass declarations and their
// registration.
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
} // namespace mlir::mixer

#endif // MIXER_DIALECT_MIXER_TRANSFORMS_PASSES_H
