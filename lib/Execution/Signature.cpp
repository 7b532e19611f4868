//===- Signature.cpp - the C ABI of a module's public functions -----------===//

#include "mixer/Execution/Signature.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <iterator>

using namespace mlir;
using namespace mlir::mixer;

static std::optional<ElementKind> getElementKind(Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isIndex())
    return ElementKind::Index;
  if (type.isSignlessInteger(8))
    return ElementKind::I8;
  if (type.isSignlessInteger(16))
    return ElementKind::I16;
  if (type.isSignlessInteger(32))
    return ElementKind::I32;
  if (type.isSignlessInteger(64))
    return ElementKind::I64;
  return std::nullopt;
}

FailureOr<SmallVector<FunctionSignature>>
mlir::mixer::getPublicFunctionSignatures(ModuleOp module) {
  SmallVector<FunctionSignature> signatures;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    FunctionSignature sig;
    sig.name = func.getSymName().str();
    sig.numResults = func.getNumResults();
    unsigned numOutputs = 0;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      ArgumentInfo arg;
      Type element = type;
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        element = tensor.getElementType();
        arg.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
      } else if (isa<ShapedType>(type)) {
        return func.emitError()
               << "argument #" << i << " of public function @" << sig.name
               << " has type " << type
               << "; the C ABI supports ranked tensors and scalars";
      } else {
        arg.isTensor = false;
      }
      std::optional<ElementKind> kind = getElementKind(element);
      if (!kind)
        return func.emitError()
               << "argument #" << i << " of public function @" << sig.name
               << " has element type " << element
               << "; the C ABI supports f32, f64, f16, bf16, i8, i16, i32, "
                  "i64 and index";
      arg.element = *kind;
      // LLVM passes half scalars in vector registers, which no C type
      // matches portably.
      if (!arg.isTensor &&
          (*kind == ElementKind::F16 || *kind == ElementKind::BF16))
        return func.emitError() << "argument #" << i << " of public function @"
                                << sig.name << " is a scalar " << element
                                << "; pass it as a 0-d tensor or as f32";
      if (auto writable = func.getArgAttrOfType<BoolAttr>(
              i, bufferization::BufferizationDialect::kWritableAttrName))
        arg.isOutput = arg.isTensor && writable.getValue();
      numOutputs += arg.isOutput;
      sig.arguments.push_back(std::move(arg));
    }
    for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
      if (!isa<RankedTensorType>(type))
        return func.emitError()
               << "result #" << i << " of public function @" << sig.name
               << " has type " << type
               << "; results must be ranked tensors computed in place into "
                  "writable arguments";
    // The destinations of the results are the trailing arguments, in order:
    // the lowering writes result i into argument (numArgs - numResults + i).
    unsigned numArgs = sig.arguments.size(), numResults = sig.numResults;
    if (numOutputs != numResults || numArgs < numResults)
      return func.emitError()
             << "public function @" << sig.name << " has " << numResults
             << " results but " << numOutputs
             << " arguments marked {bufferization.writable = true}; pass "
                "one destination argument per result, after the inputs";
    for (unsigned i = 0; i < numArgs; ++i) {
      bool isDestination = i >= numArgs - numResults;
      if (sig.arguments[i].isOutput != isDestination)
        return func.emitError()
               << "argument #" << i << " of public function @" << sig.name
               << (isDestination ? " is not" : " is")
               << " marked {bufferization.writable = true}; the destinations "
                  "of the "
               << numResults << " results must be the last " << numResults
               << " arguments";
    }
    for (unsigned r = 0; r < numResults; ++r) {
      unsigned i = numArgs - numResults + r;
      if (func.getArgumentTypes()[i] != func.getResultTypes()[r])
        return func.emitError()
               << "result #" << r << " of public function @" << sig.name
               << " has type " << func.getResultTypes()[r]
               << ", but its destination, argument #" << i << ", has type "
               << func.getArgumentTypes()[i];
    }
    signatures.push_back(std::move(sig));
  }
  return signatures;
}

namespace {
/// What the C interface and the signature text say of an element kind.
struct ElementKindInfo {
  StringRef name;
  /// f16 and bf16 are passed as raw bits: C has no portable half type.
  StringRef cType;
  unsigned bytes;
};
} // namespace

/// Indexed by ElementKind.
static constexpr ElementKindInfo kElementKinds[] = {
    {"f32", "float", 4},     {"f64", "double", 8},  {"f16", "uint16_t", 2},
    {"bf16", "uint16_t", 2}, {"i8", "int8_t", 1},   {"i16", "int16_t", 2},
    {"i32", "int32_t", 4},   {"i64", "int64_t", 8}, {"index", "int64_t", 8}};
static_assert(std::size(kElementKinds) ==
                  static_cast<size_t>(ElementKind::Index) + 1,
              "one entry per ElementKind");

static const ElementKindInfo &infoOf(ElementKind kind) {
  return kElementKinds[static_cast<size_t>(kind)];
}

StringRef mlir::mixer::getCTypeName(ElementKind kind) {
  return infoOf(kind).cType;
}

StringRef mlir::mixer::getElementKindName(ElementKind kind) {
  return infoOf(kind).name;
}

unsigned mlir::mixer::getElementKindSize(ElementKind kind) {
  return infoOf(kind).bytes;
}
