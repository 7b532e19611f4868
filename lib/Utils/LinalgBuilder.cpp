//===- LinalgBuilder.cpp - small builders of linalg ops on tensors --------===//

#include "mixer/Utils/LinalgBuilder.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::mixer;

Value LinalgBuilder::empty(ArrayRef<OpFoldResult> sizes, Type elt) {
  return tensor::EmptyOp::create(b, sizes, elt);
}

static Value allocLike(ImplicitLocOpBuilder &b, ArrayRef<OpFoldResult> sizes,
                       Type elt) {
  SmallVector<Value> dynamicSizes;
  SmallVector<int64_t> shape;
  dispatchIndexOpFoldResults(sizes, dynamicSizes, shape);
  return bufferization::AllocTensorOp::create(
      b, RankedTensorType::get(shape, elt), dynamicSizes);
}

Value LinalgBuilder::filled(ArrayRef<OpFoldResult> sizes, Type elt,
                            double value) {
  // A fresh allocation, not a tensor.empty: CSE would merge equal fills
  // into one buffer that every in-place writer then has to copy first.
  return fill(allocLike(b, sizes, elt), value);
}

Value LinalgBuilder::copyToNew(Value value) {
  Value dest = allocLike(b, sizesOf(value),
                         cast<RankedTensorType>(value.getType()).getElementType());
  return linalg::CopyOp::create(b, value, dest).getResult(0);
}

Value LinalgBuilder::copy(Value src, Value dest) {
  return linalg::CopyOp::create(b, src, dest).getResult(0);
}

Value LinalgBuilder::fill(Value dest, double value) {
  Type elt = cast<RankedTensorType>(dest.getType()).getElementType();
  Value scalar =
      arith::ConstantOp::create(b, b.getFloatAttr(elt, value)).getResult();
  return linalg::FillOp::create(b, scalar, dest).getResult(0);
}

SmallVector<OpFoldResult> LinalgBuilder::sizesOf(Value value) {
  return tensor::getMixedSizes(b, b.getLoc(), value);
}

AffineMap LinalgBuilder::dims(unsigned numDims, ArrayRef<unsigned> results) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d : results)
    exprs.push_back(b.getAffineDimExpr(d));
  return AffineMap::get(numDims, 0, exprs, b.getContext());
}

Value LinalgBuilder::contract(Value lhs, Value rhs, Value acc,
                              Lhs lhsLayout) {
  // Iteration dims (i, j, k).
  AffineMap lhsMap = lhsLayout == Lhs::RowMajor ? dims(3, {0, 2})
                                                : dims(3, {2, 0});
  SmallVector<AffineMap> maps = {lhsMap, dims(3, {2, 1}), dims(3, {0, 1})};
  SmallVector<utils::IteratorType> iterators = {
      utils::IteratorType::parallel, utils::IteratorType::parallel,
      utils::IteratorType::reduction};
  auto op = linalg::GenericOp::create(
      b, acc.getType(), ValueRange{lhs, rhs}, ValueRange{acc}, maps, iterators,
      [](OpBuilder &nb, Location loc, ValueRange args) {
        Value prod = arith::MulFOp::create(nb, loc, args[0], args[1]);
        Value sum = arith::AddFOp::create(nb, loc, args[2], prod);
        linalg::YieldOp::create(nb, loc, sum);
      });
  return op.getResult(0);
}

int64_t LinalgBuilder::rowBlocks(int64_t rows, int64_t block) {
  if (block <= 0 || rows <= block || rows % block != 0)
    return 0;
  return rows / block;
}

/// A causal contraction by row blocks: block r (rows [r0, r0 + block))
/// stops at the diagonal in the depth (a lower-triangular lhs) or in the
/// columns (the lower part of acc).
static Value contractByRowBlocks(LinalgBuilder &lb, Value lhs, Value rhs,
                                 Value acc, int64_t block, bool lowerLhs) {
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t rows = accType.getDimSize(0), cols = accType.getDimSize(1);
  int64_t depth = cast<RankedTensorType>(lhs.getType()).getDimSize(1);
  int64_t blocks = LinalgBuilder::rowBlocks(rows, block);
  if (!blocks)
    return lb.contract(lhs, rhs, acc, Lhs::RowMajor);
  auto at = [&](int64_t i) -> OpFoldResult {
    return lb.builder().getIndexAttr(i);
  };
  for (int64_t r = 0; r < blocks; ++r) {
    int64_t r0 = r * block, diagonal = r0 + block;
    int64_t k = lowerLhs ? diagonal : depth, n = lowerLhs ? cols : diagonal;
    Value part = lb.contract(
        lb.slice(lhs, {at(r0), at(0)}, {at(block), at(k)}, {block, k}),
        lb.slice(rhs, {at(0), at(0)}, {at(k), at(n)}, {k, n}),
        lb.slice(acc, {at(r0), at(0)}, {at(block), at(n)}, {block, n}),
        Lhs::RowMajor);
    acc = lb.insert(part, acc, {at(r0), at(0)}, {at(block), at(n)});
  }
  return acc;
}

Value LinalgBuilder::contractLowerLhs(Value lhs, Value rhs, Value acc,
                                      int64_t block) {
  return contractByRowBlocks(*this, lhs, rhs, acc, block, /*lowerLhs=*/true);
}

Value LinalgBuilder::contractLowerPart(Value lhs, Value rhs, Value acc,
                                       int64_t block) {
  return contractByRowBlocks(*this, lhs, rhs, acc, block, /*lowerLhs=*/false);
}

Value LinalgBuilder::mapLowerBlocks(
    ArrayRef<TriangleInput> inputs, Value init, int64_t block,
    function_ref<Value(ImplicitLocOpBuilder &, Value, Value, ValueRange)>
        body) {
  int64_t n = cast<RankedTensorType>(init.getType()).getDimSize(0);
  int64_t blocks = rowBlocks(n, block);
  int64_t rows = blocks ? block : n;
  auto at = [&](int64_t i) -> OpFoldResult { return b.getIndexAttr(i); };
  for (int64_t r = 0; r < std::max<int64_t>(blocks, 1); ++r) {
    int64_t r0 = r * rows, cols = blocks ? r0 + rows : n;
    SmallVector<Value> values;
    SmallVector<AffineMap> maps;
    for (const TriangleInput &in : inputs) {
      switch (in.kind) {
      case TriangleInput::Row:
        values.push_back(slice(in.value, {at(r0)}, {at(rows)}, {rows}));
        maps.push_back(dims(2, {0}));
        break;
      case TriangleInput::Column:
        values.push_back(slice(in.value, {at(0)}, {at(cols)}, {cols}));
        maps.push_back(dims(2, {1}));
        break;
      case TriangleInput::Both:
        values.push_back(slice(in.value, {at(r0), at(0)}, {at(rows), at(cols)},
                               {rows, cols}));
        maps.push_back(dims(2, {0, 1}));
        break;
      }
    }
    Value part = blocks ? slice(init, {at(r0), at(0)}, {at(rows), at(cols)},
                                {rows, cols})
                        : init;
    part = map(values, maps, part,
               [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                 Value t = linalg::IndexOp::create(ib, 0);
                 Value s = linalg::IndexOp::create(ib, 1);
                 if (r0 != 0)
                   t = arith::AddIOp::create(
                       ib, t, arith::ConstantIndexOp::create(ib, r0));
                 return body(ib, t, s, args);
               });
    init = blocks ? insert(part, init, {at(r0), at(0)}, {at(rows), at(cols)})
                  : part;
  }
  return init;
}

Value LinalgBuilder::map(
    ValueRange inputs, ArrayRef<AffineMap> inputMaps, Value init,
    function_ref<Value(ImplicitLocOpBuilder &, ValueRange)> body) {
  unsigned rank = cast<RankedTensorType>(init.getType()).getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto op = linalg::GenericOp::create(
      b, init.getType(), inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        ImplicitLocOpBuilder ib(loc, nb);
        linalg::YieldOp::create(ib, body(ib, args));
      });
  return op.getResult(0);
}

Value LinalgBuilder::scaleRows(Value rows, Value factors, Value dest) {
  auto product = [](ImplicitLocOpBuilder &ib, ValueRange args) {
    return arith::MulFOp::create(ib, args[0], args[1]).getResult();
  };
  // In place: the rows are the init, read through the map's own operand.
  if (dest == rows)
    return map({factors}, {dims(2, {0})}, rows,
               [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                 return product(ib, {args[1], args[0]});
               });
  if (!dest)
    dest = empty(sizesOf(rows), getElementTypeOrSelf(rows.getType()));
  return map({rows, factors}, {dims(2, {0, 1}), dims(2, {0})}, dest, product);
}

Value LinalgBuilder::sumInto(
    ValueRange inputs, ArrayRef<AffineMap> maps, Value acc, AffineMap accMap,
    ArrayRef<unsigned> reductions,
    function_ref<Value(ImplicitLocOpBuilder &, ValueRange)> body) {
  SmallVector<utils::IteratorType> iterators(accMap.getNumDims(),
                                             utils::IteratorType::parallel);
  for (unsigned d : reductions)
    iterators[d] = utils::IteratorType::reduction;
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(accMap);
  auto op = linalg::GenericOp::create(
      b, acc.getType(), inputs, ValueRange{acc}, allMaps, iterators,
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        ImplicitLocOpBuilder ib(loc, nb);
        Value term = body(ib, args.drop_back());
        linalg::YieldOp::create(
            ib, ValueRange{arith::AddFOp::create(ib, args.back(), term)});
      });
  return op.getResult(0);
}

SmallVector<Value> LinalgBuilder::loop(Value lower, Value upper, Value step,
                                       ValueRange init, LoopBody body) {
  auto forOp = scf::ForOp::create(
      b, lower, upper, step, init,
      [&](OpBuilder &nb, Location loc, Value iv, ValueRange acc) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder lb(ib);
        scf::YieldOp::create(ib, body(lb, iv, acc));
      });
  return SmallVector<Value>(forOp.getResults());
}

Value LinalgBuilder::transpose(Value in) {
  SmallVector<OpFoldResult> sizes = sizesOf(in);
  Value init = empty({sizes[1], sizes[0]},
                     cast<RankedTensorType>(in.getType()).getElementType());
  return linalg::TransposeOp::create(b, in, init, ArrayRef<int64_t>{1, 0})
      .getResult()[0];
}

Value LinalgBuilder::slice(Value value, ArrayRef<OpFoldResult> offsets,
                           ArrayRef<OpFoldResult> sizes,
                           ArrayRef<int64_t> resultShape) {
  auto type = RankedTensorType::get(
      resultShape, cast<RankedTensorType>(value.getType()).getElementType());
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, type, value, offsets, sizes,
                                        strides);
}

Value LinalgBuilder::insert(Value tile, Value dest,
                            ArrayRef<OpFoldResult> offsets,
                            ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::InsertSliceOp::create(b, tile, dest, offsets, sizes, strides);
}

Value LinalgBuilder::decayLowerBlocks(Value cum, Value scores, int64_t block,
                                      double factor) {
  Type f32 = b.getF32Type();
  int64_t n = cast<RankedTensorType>(scores.getType()).getDimSize(0);
  int64_t blocks = rowBlocks(n, block);
  int64_t rows = blocks ? block : n;
  auto at = [&](int64_t i) -> OpFoldResult { return b.getIndexAttr(i); };
  // exp(min(x - y, 0)) (times `factor` when `scaled`) of two f64 sums.
  auto decay = [&](ImplicitLocOpBuilder &ib, Value x, Value y, bool scaled) {
    return LinalgBuilder(ib).decayOfSum(arith::SubFOp::create(ib, x, y),
                                        scaled ? factor : 1.0);
  };
  for (int64_t r = 0; r < std::max<int64_t>(blocks, 1); ++r) {
    int64_t r0 = r * rows;
    Value cumRows = slice(cum, {at(r0)}, {at(rows)}, {rows});
    // The diagonal block: an exp per entry, zero above the diagonal.
    Value diagonal =
        slice(scores, {at(r0), at(r0)}, {at(rows), at(rows)}, {rows, rows});
    diagonal = map(
        {cumRows, cumRows}, {dims(2, {0}), dims(2, {1})}, diagonal,
        [&](ImplicitLocOpBuilder &ib, ValueRange args) {
          Value t = linalg::IndexOp::create(ib, 0);
          Value s = linalg::IndexOp::create(ib, 1);
          Value decayed = arith::MulFOp::create(
              ib, args[2], decay(ib, args[0], args[1], true));
          Value causal =
              arith::CmpIOp::create(ib, arith::CmpIPredicate::ule, s, t);
          Value zero = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
          return arith::SelectOp::create(ib, causal, decayed, zero).getResult();
        });
    scores = insert(diagonal, scores, {at(r0), at(r0)}, {at(rows), at(rows)});
    if (r0 == 0)
      continue;
    // Below it: one decay per row (to it from row r0) and per column (from
    // it to row r0).
    Value pivot = tensor::ExtractOp::create(
        b, cum, ValueRange{arith::ConstantIndexOp::create(b, r0)});
    auto factors = [&](Value sums, int64_t size, bool toRows) {
      return map({sums}, {dims(1, {0})}, empty({at(size)}, f32),
                 [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                   return toRows ? decay(ib, args[0], pivot, true)
                                 : decay(ib, pivot, args[0], false);
                 });
    };
    Value rowFactors = factors(cumRows, rows, /*toRows=*/true);
    Value columnFactors = factors(slice(cum, {at(0)}, {at(r0)}, {r0}), r0,
                                  /*toRows=*/false);
    Value below =
        slice(scores, {at(r0), at(0)}, {at(rows), at(r0)}, {rows, r0});
    below = map({rowFactors, columnFactors}, {dims(2, {0}), dims(2, {1})},
                below, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value scaled = arith::MulFOp::create(ib, args[2], args[0]);
                  return arith::MulFOp::create(ib, scaled, args[1]).getResult();
                });
    scores = insert(below, scores, {at(r0), at(0)}, {at(rows), at(r0)});
  }
  return scores;
}

Value LinalgBuilder::prefetchingRowsAhead(Value rows, int64_t ahead) {
  Operation *op = rows.getDefiningOp();
  op->setAttr(kPrefetchRowsAheadAttrName,
              IntegerAttr::get(IntegerType::get(op->getContext(), 64), ahead));
  return rows;
}

Value LinalgBuilder::decayOfSum(Value sum, double factor) {
  Value decay =
      expOfNonPositive(arith::TruncFOp::create(b, b.getF32Type(), sum));
  if (factor == 1.0)
    return decay;
  return arith::MulFOp::create(
      b, decay, arith::ConstantOp::create(b, b.getF32FloatAttr(factor)));
}

Value LinalgBuilder::expOfNonPositive(Value v) {
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(v.getType()));
  return math::ExpOp::create(b, arith::MinimumFOp::create(b, v, zero));
}

std::pair<Value, Value> LinalgBuilder::prefixSumF64(Value a) {
  Type f64 = b.getF64Type();
  int64_t n = cast<RankedTensorType>(a.getType()).getDimSize(0);
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value cN = arith::ConstantIndexOp::create(b, n);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value zero = arith::ConstantOp::create(b, b.getF64FloatAttr(0.0));
  SmallVector<Value> sums = loop(
      c0, cN, c1, ValueRange{zero, empty({b.getIndexAttr(n)}, f64)},
      [&](LinalgBuilder &lb, Value i, ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = lb.builder();
        Value x = tensor::ExtractOp::create(ib, a, i);
        Value sum =
            arith::AddFOp::create(ib, acc[0], arith::ExtFOp::create(ib, f64, x));
        return {sum, tensor::InsertOp::create(ib, sum, acc[1], i)};
      });
  return {sums[0], sums[1]};
}
