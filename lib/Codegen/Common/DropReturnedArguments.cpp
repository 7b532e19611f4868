//===- DropReturnedArguments.cpp - results written into outs arguments ----===//

#include "mixer/Codegen/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERDROPRETURNEDARGUMENTSPASS
#include "mixer/Codegen/Common/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

/// The function argument `value` is, looking through casts.
static BlockArgument asArgument(Value value, func::FuncOp func) {
  while (auto cast = value.getDefiningOp<memref::CastOp>())
    value = cast.getSource();
  auto arg = dyn_cast<BlockArgument>(value);
  if (arg && arg.getOwner() == &func.getBody().front())
    return arg;
  return {};
}

/// The destination of result `i`: the i-th of the trailing `outs` arguments
/// (one per result), or null when there are fewer arguments than results.
static BlockArgument getDestination(func::FuncOp func, unsigned i) {
  unsigned numArgs = func.getNumArguments(), numResults = func.getNumResults();
  if (numArgs < numResults)
    return {};
  return func.getArgument(numArgs - numResults + i);
}

/// Makes result `i` of `func`, which is not its destination, land there.
/// Elementwise fusion rewrites an `outs` operand whose value the payload
/// does not read into a fresh tensor, which bufferizes to an allocation.
/// When the destination's contents are never used (only its sizes), the
/// argument replaces the allocation; otherwise (another allocation, another
/// argument) the result is copied into it. Returns the destination, or null
/// when there is none of a compatible type that no other result returns.
static Value storeIntoDestination(func::FuncOp func, func::ReturnOp ret,
                                  unsigned i) {
  Value result = ret.getOperand(i);
  BlockArgument dest = getDestination(func, i);
  if (!dest)
    return {};
  auto type = dyn_cast<MemRefType>(result.getType());
  auto destType = dyn_cast<MemRefType>(dest.getType());
  if (!type || !destType || !memref::CastOp::areCastCompatible(type, destType))
    return {};
  // Another result already returns the destination.
  for (Value operand : ret.getOperands())
    if (asArgument(operand, func) == dest)
      return {};

  Value root = result;
  while (auto cast = root.getDefiningOp<memref::CastOp>())
    root = cast.getSource();
  auto alloc = root.getDefiningOp<memref::AllocOp>();
  bool onlySizesUsed = llvm::all_of(dest.getUsers(), [](Operation *user) {
    return isa<memref::DimOp>(user);
  });
  if (alloc && alloc.getType() == destType && onlySizesUsed) {
    alloc.replaceAllUsesWith(dest);
    alloc.erase();
    return dest;
  }
  OpBuilder builder(ret);
  memref::CopyOp::create(builder, ret.getLoc(), result, dest);
  return dest;
}

namespace {
struct MixerDropReturnedArgumentsPass
    : public mixer::impl::MixerDropReturnedArgumentsPassBase<
          MixerDropReturnedArgumentsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic() || func.getNumResults() == 0)
        continue;
      if (!func.getBody().hasOneBlock()) {
        func.emitError() << "expected a single-block function body";
        return signalPassFailure();
      }
      auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
      for (unsigned i = 0, e = ret.getNumOperands(); i < e; ++i) {
        Value operand = ret.getOperand(i);
        BlockArgument dest = getDestination(func, i);
        if (dest && isa<BaseMemRefType>(operand.getType()) &&
            asArgument(operand, func) == dest)
          continue;
        if (Value dest = storeIntoDestination(func, ret, i)) {
          ret.setOperand(i, dest);
          continue;
        }
        if (dest)
          func.emitError() << "result #" << i
                           << " is not computed in place into its "
                              "destination, argument #"
                           << dest.getArgNumber() << "; the last "
                           << func.getNumResults()
                           << " arguments are the destinations of the "
                              "results, in order";
        else
          func.emitError() << "result #" << i
                           << " has no destination; pass one argument "
                              "marked bufferization.writable per result, "
                              "after the inputs";
        return signalPassFailure();
      }
      ret->setOperands({});
      func.setType(
          FunctionType::get(&getContext(), func.getArgumentTypes(), {}));
      func.removeResAttrsAttr();
    }
  }
};
} // namespace
