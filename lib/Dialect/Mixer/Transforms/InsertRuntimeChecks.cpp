//===- InsertRuntimeChecks.cpp - check what the verifier cannot -----------===//
//
// Turns each mixer op's ShapeContract (the verifier's statement of its
// operands) into run-time checks of what is dynamic, and runs the op only
// when they all hold. A failed check calls the mixer runtime with a message
// naming the operand and dimension and the sizes it saw.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerDialect.h"
#include "mixer/Dialect/Mixer/IR/ShapeContract.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/StringMap.h"

#include <limits>

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERINSERTRUNTIMECHECKSPASS
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

/// The runtime function a failed check calls (include/mixer/Runtime).
static constexpr StringLiteral kCheckFailed = "mixerRuntimeCheckFailed";

namespace {
/// One run-time check: the op may run only if `ok` holds. On failure the
/// runtime substitutes `a` and `b` (i64, or absent) for {0} and {1} in
/// `message`.
struct Check {
  Value ok;
  std::string message;
  Value a, b;
};

/// Emits the checks of one op's contract before the op.
class CheckEmitter {
public:
  CheckEmitter(OpBuilder &builder, Operation *op, const ShapeContract &contract)
      : b(builder), loc(op->getLoc()), contract(contract),
        prefix(op->getName().getStringRef().str() + ": ") {
    for (const ShapeContract::Dim &dim : contract.dims)
      if (!firstOf.count(dim.symbol) ||
          (ShapedType::isDynamic(firstOf[dim.symbol]->size) &&
           !ShapedType::isDynamic(dim.size)))
        firstOf[dim.symbol] = &dim; // Prefer a static size to compare with.
  }

  SmallVector<Check> emit() {
    emitDimChecks();
    emitDerivedChecks();
    for (const ShapeContract::Rule &rule : contract.rules)
      emitRule(rule);
    return std::move(checks);
  }

private:
  Value i64(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
  }

  /// The size of `dim` as an i64 value.
  Value sizeOf(const ShapeContract::Dim &dim) {
    if (!ShapedType::isDynamic(dim.size))
      return i64(dim.size);
    Value size = tensor::DimOp::create(b, loc, dim.value, dim.dim);
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
  }

  const ShapeContract::Dim *find(StringRef symbol) const {
    auto it = firstOf.find(symbol);
    return it == firstOf.end() ? nullptr : it->second;
  }

  static bool isDynamic(const ShapeContract::Dim *dim) {
    return dim && ShapedType::isDynamic(dim->size);
  }

  void add(Value ok, const Twine &message, Value a = {}, Value c = {}) {
    checks.push_back(Check{ok, prefix + message.str(), a, c});
  }

  Value cmp(arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
  }

  /// Every dimension named by a symbol equals the first one so named.
  void emitDimChecks() {
    for (const ShapeContract::Dim &dim : contract.dims) {
      const ShapeContract::Dim *first = find(dim.symbol);
      if (first == &dim || (!ShapedType::isDynamic(dim.size) &&
                            !ShapedType::isDynamic(first->size)))
        continue; // The verifier checked two static sizes.
      Value size = sizeOf(dim), expected = sizeOf(*first);
      add(cmp(arith::CmpIPredicate::eq, size, expected),
          dim.what + " is {0}, but " + first->what + " is {1}", size, expected);
    }
  }

  /// Products (T*k), orderings (k <= E), multiples (heads of groups) and
  /// i32 ranges of symbols, where one of their sizes is dynamic.
  void emitDerivedChecks() {
    for (const ShapeContract::Product &p : contract.products) {
      const ShapeContract::Dim *product = find(p.product), *lhs = find(p.lhs),
                               *rhs = find(p.rhs);
      if (!product || !lhs || !rhs ||
          !(isDynamic(product) || isDynamic(lhs) || isDynamic(rhs)))
        continue;
      Value expected =
          arith::MulIOp::create(b, loc, sizeOf(*lhs), sizeOf(*rhs));
      Value size = sizeOf(*product);
      add(cmp(arith::CmpIPredicate::eq, size, expected),
          product->what + " is {0}, but " + p.lhs + "*" + p.rhs + " (" +
              lhs->what + " times " + rhs->what + ") is {1}",
          size, expected);
    }
    for (const ShapeContract::AtMost &order : contract.atMost) {
      const ShapeContract::Dim *small = find(order.small),
                               *large = find(order.large);
      if (!small || !large || !(isDynamic(small) || isDynamic(large)))
        continue;
      Value s = sizeOf(*small), l = sizeOf(*large);
      add(cmp(arith::CmpIPredicate::sle, s, l),
          small->what + " = {0} must not exceed " + large->what + " = {1}", s,
          l);
    }
    for (const ShapeContract::Multiple &m : contract.multiples) {
      const ShapeContract::Dim *members = find(m.members),
                               *groups = find(m.groups);
      if (!members || !groups || !(isDynamic(members) || isDynamic(groups)))
        continue;
      Value n = sizeOf(*members), g = sizeOf(*groups);
      Value positive = cmp(arith::CmpIPredicate::sgt, g, i64(0));
      // Divide by 1 when there are no groups: that case fails anyway.
      Value divisor = arith::SelectOp::create(b, loc, positive, g, i64(1));
      Value remainder = arith::RemSIOp::create(b, loc, n, divisor);
      Value divides = cmp(arith::CmpIPredicate::eq, remainder, i64(0));
      add(arith::AndIOp::create(b, loc, positive, divides),
          m.membersWord + " " + members->what +
              " = {0} must be a multiple "
              "of a positive number of groups " +
              groups->what + " = {1}",
          n, g);
    }
    for (const std::string &symbol : contract.fitInI32) {
      const ShapeContract::Dim *dim = find(symbol);
      if (!isDynamic(dim))
        continue;
      Value size = sizeOf(*dim);
      add(cmp(arith::CmpIPredicate::sle, size,
              i64(std::numeric_limits<int32_t>::max())),
          dim->what + " = {0} slots cannot be indexed by i32 elements", size);
    }
  }

  using Combine = function_ref<SmallVector<Value>(OpBuilder &, Location, Value,
                                                  ValueRange)>;

  /// A reduction of every element of `tensor` into 0-d accumulators that
  /// start at `inits`; `combine(builder, element, accumulators)` returns the
  /// new accumulators. Returns their final values. With a static innermost
  /// dim of more than one element, in two steps: the other dims first, into
  /// one accumulator per element of that dim (independent lanes that
  /// vectorize, where one chain of scalar steps would not), then those;
  /// `combine` must therefore also combine its own partial results, as
  /// min, max, sums and max |x| do.
  SmallVector<Value> reduceAll(Value tensor, ArrayRef<TypedAttr> inits,
                               Combine combine) {
    auto type = cast<RankedTensorType>(tensor.getType());
    int64_t rank = type.getRank();
    int64_t lanes = rank >= 2 ? type.getDimSize(rank - 1) : 1;
    SmallVector<Value> totals;
    if (ShapedType::isDynamic(lanes) || lanes <= 1)
      totals = reduceInto(tensor, inits, combine, /*lanes=*/0);
    else
      totals = reduceInto(reduceInto(tensor, inits, combine, lanes), inits,
                          combine, /*lanes=*/0);
    SmallVector<Value> results;
    for (Value total : totals)
      results.push_back(tensor::ExtractOp::create(b, loc, total, ValueRange{}));
    return results;
  }

  /// Reduces `inputs` (one shape) into accumulators that start at `inits`:
  /// 0-d ones, or with `lanes` one per element of the innermost dim. One
  /// input: each of its elements goes into every accumulator; one input
  /// per accumulator: accumulator i takes input i's.
  SmallVector<Value> reduceInto(ValueRange inputs, ArrayRef<TypedAttr> inits,
                                Combine combine, int64_t lanes) {
    auto type = cast<RankedTensorType>(inputs.front().getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> kept;
    if (lanes) {
      shape.push_back(lanes);
      kept.push_back(b.getAffineDimExpr(rank - 1));
    }
    SmallVector<Value> outs;
    SmallVector<AffineMap> maps(inputs.size(), b.getMultiDimIdentityMap(rank));
    for (TypedAttr init : inits) {
      Value empty = tensor::EmptyOp::create(b, loc, shape, init.getType());
      Value value = arith::ConstantOp::create(b, loc, init);
      outs.push_back(linalg::FillOp::create(b, loc, value, empty).result());
      maps.push_back(AffineMap::get(rank, 0, kept, b.getContext()));
    }
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::reduction);
    if (lanes)
      iterators.back() = utils::IteratorType::parallel;
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange(ValueRange(outs)), inputs, outs, maps, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          ValueRange elements = args.take_front(inputs.size());
          ValueRange accumulators = args.drop_front(inputs.size());
          SmallVector<Value> next;
          if (inputs.size() == 1) {
            next = combine(nb, nloc, elements[0], accumulators);
          } else {
            // combine's results for the other accumulators go unused and
            // are folded away.
            for (auto [i, element] : llvm::enumerate(elements))
              next.push_back(combine(nb, nloc, element, accumulators)[i]);
          }
          linalg::YieldOp::create(nb, nloc, next);
        });
    return SmallVector<Value>(generic.getResults());
  }

  void emitRule(const ShapeContract::Rule &rule) {
    std::string name = "'" + rule.operand + "'";
    Type elementType = getElementTypeOrSelf(rule.value.getType());
    switch (rule.rule) {
    case ValueRule::NonPositive: {
      double inf = std::numeric_limits<double>::infinity();
      SmallVector<Value> range = reduceAll(
          rule.value,
          {b.getFloatAttr(elementType, -inf), b.getFloatAttr(elementType, inf)},
          [](OpBuilder &nb, Location nloc, Value x,
             ValueRange acc) -> SmallVector<Value> {
            // maximumf propagates NaN, which then fails the check.
            return {arith::MaximumFOp::create(nb, nloc, x, acc[0]),
                    arith::MinimumFOp::create(nb, nloc, x, acc[1])};
          });
      Value zero =
          arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, 0.0));
      Value minusInf =
          arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, -inf));
      // -inf would make the chunked form's segment sums NaN (-inf - -inf).
      Value ok = arith::AndIOp::create(
          b, loc,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, range[0],
                                zero),
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, range[1],
                                minusInf));
      add(ok, name + " holds a positive, infinite or NaN value; it must be "
                     "finite and <= 0 (a log-decay or log-gate)");
      return;
    }
    case ValueRule::Positive: {
      Value value = tensor::ExtractOp::create(b, loc, rule.value, ValueRange{});
      Value zero =
          arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, 0.0));
      add(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, value, zero),
          name + " must be positive (it is zero, negative or NaN)");
      return;
    }
    case ValueRule::Zero: {
      // The largest |element|; maximumf propagates NaN, which fails too.
      Value largest = reduceAll(
          rule.value, {b.getFloatAttr(elementType, 0.0)},
          [](OpBuilder &nb, Location nloc, Value x,
             ValueRange acc) -> SmallVector<Value> {
            return {arith::MaximumFOp::create(
                nb, nloc, math::AbsFOp::create(nb, nloc, x), acc[0])};
          })[0];
      Value zero =
          arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, 0.0));
      add(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, largest,
                                zero),
          name + " holds a nonzero value; it must be zero (this op has no "
                 "gradient through it)");
      return;
    }
    case ValueRule::IndexBelow:
    case ValueRule::CountsWithin:
      emitIntegerRule(rule, name);
      return;
    }
  }

  /// Index ranges and group counts: one reduction to min, max and sum.
  void emitIntegerRule(const ShapeContract::Rule &rule,
                       const std::string &name) {
    const ShapeContract::Dim *boundDim = find(rule.symbol);
    if (!boundDim)
      return;
    Type i64Type = b.getI64Type();
    SmallVector<Value> stats =
        reduceAll(rule.value,
                  {b.getI64IntegerAttr(std::numeric_limits<int64_t>::max()),
                   b.getI64IntegerAttr(std::numeric_limits<int64_t>::min()),
                   b.getI64IntegerAttr(0)},
                  [&](OpBuilder &nb, Location nloc, Value x,
                      ValueRange acc) -> SmallVector<Value> {
                    if (x.getType() != i64Type)
                      x = arith::ExtSIOp::create(nb, nloc, i64Type, x);
                    return {arith::MinSIOp::create(nb, nloc, x, acc[0]),
                            arith::MaxSIOp::create(nb, nloc, x, acc[1]),
                            arith::AddIOp::create(nb, nloc, x, acc[2])};
                  });
    Value min = stats[0], max = stats[1], sum = stats[2];
    Value bound = sizeOf(*boundDim);
    std::string boundText = rule.symbol + " = {1} (" + boundDim->what + ")";
    if (rule.rule == ValueRule::IndexBelow) {
      add(cmp(arith::CmpIPredicate::sge, min, i64(0)),
          name + " holds a negative index {0}", min);
      add(cmp(arith::CmpIPredicate::slt, max, bound),
          name + " holds index {0}, not below " + boundText, max, bound);
      return;
    }
    add(cmp(arith::CmpIPredicate::sge, min, i64(0)),
        name + " holds a negative count {0}", min);
    // Each count at most the bound keeps the sum of E of them from
    // overflowing, so the sum check below is exact.
    add(cmp(arith::CmpIPredicate::sle, max, bound),
        name + " holds a count {0} above " + boundText, max, bound);
    add(cmp(arith::CmpIPredicate::sle, sum, bound),
        name + " sums to {0}, more than " + boundText, sum, bound);
  }

  OpBuilder &b;
  Location loc;
  const ShapeContract &contract;
  std::string prefix;
  llvm::StringMap<const ShapeContract::Dim *> firstOf;
  SmallVector<Check> checks;
};

struct InsertRuntimeChecksPass
    : public mixer::impl::MixerInsertRuntimeChecksPassBase<
          InsertRuntimeChecksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<MixerDialect>(op->getDialect()))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      FailureOr<ShapeContract> contract = getShapeContract(op);
      if (failed(contract))
        return signalPassFailure();
      OpBuilder builder(op);
      SmallVector<Check> checks = CheckEmitter(builder, op, *contract).emit();
      if (!checks.empty())
        guard(builder, op, checks);
    }
  }

  /// Runs `op` only when every check holds; otherwise reports each failed
  /// check and passes the op's `outs` through.
  void guard(OpBuilder &b, Operation *op, ArrayRef<Check> checks) {
    Location loc = op->getLoc();
    Value ok = checks.front().ok;
    for (const Check &check : checks.drop_front())
      ok = arith::AndIOp::create(b, loc, ok, check.ok);

    auto ifOp = scf::IfOp::create(b, loc, op->getResultTypes(), ok,
                                  /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
    op->replaceAllUsesWith(ifOp.getResults());
    op->moveBefore(ifOp.thenBlock(), ifOp.thenBlock()->end());
    OpBuilder thenBuilder = OpBuilder::atBlockEnd(ifOp.thenBlock());
    scf::YieldOp::create(thenBuilder, loc, op->getResults());

    OpBuilder elseBuilder = OpBuilder::atBlockEnd(ifOp.elseBlock());
    func::FuncOp callee = getCheckFailedFunction(loc);
    Value zero = arith::ConstantIntOp::create(elseBuilder, loc,
                                              elseBuilder.getI64Type(), 0);
    for (const Check &check : checks) {
      Value failedCheck = arith::XOrIOp::create(
          elseBuilder, loc, check.ok,
          arith::ConstantIntOp::create(elseBuilder, loc, 1, 1));
      auto report = scf::IfOp::create(elseBuilder, loc, failedCheck);
      OpBuilder reportBuilder = report.getThenBodyBuilder();
      Value message = getMessage(reportBuilder, loc, check.message);
      func::CallOp::create(reportBuilder, loc, callee,
                           ValueRange{message, check.a ? check.a : zero,
                                      check.b ? check.b : zero});
    }
    scf::YieldOp::create(elseBuilder, loc,
                         cast<DestinationStyleOpInterface>(op).getDpsInits());
  }

  /// `void mixerRuntimeCheckFailed(const char *message, int64_t a, int64_t b)`.
  func::FuncOp getCheckFailedFunction(Location loc) {
    ModuleOp module = getOperation();
    if (auto existing = module.lookupSymbol<func::FuncOp>(kCheckFailed))
      return existing;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto type = b.getFunctionType({LLVM::LLVMPointerType::get(b.getContext()),
                                   b.getI64Type(), b.getI64Type()},
                                  {});
    auto func = func::FuncOp::create(b, loc, kCheckFailed, type);
    func.setPrivate();
    return func;
  }

  /// A pointer to a NUL-terminated global holding `message` (one global per
  /// distinct message).
  Value getMessage(OpBuilder &b, Location loc, StringRef message) {
    std::string &name = messageGlobals[message];
    if (name.empty()) {
      name =
          "__mixer_check_message_" + std::to_string(messageGlobals.size() - 1);
      while (getOperation().lookupSymbol(name))
        name += "_";
      OpBuilder moduleBuilder =
          OpBuilder::atBlockBegin(getOperation().getBody());
      auto type = LLVM::LLVMArrayType::get(IntegerType::get(b.getContext(), 8),
                                           message.size() + 1);
      LLVM::GlobalOp::create(moduleBuilder, loc, type, /*isConstant=*/true,
                             LLVM::Linkage::Internal, name,
                             b.getStringAttr(message.str() + '\0'));
    }
    return LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), name);
  }

  llvm::StringMap<std::string> messageGlobals;
};
} // namespace
