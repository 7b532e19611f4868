//===- Passes.h - GPU code generation passes --------------------*- C++ -*-===//
//
// Bufferized mixer functions to thread-mapped gpu.launch kernels, and the
// two ways those kernels leave: to NVVM (device buffers on the host) or to
// the CPU (each block's threads as OpenMP threads).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_CODEGEN_GPU_PASSES_H
#define MIXER_CODEGEN_GPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace mixer {

#define GEN_PASS_DECL
#include "mixer/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mixer/Codegen/GPU/Passes.h.inc"

} // namespace mixer
} // namespace mlir

#endif // MIXER_CODEGEN_GPU_PASSES_H
