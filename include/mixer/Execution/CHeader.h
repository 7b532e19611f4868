//===- CHeader.h - the C header of a compiled module ------------*- C++ -*-===//
//
// A C header declaring, for every public function of a module on tensors,
// its `_mlir_ciface_` wrapper, the memref descriptor types it takes and
// helpers to fill them, with the ABI documented in a comment block.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_EXECUTION_CHEADER_H
#define MIXER_EXECUTION_CHEADER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class AsmParserState;
namespace mixer {

struct CHeaderOptions {
  /// The include guard; empty: MIXER_KERNELS_H.
  std::string guard;
  /// The file the module came from, named in the banner.
  std::string sourceName;
  /// Extra lines for the ABI comment (how the module was compiled).
  std::string note;
  /// C parameter names per function, e.g. the SSA names of the source;
  /// functions or names missing here get in0, in1, ..., out0, ...
  llvm::StringMap<llvm::SmallVector<std::string>> argumentNames;
};

/// Writes the header for `module`, the module on tensors before lowering.
/// Emits an error and fails for a function whose name is not a C identifier
/// or whose signature the C ABI does not support.
LogicalResult emitCHeader(ModuleOp module, llvm::raw_ostream &os,
                          const CHeaderOptions &options = {});

/// The SSA names (without `%`) of the arguments of every function in a
/// module parsed with `state`, for CHeaderOptions::argumentNames.
llvm::StringMap<llvm::SmallVector<std::string>>
getSourceArgumentNames(ModuleOp module, const AsmParserState &state);

} // namespace mixer
} // namespace mlir

#endif // MIXER_EXECUTION_CHEADER_H
