//===- ShapeVerifier.cpp - named-dimension checks for verifiers -----------===//

#include "ShapeVerifier.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mixer;

/// The contract being recorded on this thread by getShapeContract, if any.
/// Verifiers construct their ShapeVerifier themselves, so the recorder is
/// handed to it this way rather than through each op's verify().
static thread_local ShapeContract *activeContract = nullptr;

ShapeVerifier::ShapeVerifier(Operation *op)
    : op(op), contract(activeContract) {}

FailureOr<ShapeContract> mlir::mixer::getShapeContract(Operation *op) {
  ShapeContract result;
  ShapeContract *outer = activeContract;
  activeContract = &result;
  LogicalResult verified = op->getName().verifyInvariants(op);
  activeContract = outer;
  if (failed(verified))
    return failure();
  return result;
}

static std::string describeDims(ArrayRef<StringRef> dims) {
  std::string s = "[";
  llvm::interleave(
      dims, [&](StringRef d) { s += d.str(); }, [&] { s += ", "; });
  return s + "]";
}

LogicalResult ShapeVerifier::checkShape(Value value, StringRef name,
                                        ArrayRef<StringRef> dims) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return error() << "operand '" << name << "' must be a ranked tensor";
  if (type.getRank() != static_cast<int64_t>(dims.size()))
    return error() << "operand '" << name << "' must have rank " << dims.size()
                   << " " << describeDims(dims) << ", got rank "
                   << type.getRank();
  for (auto [i, symbol] : llvm::enumerate(dims)) {
    if (symbol == "_")
      continue;
    std::string what = "'" + name.str() + "' dim " + std::to_string(i) + " (" +
                       symbol.str() + ")";
    if (contract)
      contract->dims.push_back(
          ShapeContract::Dim{value, static_cast<int64_t>(i), type.getDimSize(i),
                             symbol.str(), what});
    if (type.isDynamicDim(i))
      continue;
    if (failed(bind(symbol, type.getDimSize(i), what)))
      return failure();
  }
  return success();
}

LogicalResult ShapeVerifier::checkShapeAndElements(
    Value value, StringRef name, ArrayRef<StringRef> dims,
    function_ref<bool(Type)> accepts, StringRef expected) {
  if (failed(checkShape(value, name, dims)))
    return failure();
  Type elt = cast<RankedTensorType>(value.getType()).getElementType();
  if (!accepts(elt))
    return error() << "operand '" << name << "' must have " << expected
                   << " elements, got " << elt;
  return success();
}

LogicalResult ShapeVerifier::check(Value value, StringRef name,
                                   ArrayRef<StringRef> dims) {
  return checkShapeAndElements(
      value, name, dims, [](Type elt) { return elt.isF32(); }, "f32");
}

LogicalResult ShapeVerifier::checkInts(Value value, StringRef name,
                                       ArrayRef<StringRef> dims) {
  return checkShapeAndElements(
      value, name, dims,
      [](Type elt) {
        return elt.isSignlessInteger(32) || elt.isSignlessInteger(64);
      },
      "i32 or i64");
}

LogicalResult ShapeVerifier::checkScalar(Value value, StringRef name) {
  return check(value, name, {});
}

std::optional<int64_t> ShapeVerifier::size(StringRef symbol) const {
  auto it = bound.find(symbol);
  if (it == bound.end())
    return std::nullopt;
  return it->second.first;
}

LogicalResult ShapeVerifier::bind(StringRef symbol, int64_t value,
                                  StringRef what) {
  auto [it, inserted] = bound.try_emplace(symbol, value, what.str());
  if (inserted || it->second.first == value)
    return success();
  return error() << what << " is " << value << ", but " << it->second.second
                 << " is " << it->second.first;
}

LogicalResult ShapeVerifier::bindAttribute(StringRef symbol, int64_t value,
                                           StringRef what) {
  if (contract)
    contract->dims.push_back(
        ShapeContract::Dim{Value(), 0, value, symbol.str(), what.str()});
  return bind(symbol, value, what);
}

void ShapeVerifier::require(Value value, StringRef name, ValueRule rule,
                            StringRef symbol) {
  if (contract && value)
    contract->rules.push_back(
        ShapeContract::Rule{value, name.str(), rule, symbol.str()});
}

void ShapeVerifier::requireProduct(StringRef product, StringRef lhs,
                                   StringRef rhs) {
  if (contract)
    contract->products.push_back(
        ShapeContract::Product{product.str(), lhs.str(), rhs.str()});
}

void ShapeVerifier::requireMultiple(StringRef members, StringRef groups,
                                    StringRef membersWord) {
  if (contract)
    contract->multiples.push_back(ShapeContract::Multiple{
        members.str(), groups.str(), membersWord.str()});
}

void ShapeVerifier::requireAtMost(StringRef small, StringRef large) {
  if (contract)
    contract->atMost.push_back(ShapeContract::AtMost{small.str(), large.str()});
}

void ShapeVerifier::requireFitsInI32(StringRef symbol) {
  if (contract)
    contract->fitInI32.push_back(symbol.str());
}

LogicalResult mlir::mixer::verifyOutsAndResults(Operation *op, ValueRange outs,
                                                size_t count) {
  if (outs.size() != count)
    return op->emitOpError()
           << "expects " << count << " outs operands (one per result), got "
           << outs.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(op->getResults(), outs))) {
    auto [result, init] = pair;
    if (result.getType() != init.getType())
      return op->emitOpError()
             << "result #" << i << " has type " << result.getType()
             << ", but outs operand #" << i << " has type " << init.getType();
  }
  return success();
}

LogicalResult mlir::mixer::verifyOperands(Operation *op, ShapeVerifier &v,
                                          ArrayRef<NamedOperand> inputs,
                                          ValueRange outs,
                                          ArrayRef<NamedOperand> results) {
  auto check = [&](Value value, const NamedOperand &operand) {
    return operand.ints ? v.checkInts(value, operand.name, operand.dims)
                        : v.check(value, operand.name, operand.dims);
  };
  for (const NamedOperand &in : inputs) {
    if (!in.value)
      continue;
    if (failed(check(in.value, in)))
      return failure();
    if (in.rule)
      v.require(in.value, in.name, *in.rule, in.ruleBound);
  }
  if (failed(verifyOutsAndResults(op, outs, results.size())))
    return failure();
  for (auto [out, result] : llvm::zip(outs, results))
    if (failed(check(out, result)))
      return failure();
  return success();
}

SmallVector<NamedOperand, 2> mlir::mixer::namedResults(
    ValueRange outs,
    ArrayRef<std::pair<StringRef, ArrayRef<StringRef>>> results) {
  SmallVector<NamedOperand, 2> entries;
  for (auto [i, result] : llvm::enumerate(results))
    entries.push_back({i < outs.size() ? outs[i] : Value(), result.first,
                       llvm::to_vector<4>(result.second)});
  return entries;
}
