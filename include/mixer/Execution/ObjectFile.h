//===- ObjectFile.h - LLVM IR and object files for the host -----*- C++ -*-===//
//
// Ahead-of-time output of a module lowered by compileToLLVM: optimized LLVM
// IR, or a position-independent object file for the host CPU, to be linked
// into an application with -fopenmp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_EXECUTION_OBJECTFILE_H
#define MIXER_EXECUTION_OBJECTFILE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
class raw_ostream;
} // namespace llvm

namespace mlir::mixer {

struct ObjectFileOptions {
  /// LLVM optimization level of the IR passes and of code generation.
  unsigned optLevel = 3;
  /// Target CPU and features; empty: the host CPU with all its features.
  std::string cpu;
  std::string features;
};

/// Creates a position-independent target machine for the host triple.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(const ObjectFileOptions &options);

/// Translates `module` (LLVM dialect) to LLVM IR for `tm` and optimizes it.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateAndOptimize(ModuleOp module, llvm::LLVMContext &llvmContext,
                     llvm::TargetMachine &tm, unsigned optLevel);

/// Writes the optimized LLVM IR of `module` as text.
llvm::Error emitLLVMIR(ModuleOp module, llvm::raw_ostream &os,
                       const ObjectFileOptions &options = {});

/// Writes an ELF object file with the code of `module` to `path`.
llvm::Error emitObjectFile(ModuleOp module, llvm::StringRef path,
                           const ObjectFileOptions &options = {});

} // namespace mlir::mixer

#endif // MIXER_EXECUTION_OBJECTFILE_H
