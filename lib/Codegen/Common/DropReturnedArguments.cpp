//===- DropReturnedArguments.cpp - results written into outs arguments ----===//

#include "mixer/Codegen/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <functional>
#include <optional>

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

/// Makes every result of the public function `func` land in its destination
/// argument. Returns, per result, whether it was computed there in place
/// (then its callers' bufferization already counts the argument as
/// written), or none after reporting an error.
static std::optional<SmallVector<bool>>
storeResultsIntoDestinations(func::FuncOp func) {
  if (!func.getBody().hasOneBlock()) {
    func.emitError() << "expected a single-block function body";
    return std::nullopt;
  }
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  SmallVector<bool> inPlace;
  for (unsigned i = 0, e = ret.getNumOperands(); i < e; ++i) {
    Value operand = ret.getOperand(i);
    BlockArgument dest = getDestination(func, i);
    if (dest && isa<BaseMemRefType>(operand.getType()) &&
        asArgument(operand, func) == dest) {
      inPlace.push_back(true);
      continue;
    }
    if (Value dest = storeIntoDestination(func, ret, i)) {
      ret.setOperand(i, dest);
      inPlace.push_back(false);
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
    return std::nullopt;
  }
  return inPlace;
}

/// The name of the function around `op`, for diagnostics.
static StringRef callerName(Operation *op) {
  auto caller = op->getParentOfType<func::FuncOp>();
  return caller ? caller.getSymName() : StringRef("<module>");
}

/// Checks that every use of `func` in `module` is a func.call, which
/// rewriteCall can give the new signature.
static LogicalResult checkUsesAreCalls(func::FuncOp func, ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, module);
  if (!uses)
    return func.emitError()
           << "cannot find every use of @" << func.getSymName()
           << ", whose results become destination arguments";
  for (const SymbolTable::SymbolUse &use : *uses) {
    Operation *user = use.getUser();
    if (isa<func::CallOp>(user))
      continue;
    return user->emitError()
           << "'" << user->getName() << "' in @" << callerName(user)
           << " uses @" << func.getSymName()
           << ", whose results become destination arguments; only "
              "func.call sites of it can be rewritten";
  }
  return success();
}

/// Gives `call` the new signature of `callee`: result i is the buffer
/// passed as its destination. A destination the callee did not write in
/// place is, for the caller's bufferization, only read (it may be an input
/// the caller reads again), so the call gets a fresh buffer for it.
static LogicalResult rewriteCall(func::CallOp call, func::FuncOp callee,
                                 ArrayRef<bool> inPlace) {
  OpBuilder builder(call);
  Location loc = call.getLoc();
  unsigned numResults = call.getNumResults();
  unsigned firstDest = call.getNumOperands() - numResults;
  SmallVector<Value> operands(call.getOperands());
  for (unsigned i = 0; i < numResults; ++i) {
    Value dest = operands[firstDest + i];
    auto destType = cast<MemRefType>(dest.getType());
    if (!inPlace[i]) {
      auto allocType =
          MemRefType::get(destType.getShape(), destType.getElementType(),
                          MemRefLayoutAttrInterface(),
                          destType.getMemorySpace());
      if (!memref::CastOp::areCastCompatible(allocType, destType))
        return call.emitError()
               << "cannot allocate the destination of result #" << i
               << " of @" << callee.getSymName() << " in its caller @"
               << callerName(call) << ": argument #" << firstDest + i
               << " has a layout no allocation can be cast to";
      SmallVector<Value> sizes;
      for (int64_t d = 0, e = destType.getRank(); d < e; ++d)
        if (destType.isDynamicDim(d))
          sizes.push_back(memref::DimOp::create(builder, loc, dest, d));
      dest = memref::AllocOp::create(builder, loc, allocType, sizes);
      if (allocType != destType)
        dest = memref::CastOp::create(builder, loc, destType, dest);
      operands[firstDest + i] = dest;
    }
  }
  auto newCall = func::CallOp::create(builder, loc, callee, operands);
  for (NamedAttribute attr : call->getAttrs())
    if (attr.getName() != call.getCalleeAttrName() &&
        attr.getName() != call.getResAttrsAttrName())
      newCall->setAttr(attr.getName(), attr.getValue());
  SmallVector<Value> replacements;
  for (unsigned i = 0; i < numResults; ++i) {
    Value dest = operands[firstDest + i];
    Type resultType = call.getResult(i).getType();
    if (resultType != dest.getType())
      dest = memref::CastOp::create(builder, loc, resultType, dest);
    replacements.push_back(dest);
  }
  call.replaceAllUsesWith(replacements);
  call.erase();
  return success();
}

namespace {
struct MixerDropReturnedArgumentsPass
    : public mixer::impl::MixerDropReturnedArgumentsPassBase<
          MixerDropReturnedArgumentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> publicFuncs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic() && func.getNumResults() != 0)
        publicFuncs.push_back(func);
    for (func::FuncOp func : publicFuncs)
      if (failed(checkUsesAreCalls(func, module)))
        return signalPassFailure();
    // Callees first: a caller then returns the buffers it passed them,
    // which are often its own destinations, rather than copies.
    DenseSet<Operation *> visited;
    std::function<LogicalResult(func::FuncOp)> rewrite =
        [&](func::FuncOp func) -> LogicalResult {
      if (!visited.insert(func).second)
        return success();
      SmallVector<func::FuncOp> callees;
      func.walk([&](func::CallOp call) {
        auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
        if (callee && llvm::is_contained(publicFuncs, callee))
          callees.push_back(callee);
      });
      for (func::FuncOp callee : callees)
        if (failed(rewrite(callee)))
          return failure();
      return dropResults(func, module);
    };
    for (func::FuncOp func : publicFuncs)
      if (failed(rewrite(func)))
        return signalPassFailure();
  }

  /// Drops the results of `func` and rewrites its call sites.
  LogicalResult dropResults(func::FuncOp func, ModuleOp module) {
    std::optional<SmallVector<bool>> inPlace =
        storeResultsIntoDestinations(func);
    if (!inPlace)
      return failure();
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    ret->setOperands({});
    func.setType(FunctionType::get(&getContext(), func.getArgumentTypes(), {}));
    func.removeResAttrsAttr();
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, module);
    SmallVector<func::CallOp> calls;
    for (const SymbolTable::SymbolUse &use : *uses)
      calls.push_back(cast<func::CallOp>(use.getUser()));
    for (func::CallOp call : calls)
      if (failed(rewriteCall(call, func, *inPlace)))
        return failure();
    return success();
  }
};
} // namespace
