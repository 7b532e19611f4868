//===- Passes.h - CPU code generation passes --------------------*- C++ -*-===//
//
// Vectorization for the CPU's registers and the rewrites that keep compiled
// CPU objects free of libm and MLIR runtime calls.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_CODEGEN_CPU_PASSES_H
#define MIXER_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::mixer {
// Both sections of the generated file: the pass declarations and their
// registration.
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "mixer/Codegen/CPU/Passes.h.inc"
} // namespace mlir::mixer

#endif // MIXER_CODEGEN_CPU_PASSES_H
