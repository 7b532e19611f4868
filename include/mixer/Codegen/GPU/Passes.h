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

namespace mlir::mixer {
// Both sections of the generated file: the pass declarations and their
// registration.
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "mixer/Codegen/GPU/Passes.h.inc"
} // namespace mlir::mixer

#endif // MIXER_CODEGEN_GPU_PASSES_H
