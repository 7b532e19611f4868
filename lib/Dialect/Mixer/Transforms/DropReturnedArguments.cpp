//===- DropReturnedArguments.cpp - results written into outs arguments ----===//

#include "mixer/Dialect/Mixer/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERDROPRETURNEDARGUMENTSPASS
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
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

/// Makes result `i` of `func`, a buffer the function allocated, land in its
/// destination: the i-th of the trailing `outs` arguments (one per result).
/// Elementwise fusion rewrites an `outs` operand whose value the payload
/// does not read into a fresh tensor, which bufferizes to an allocation.
/// When the destination's contents are never used (only its sizes), the
/// argument replaces the allocation; otherwise the result is copied into it.
/// Returns the destination, or null when there is none of a compatible type.
static Value storeIntoDestination(func::FuncOp func, func::ReturnOp ret,
                                  unsigned i) {
  unsigned numArgs = func.getNumArguments(), numResults = func.getNumResults();
  if (numArgs < numResults)
    return {};
  Value result = ret.getOperand(i);
  BlockArgument dest = func.getArgument(numArgs - numResults + i);
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
        if (isa<BaseMemRefType>(operand.getType()) && asArgument(operand, func))
          continue;
        if (Value dest = storeIntoDestination(func, ret, i)) {
          ret.setOperand(i, dest);
          continue;
        }
        func.emitError() << "result #" << i
                         << " is not computed in place into an argument; "
                            "pass its destination as an argument marked "
                            "bufferization.writable";
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
