//===- GenericVjp.cpp - the VJP of a linalg.generic from its scalar body --===//
//
// A linalg.generic whose maps are projected permutations computes, at each
// point of its loops, out = body(operand scalars). Its vector-Jacobian
// product is made of generics over the same loops: each reads the operands
// and the result cotangents, recomputes the body's scalars, runs reverse
// mode over the body, and writes the cotangents of the operands of one
// indexing map at that map (one generic for all the elementwise operands,
// one per broadcast map). A loop missing from an operand's map (a
// broadcast) is a reduction of its generic: the cotangent is summed over
// it. Reduction loops of the forward op are supported when they only
// accumulate (each used `outs` scalar appears once, in the yielded
// `out + e`), as in matmuls and sums: the partial sums never enter the
// derivative.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/Transforms/Transforms.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

/// Reverse mode over one scalar body: `adjoints` maps values of the forward
/// body to their cotangents in the gradient body; `primal` maps them to
/// their recomputed values there.
class ScalarReverse {
public:
  ScalarReverse(ImplicitLocOpBuilder &b, IRMapping &primal,
                const DenseSet<Value> &varied)
      : b(b), primal(primal), varied(varied) {}

  void accumulate(Value v, Value d) {
    if (!d || !isFloat(v) || !varied.contains(v))
      return;
    Value &slot = adjoints[v];
    slot = slot ? arith::AddFOp::create(b, slot, d).getResult() : d;
  }

  Value adjoint(Value v) const { return adjoints.lookup(v); }

  /// Propagates the cotangent of `op`'s result to its operands.
  LogicalResult visit(Operation *op) {
    if (op->getNumResults() != 1 || !adjoints.count(op->getResult(0)))
      return success();
    Value d = adjoints.lookup(op->getResult(0));
    Value r = primal.lookupOrDefault(op->getResult(0));
    auto in = [&](unsigned i) { return primal.lookupOrDefault(op->getOperand(i)); };
    auto constant = [&](double value) {
      return arith::ConstantOp::create(b, b.getFloatAttr(d.getType(), value))
          .getResult();
    };
    auto mul = [&](Value x, Value y) { return arith::MulFOp::create(b, x, y).getResult(); };
    auto div = [&](Value x, Value y) { return arith::DivFOp::create(b, x, y).getResult(); };
    auto neg = [&](Value x) { return arith::NegFOp::create(b, x).getResult(); };
    auto pick = [&](Value cond, bool toFirst) {
      Value zero = constant(0.0);
      return arith::SelectOp::create(b, cond, toFirst ? d : zero, toFirst ? zero : d)
          .getResult();
    };
    auto toOperand = [&](unsigned i, Value g) { accumulate(op->getOperand(i), g); };

    return TypeSwitch<Operation *, LogicalResult>(op)
        .Case([&](arith::AddFOp) {
          toOperand(0, d);
          toOperand(1, d);
          return success();
        })
        .Case([&](arith::SubFOp) {
          toOperand(0, d);
          toOperand(1, neg(d));
          return success();
        })
        .Case([&](arith::MulFOp) {
          toOperand(0, mul(d, in(1)));
          toOperand(1, mul(d, in(0)));
          return success();
        })
        .Case([&](arith::DivFOp) {
          // d(x / y) = dx / y - (x / y) dy / y.
          Value dx = div(d, in(1));
          toOperand(0, dx);
          toOperand(1, neg(mul(dx, r)));
          return success();
        })
        .Case([&](arith::NegFOp) {
          toOperand(0, neg(d));
          return success();
        })
        .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
              arith::MinNumFOp>([&](Operation *minOrMax) {
          // The gradient goes to the operand picked (the first on a tie).
          bool isMax = isa<arith::MaximumFOp, arith::MaxNumFOp>(minOrMax);
          Value first = arith::CmpFOp::create(
              b, isMax ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OLE,
              in(0), in(1));
          toOperand(0, pick(first, true));
          toOperand(1, pick(first, false));
          return success();
        })
        .Case([&](arith::SelectOp) {
          toOperand(1, pick(in(0), true));
          toOperand(2, pick(in(0), false));
          return success();
        })
        .Case([&](arith::ExtFOp) {
          toOperand(0, arith::TruncFOp::create(b, op->getOperand(0).getType(), d));
          return success();
        })
        .Case([&](arith::TruncFOp) {
          toOperand(0, arith::ExtFOp::create(b, op->getOperand(0).getType(), d));
          return success();
        })
        .Case([&](math::ExpOp) {
          toOperand(0, mul(d, r));
          return success();
        })
        .Case([&](math::LogOp) {
          toOperand(0, div(d, in(0)));
          return success();
        })
        .Case([&](math::Log1pOp) {
          toOperand(0, div(d, arith::AddFOp::create(b, constant(1.0), in(0))));
          return success();
        })
        .Case([&](math::TanhOp) {
          // 1 - tanh^2.
          Value slope = arith::SubFOp::create(b, constant(1.0), mul(r, r));
          toOperand(0, mul(d, slope));
          return success();
        })
        .Case([&](math::SqrtOp) {
          toOperand(0, div(mul(d, constant(0.5)), r));
          return success();
        })
        .Case([&](math::RsqrtOp) {
          // d x^(-1/2) = -1/2 x^(-3/2) = -1/2 r^3.
          toOperand(0, mul(mul(d, constant(-0.5)), mul(r, mul(r, r))));
          return success();
        })
        .Case([&](math::AbsFOp) {
          Value nonNegative = arith::CmpFOp::create(
              b, arith::CmpFPredicate::OGE, in(0), constant(0.0));
          toOperand(0, arith::SelectOp::create(b, nonNegative, d, neg(d)));
          return success();
        })
        .Default([&](Operation *) {
          op->emitError() << "mixer-generate-vjp cannot differentiate '"
                          << op->getName() << "' in the body of a linalg.generic";
          return failure();
        });
  }

private:
  ImplicitLocOpBuilder &b;
  IRMapping &primal;
  const DenseSet<Value> &varied;
  DenseMap<Value, Value> adjoints;
};

/// Whether every use of the `outs` scalars of a generic with reduction loops
/// is the yielded accumulation `out + e` of its own result, with `e` free of
/// `outs` scalars: then d out_init = d result and e sees the result's
/// cotangent at every point.
LogicalResult checkAccumulatesOnly(linalg::GenericOp op) {
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    BlockArgument out = op.getMatchingBlockArgument(&init);
    if (out.use_empty())
      continue;
    auto add = yield.getOperand(i).getDefiningOp<arith::AddFOp>();
    bool ok = out.hasOneUse() && add &&
              (add.getLhs() == out || add.getRhs() == out);
    if (ok) {
      Value other = add.getLhs() == out ? add.getRhs() : add.getLhs();
      // `other` must not depend on any outs scalar.
      SmallVector<Value> worklist{other};
      DenseSet<Value> seen;
      while (ok && !worklist.empty()) {
        Value v = worklist.pop_back_val();
        if (!seen.insert(v).second)
          continue;
        if (auto arg = dyn_cast<BlockArgument>(v)) {
          ok = arg.getOwner() != body ||
               arg.getArgNumber() < op.getNumDpsInputs();
          continue;
        }
        if (Operation *def = v.getDefiningOp(); def && body->findAncestorOpInBlock(*def))
          llvm::append_range(worklist, def->getOperands());
      }
    }
    if (!ok)
      return op.emitError()
             << "mixer-generate-vjp cannot differentiate a linalg.generic "
                "whose reduction does not only sum (out + e) into outs #"
             << i;
  }
  return success();
}

} // namespace

FailureOr<SmallVector<Value>>
mlir::mixer::buildGenericVjp(OpBuilder &builder, linalg::GenericOp op,
                             ArrayRef<Value> cotangents) {
  ImplicitLocOpBuilder b(op.getLoc(), builder);
  LinalgBuilder lb(b);
  Block *body = op.getBody();
  unsigned numLoops = op.getNumLoops();
  unsigned numInputs = op.getNumDpsInputs();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool hasReduction = op.getNumReductionLoops() > 0;

  for (auto [i, map] : llvm::enumerate(maps))
    if (!map.isProjectedPermutation())
      return op.emitError() << "mixer-generate-vjp cannot differentiate a "
                               "linalg.generic whose operand #"
                            << i << " has a map that is not a projected "
                                    "permutation";
  for (Operation &inner : body->without_terminator())
    if (inner.getNumRegions() || !isPure(&inner))
      return inner.emitError()
             << "mixer-generate-vjp cannot differentiate '" << inner.getName()
             << "' in the body of a linalg.generic";
  if (hasReduction && failed(checkAccumulatesOnly(op)))
    return failure();

  // The scalars that depend on a float tensor operand: only they carry
  // cotangents.
  DenseSet<Value> varied;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (isFloat(arg) && isa<RankedTensorType>(operand.get().getType()))
      varied.insert(arg);
  }
  for (Operation &inner : body->without_terminator())
    if (llvm::any_of(inner.getOperands(),
                     [&](Value v) { return varied.contains(v); }))
      for (Value result : inner.getResults())
        varied.insert(result);

  // Inputs of the gradient generic: every forward input, the `outs` read by
  // an elementwise body (their values matter), then the cotangents.
  SmallVector<Value> gradInputs;
  SmallVector<AffineMap> gradMaps;
  SmallVector<BlockArgument> forwardArgs;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    bool isInit = operand.getOperandNumber() >= numInputs;
    if (isInit && (hasReduction || arg.use_empty()))
      continue;
    gradInputs.push_back(operand.get());
    gradMaps.push_back(maps[operand.getOperandNumber()]);
    forwardArgs.push_back(arg);
  }
  unsigned numPrimal = gradInputs.size();
  SmallVector<unsigned> cotangentResults;
  for (auto [i, cotangent] : llvm::enumerate(cotangents)) {
    if (!cotangent || !isFloat(body->getTerminator()->getOperand(i)))
      continue;
    gradInputs.push_back(cotangent);
    gradMaps.push_back(op.getIndexingMapMatchingResult(op->getResult(i)));
    cotangentResults.push_back(i);
  }

  SmallVector<Value> result(op->getNumOperands());
  // A sum into `outs` (out + e) passes the result's cotangent to the
  // initial value as it is.
  if (hasReduction) {
    for (OpOperand &init : op.getDpsInitsMutable()) {
      unsigned i = init.getOperandNumber() - numInputs;
      if (!op.getMatchingBlockArgument(&init).use_empty())
        result[init.getOperandNumber()] = cotangents[i];
    }
  }

  // Outputs: one per operand whose scalar is varied, at the operand's map,
  // summed over the loops the map lacks. Operands with the same map share
  // one generic; each other map gets its own (a plain reduction, which the
  // vectorizer takes, where a generic of outputs of several shapes is not).
  SmallVector<unsigned> gradOperands;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    bool isInit = operand.getOperandNumber() >= numInputs;
    if (!varied.contains(arg) || arg.use_empty() || (isInit && hasReduction))
      continue;
    gradOperands.push_back(operand.getOperandNumber());
  }
  llvm::MapVector<AffineMap, SmallVector<unsigned>> groups;
  for (unsigned i : gradOperands)
    groups[maps[i]].push_back(i);

  for (auto &[map, group] : groups) {
    bool summed = map.getNumResults() < numLoops;
    SmallVector<Value> inits;
    for (unsigned i : group) {
      Value operand = op->getOperand(i);
      Type elt = cast<RankedTensorType>(operand.getType()).getElementType();
      inits.push_back(summed ? lb.filled(lb.sizesOf(operand), elt, 0.0)
                             : lb.empty(lb.sizesOf(operand), elt));
    }
    SmallVector<AffineMap> allMaps(gradMaps);
    allMaps.append(group.size(), map);
    SmallVector<utils::IteratorType> iterators;
    for (unsigned d = 0; d < numLoops; ++d)
      iterators.push_back(map.isFunctionOfDim(d)
                              ? utils::IteratorType::parallel
                              : utils::IteratorType::reduction);

    LogicalResult status = success();
    auto grad = linalg::GenericOp::create(
        b, ValueRange(inits).getTypes(), gradInputs, inits, allMaps, iterators,
        [&](OpBuilder &nb, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, nb);
          IRMapping primal;
          for (auto [arg, value] :
               llvm::zip(forwardArgs, args.take_front(numPrimal)))
            primal.map(arg, value);
          // The partial sums of a reduction never enter the derivative
          // (checkAccumulatesOnly): any value stands for them.
          for (BlockArgument arg : body->getArguments())
            if (!primal.contains(arg))
              primal.map(arg, arith::ConstantOp::create(
                                  ib, ib.getZeroAttr(arg.getType())));
          for (Operation &inner : body->without_terminator())
            ib.clone(inner, primal);

          ScalarReverse reverse(ib, primal, varied);
          Operation *yield = body->getTerminator();
          for (auto [k, resultIndex] : llvm::enumerate(cotangentResults))
            reverse.accumulate(yield->getOperand(resultIndex),
                               args[numPrimal + k]);
          for (Operation &inner : llvm::reverse(body->without_terminator()))
            if (failed(reverse.visit(&inner))) {
              status = failure();
              break;
            }

          SmallVector<Value> yielded;
          ValueRange accs =
              args.drop_front(numPrimal + cotangentResults.size());
          for (auto [k, operandIndex] : llvm::enumerate(group)) {
            BlockArgument arg = body->getArgument(operandIndex);
            Value d = reverse.adjoint(arg);
            if (!d)
              d = arith::ConstantOp::create(ib, ib.getZeroAttr(arg.getType()));
            if (summed)
              d = arith::AddFOp::create(ib, accs[k], d);
            yielded.push_back(d);
          }
          linalg::YieldOp::create(ib, yielded);
        });
    if (failed(status)) {
      grad->erase();
      return failure();
    }
    for (auto [k, operandIndex] : llvm::enumerate(group))
      result[operandIndex] = grad->getResult(k);
  }
  return result;
}
