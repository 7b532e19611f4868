//===- Signature.h - the C ABI of a module's public functions ---*- C++ -*-===//
//
// What a caller must pass to each public function of a module on tensors,
// recorded before lowering: the C header, the C API's argument checks and
// the Python front end all read it.
//
// ABI: a public function takes its inputs, then one `outs` argument per
// result marked `{bufferization.writable = true}`, and returns the results
// computed in place into them. After lowering it returns nothing and has a
// wrapper `void _mlir_ciface_NAME(...)` taking one pointer to a memref
// descriptor per tensor argument (and scalars by value).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_EXECUTION_SIGNATURE_H
#define MIXER_EXECUTION_SIGNATURE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::mixer {

/// Element types the C ABI supports, with a fixed C spelling.
enum class ElementKind { F32, F64, F16, BF16, I8, I16, I32, I64, Index };

/// One argument of a public function.
struct ArgumentInfo {
  ElementKind element = ElementKind::F32;
  /// True for a tensor (passed as a memref descriptor), false for a scalar
  /// (passed by value).
  bool isTensor = true;
  /// Sizes of a tensor argument; ShapedType::kDynamic where the IR has `?`.
  llvm::SmallVector<int64_t> shape;
  /// Marked `bufferization.writable`: a result is written into it.
  bool isOutput = false;

  int64_t getRank() const { return shape.size(); }
};

/// The C signature of one public function.
struct FunctionSignature {
  std::string name;
  llvm::SmallVector<ArgumentInfo> arguments;
  unsigned numResults = 0;
};

/// Returns the signatures of the public functions with a body, in module
/// order. Emits an error naming the function and argument and returns
/// failure for a type the C ABI does not support (unranked tensors, memrefs,
/// vectors, other element types), for a result that is not a ranked tensor,
/// and unless the writable arguments are exactly the last ones, one per
/// result, each of its result's type.
FailureOr<llvm::SmallVector<FunctionSignature>>
getPublicFunctionSignatures(ModuleOp module);

/// The C element type of `kind` ("float", "int64_t", ...).
llvm::StringRef getCTypeName(ElementKind kind);
/// The MLIR spelling of `kind` ("f32", "index", ...).
llvm::StringRef getElementKindName(ElementKind kind);
/// The size in bytes of one element of `kind`.
unsigned getElementKindSize(ElementKind kind);

} // namespace mlir::mixer

#endif // MIXER_EXECUTION_SIGNATURE_H
