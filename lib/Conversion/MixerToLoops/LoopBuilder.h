//===- LoopBuilder.h - blocks of the scalar loop lowering -------*- C++ -*-===//
//
// Small helpers shared by the convert-mixer-to-loops patterns: nests of
// scf.for over [0, ub) carrying tensors as iter_args, scalar reads and writes
// of tensor elements, scalar sums, and the few arith/math ops the definitions
// use. Everything stays on tensors (tensor.extract / tensor.insert), so the
// result bufferizes in place into the ops' `outs` operands.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLOOPS_LOOPBUILDER_H
#define MIXER_LIB_CONVERSION_MIXERTOLOOPS_LOOPBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer::loops {

/// Body of a loop nest: receives the induction variables (outermost first)
/// and the current iter_args, returns the values to yield (one per iter_arg).
using LoopNestBody = function_ref<SmallVector<Value>(
    OpBuilder &b, Location loc, ValueRange ivs, ValueRange iterArgs)>;

/// Builds a nest of scf.for, loop i over [0, ubs[i]) with step 1, threading
/// `iterArgs` through every level. Returns the results of the outermost loop
/// (the body's values when `ubs` is empty). The body builder is invoked with
/// the insertion point inside the innermost loop.
inline SmallVector<Value> buildLoopNest(OpBuilder &b, Location loc,
                                        ArrayRef<Value> ubs,
                                        ValueRange iterArgs,
                                        LoopNestBody body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lbs(ubs.size(), zero), steps(ubs.size(), one);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, iterArgs,
      [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
        return body(nb, nloc, ivs, args);
      });
  return nest.results;
}

/// Size of dimension `dim` of the ranked tensor `tensor` as an index value:
/// a constant when static, a tensor.dim otherwise.
inline Value dimSize(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  return getValueOrCreateConstantIndexOp(
      b, loc, tensor::getMixedSize(b, loc, tensor, dim));
}

/// The sizes of all dimensions of `tensor` (see dimSize).
inline SmallVector<Value> dimSizes(OpBuilder &b, Location loc, Value tensor) {
  SmallVector<Value> sizes;
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(dimSize(b, loc, tensor, d));
  return sizes;
}

/// Reads the scalar tensor[indices].
inline Value load(OpBuilder &b, Location loc, Value tensor,
                  ValueRange indices) {
  return tensor::ExtractOp::create(b, loc, tensor, indices);
}

/// Writes `scalar` at tensor[indices]; returns the updated tensor.
inline Value store(OpBuilder &b, Location loc, Value scalar, Value tensor,
                   ValueRange indices) {
  return tensor::InsertOp::create(b, loc, scalar, tensor, indices);
}

/// Writes `scalar` into every element of `tensor` with a loop nest; returns
/// the updated tensor.
inline Value fill(OpBuilder &b, Location loc, Value scalar, Value tensor) {
  return buildLoopNest(b, loc, dimSizes(b, loc, tensor), tensor,
                       [&](OpBuilder &nb, Location nloc, ValueRange ivs,
                           ValueRange args) -> SmallVector<Value> {
                         return {store(nb, nloc, scalar, args[0], ivs)};
                       })[0];
}

/// The initial state of a scan along one dimension: for i in [0, ub),
/// state[at(i)] = init[at(i)], or `zero` when the op has no `init`. Returns
/// the updated `state`.
inline Value initState(OpBuilder &b, Location loc, Value ub, Value state,
                       Value init, Value zero,
                       function_ref<SmallVector<Value>(Value i)> at) {
  return buildLoopNest(b, loc, ub, state,
                       [&](OpBuilder &nb, Location nloc, ValueRange ivs,
                           ValueRange args) -> SmallVector<Value> {
                         SmallVector<Value> idx = at(ivs[0]);
                         Value v = init ? load(nb, nloc, init, idx) : zero;
                         return {store(nb, nloc, v, args[0], idx)};
                       })[0];
}

/// One token of a scalar scan: given the indices of the column being
/// scanned, token `t` and the carried (output, state, extras...), returns
/// their new values.
using ScalarTokenStep = function_ref<SmallVector<Value>(
    OpBuilder &b, Location loc, ValueRange column, Value t,
    ValueRange carried)>;

/// Values derived once per column from its loop indices (a head's group).
using ScalarColumnValues = function_ref<SmallVector<Value>(
    OpBuilder &b, Location loc, ValueRange indices)>;

/// The loops of every scan's scalar oracle: for each point of the loops
/// over `columns` (batch, head, ...), `column` is its indices followed by
/// what `derived` computes from them; the column's state starts as `init` or
/// `zero` (element i in [0, stateDim) at `stateAt(column, i)`), then a loop
/// over the `length` tokens carries the output, the state and whatever
/// `extras(column)` adds, updated by `step`. Returns the output and the
/// final state.
inline SmallVector<Value> buildScalarScan(
    OpBuilder &b, Location loc, ArrayRef<Value> columns, Value length,
    Value out, Value stateOut, Value stateDim, Value init, Value zero,
    function_ref<SmallVector<Value>(ValueRange column, Value i)> stateAt,
    ScalarTokenStep step, ScalarColumnValues derived = nullptr,
    ScalarColumnValues extras = nullptr) {
  return buildLoopNest(
      b, loc, columns, {out, stateOut},
      [&](OpBuilder &nb, Location nloc, ValueRange indices,
          ValueRange outer) -> SmallVector<Value> {
        SmallVector<Value> column(indices);
        if (derived)
          llvm::append_range(column, derived(nb, nloc, indices));
        Value state0 = initState(
            nb, nloc, stateDim, outer[1], init, zero,
            [&](Value i) -> SmallVector<Value> { return stateAt(column, i); });
        SmallVector<Value> carried = {outer[0], state0};
        if (extras)
          llvm::append_range(carried, extras(nb, nloc, column));
        SmallVector<Value> done =
            buildLoopNest(nb, nloc, length, carried,
                          [&](OpBuilder &tb, Location tloc, ValueRange token,
                              ValueRange args) -> SmallVector<Value> {
                            return step(tb, tloc, column, token[0], args);
                          });
        return {done[0], done[1]};
      });
}

/// The scalar sum init + sum_{i in [0, ub)} term(i), as an scf.for with one
/// scalar iter_arg.
inline Value
buildSum(OpBuilder &b, Location loc, Value ub, Value init,
         function_ref<Value(OpBuilder &b, Location loc, Value iv)> term) {
  return buildLoopNest(b, loc, ub, init,
                       [&](OpBuilder &nb, Location nloc, ValueRange ivs,
                           ValueRange args) -> SmallVector<Value> {
                         Value t = term(nb, nloc, ivs[0]);
                         return {arith::AddFOp::create(nb, nloc, args[0], t)};
                       })[0];
}

/// Scalar arithmetic at one insertion point, so that the definitions read
/// like the math: `s.add(s.mul(a, x), y)`.
struct ScalarBuilder {
  ScalarBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value max(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  Value exp(Value x) { return math::ExpOp::create(b, loc, x); }
  Value log(Value x) { return math::LogOp::create(b, loc, x); }
  Value sqrt(Value x) { return math::SqrtOp::create(b, loc, x); }

  /// A float constant of type `type`.
  Value constant(double value, Type type) {
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
  }
  /// An index constant.
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  /// Unsigned index division (group of a head, row of a slot, ...).
  Value divIndex(Value x, Value y) {
    return b.createOrFold<arith::DivUIOp>(loc, x, y);
  }

  OpBuilder &b;
  Location loc;
};

/// A pattern replacing `OpTy` by its definition as scalar loops, which
/// `lower(op, rewriter)` builds and returns (one value per result).
template <typename OpTy, SmallVector<Value> (*lower)(OpTy, PatternRewriter &)>
struct LoopsPattern : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lower(op, rewriter));
    return success();
  }
};

} // namespace mlir::mixer::loops

#endif // MIXER_LIB_CONVERSION_MIXERTOLOOPS_LOOPBUILDER_H
