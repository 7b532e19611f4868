//===- Passes.h - GPU code generation passes --------------------*- C++ -*-===//
//
// The GPU's code generation: the warp-level tensor-core code of the
// contractions a thread block runs.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_CODEGEN_GPU_PASSES_H
#define MIXER_CODEGEN_GPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace mixer {

#define GEN_PASS_DECL
#include "mixer/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mixer/Codegen/GPU/Passes.h.inc"

} // namespace mixer
} // namespace mlir

#endif // MIXER_CODEGEN_GPU_PASSES_H
