//===- Compile.h - lower a module on tensors to the LLVM dialect -*- C++ -*-===//
//
// The first half of every way to run mixer code: parse, verify, check the C
// ABI and run the CPU pipeline. JitModule and the object/header emitters
// take the result.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_EXECUTION_COMPILE_H
#define MIXER_EXECUTION_COMPILE_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
class DialectRegistry;
namespace mixer {
struct CpuPipelineOptions;

/// Registers everything a module on tensors may hold and everything its
/// lowering needs: the mixer dialect, the upstream dialects with their
/// interface models and extensions, and the translations to LLVM IR.
void registerCompilerDialects(DialectRegistry &registry);

/// Lowers `module` in place to the LLVM dialect with the CPU pipeline.
/// Verifies the input, checks the C ABI of its public functions (see
/// Signature.h), names the pass that failed, and checks that nothing but the
/// LLVM dialect is left. The functions behind the `_mlir_ciface_` wrappers
/// are made internal: the wrappers are the only interface. Every problem is emitted as a diagnostic on the
/// module's context; returns failure after any of them.
LogicalResult compileToLLVM(ModuleOp module, const CpuPipelineOptions &options);

} // namespace mixer
} // namespace mlir

#endif // MIXER_EXECUTION_COMPILE_H
