//===- Passes.h - CPU code generation passes --------------------*- C++ -*-===//
//
// Vectorization for the CPU's registers and the rewrites that keep compiled
// CPU objects free of libm and MLIR runtime calls.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_CODEGEN_CPU_PASSES_H
#define MIXER_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace mixer {

#define GEN_PASS_DECL
#include "mixer/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mixer/Codegen/CPU/Passes.h.inc"

} // namespace mixer
} // namespace mlir

#endif // MIXER_CODEGEN_CPU_PASSES_H
