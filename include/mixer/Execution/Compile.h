//===- Compile.h - lower a module on tensors to the LLVM dialect -*- C++
//-*-===//
//
// The first half of every way to run mixer code: parse, verify, check the C
// ABI and run the CPU pipeline. JitModule and the object/header emitters
// take the result.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_EXECUTION_COMPILE_H
#define MIXER_EXECUTION_COMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class PassManager;
namespace mixer {
struct CpuPipelineOptions;

/// Registers everything a module on tensors may hold and everything its
/// lowering needs: the mixer dialect, the upstream dialects with their
/// interface models and extensions, and the translations to LLVM IR.
void registerCompilerDialects(DialectRegistry &registry);

/// Parses `text`, space-separated `key=value` options of
/// mixer-lower-to-cpu-pipeline ("num-threads=2 naive=1"), into `options`.
/// On failure returns a message naming the option and the valid ones,
/// without printing anything.
LogicalResult parsePipelineOptions(llvm::StringRef text,
                                   CpuPipelineOptions &options,
                                   std::string &error);

/// Parses the main buffer of `sourceMgr` into a module (wrapping top-level
/// ops that are not one module), without verifying it. When
/// `argumentNames` is given, fills it with the SSA names (without `%`) of
/// the arguments of every function with a body, for messages and headers.
/// Returns null after emitting diagnostics on a syntax error.
OwningOpRef<ModuleOp> parseModule(
    llvm::SourceMgr &sourceMgr, MLIRContext *context,
    llvm::StringMap<llvm::SmallVector<std::string>> *argumentNames = nullptr);

/// Runs `pm` on `module`. On failure emits "PIPELINE failed in pass 'P' on
/// OP" at the failing operation (the pass's own diagnostics come first).
LogicalResult runPipeline(ModuleOp module, PassManager &pm,
                          llvm::StringRef pipeline);

/// Runs mixer-generate-vjp on `module`: each public function @f gains
/// @f_vjp(inputs of f, one cotangent per result, one writable gradient per
/// float tensor input). When `argumentNames` is given, names the arguments
/// of each new function after @f's: its inputs' names, `d_<out>` for the
/// cotangent of the result written into `<out>` (`d_<i>` without names),
/// `d_<input>` for the gradients. Emits diagnostics (naming the op that
/// cannot be differentiated) and returns failure on error.
LogicalResult generateVjpFunctions(
    ModuleOp module,
    llvm::StringMap<llvm::SmallVector<std::string>> *argumentNames = nullptr);

/// Lowers `module` in place to the LLVM dialect with the CPU pipeline.
/// Verifies the input, checks the C ABI of its public functions (see
/// Signature.h), names the pass that failed, and checks that nothing but the
/// LLVM dialect is left. The functions behind the `_mlir_ciface_` wrappers
/// are made internal: the wrappers are the only interface. Every problem is
/// emitted as a diagnostic on the module's context; returns failure after any
/// of them.
LogicalResult compileToLLVM(ModuleOp module, const CpuPipelineOptions &options);

} // namespace mixer
} // namespace mlir

#endif // MIXER_EXECUTION_COMPILE_H
