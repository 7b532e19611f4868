//===- GroupedPanels.cpp - grouped GEMMs over packed weight panels --------===//
//
//   for e in [0, E):                          rows off .. off + size_e - 1
//     for each panel p of `panelCols` columns of N:
//       P = copy(W[e][:, p])                  [K, width], contiguous
//       for each static slab of the group's rows:
//         out[slab, p] = step(lhs[slab], P, out[slab, p])
//   out[rows past the groups] = 0
//
// One panel buffer per weight is allocated once and carried through the
// loops, so packing writes the same cache-resident buffer every time.
//
//===----------------------------------------------------------------------===//

#include "GroupedPanels.h"
#include "GroupSlabs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {
/// The operands of every panel of one grouped product.
struct PanelLoop {
  int64_t slabRows;
  Value lhs;
  ValueRange weights;
  OpFoldResult K;
  PanelSlabStep step;

  /// Packs the panel of `width` columns from `col0` of each weight's expert
  /// `e` into its buffer, then runs the slabs of rows [offset, offset +
  /// size). `state` is the output, then the buffers; returns their next
  /// values.
  SmallVector<Value> run(ImplicitLocOpBuilder &b, Value e, Value offset,
                         Value size, OpFoldResult col0, OpFoldResult width,
                         ValueRange state) const {
    LinalgBuilder lb(b);
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    int64_t k = staticSize(K), w = staticSize(width);
    SmallVector<Value> panels, next = {state[0]};
    for (auto [weight, buffer] : llvm::zip(weights, state.drop_front())) {
      // A narrower last panel fills the leading columns of the buffer.
      bool whole =
          cast<RankedTensorType>(buffer.getType()).getDimSize(1) == w &&
          !ShapedType::isDynamic(w);
      Value tile = whole ? buffer
                         : lb.slice(buffer, {zero, zero}, {K, width}, {k, w});
      Value src =
          lb.slice(weight, {e, zero, col0}, {one, K, width}, {k, w});
      Value packed = lb.copy(src, tile);
      panels.push_back(packed);
      next.push_back(whole ? packed
                           : lb.insert(packed, buffer, {zero, zero},
                                       {K, width}));
    }
    next[0] = forEachSlabCarrying(
        b, slabRows, offset, size, ValueRange{state[0]},
        [&](LinalgBuilder &sb, int64_t rows, Value r0,
            ValueRange acc) -> SmallVector<Value> {
          OpFoldResult h = sb.builder().getIndexAttr(rows);
          Value a = sb.slice(lhs, {r0, zero}, {h, K}, {rows, k});
          Value dest = sb.slice(acc[0], {r0, col0}, {h, width}, {rows, w});
          Value tile = step(sb, a, panels, dest);
          return {sb.insert(tile, acc[0], {r0, col0}, {h, width})};
        })[0];
    return next;
  }
};
} // namespace

Value mlir::mixer::groupedPanelRows(ImplicitLocOpBuilder &b, int64_t slabRows,
                                    int64_t panelCols, Value lhs,
                                    Value groupSizes, ValueRange weights,
                                    Value out, PanelSlabStep step) {
  LinalgBuilder lb(b);
  SmallVector<OpFoldResult> wSizes = lb.sizesOf(weights[0]);
  OpFoldResult K = wSizes[1], N = wSizes[2];
  int64_t n = staticSize(N);
  // Full panels, then the rest as one narrower panel. With N dynamic the
  // whole width is that one panel.
  int64_t fullPanels = ShapedType::isDynamic(n) ? 0 : n / panelCols;
  OpFoldResult restCols =
      ShapedType::isDynamic(n) ? N : b.getIndexAttr(n % panelCols);
  OpFoldResult bufferCols = fullPanels ? b.getIndexAttr(panelCols) : restCols;

  SmallVector<Value> state = {out};
  for (Value weight : weights) {
    Type elt = cast<RankedTensorType>(weight.getType()).getElementType();
    SmallVector<Value> dynamicSizes;
    SmallVector<int64_t> shape;
    dispatchIndexOpFoldResults({K, bufferCols}, dynamicSizes, shape);
    state.push_back(bufferization::AllocTensorOp::create(
        b, RankedTensorType::get(shape, elt), dynamicSizes));
  }
  PanelLoop panels{slabRows, lhs, weights, K, step};
  Value rowsTotal = tensor::DimOp::create(b, lhs, 0);
  SmallVector<Value> walked = walkGroups(
      b, groupSizes, rowsTotal, state,
      [&](LinalgBuilder &gb, Value e, Value offset, Value size,
          ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = gb.builder();
        SmallVector<Value> next(acc.begin(), acc.end());
        if (fullPanels > 0) {
          Value c0 = arith::ConstantIndexOp::create(ib, 0);
          Value c1 = arith::ConstantIndexOp::create(ib, 1);
          Value count = arith::ConstantIndexOp::create(ib, fullPanels);
          Value width = arith::ConstantIndexOp::create(ib, panelCols);
          auto loop = scf::ForOp::create(
              ib, c0, count, c1, next,
              [&](OpBuilder &nb, Location loc, Value p, ValueRange iter) {
                ImplicitLocOpBuilder pb(loc, nb);
                Value col0 = arith::MulIOp::create(pb, p, width);
                scf::YieldOp::create(
                    pb, panels.run(pb, e, offset, size, col0,
                                   pb.getIndexAttr(panelCols), iter));
              });
          next.assign(loop.getResults().begin(), loop.getResults().end());
        }
        if (ShapedType::isDynamic(n) || n % panelCols != 0) {
          next = panels.run(ib, e, offset, size,
                            ib.getIndexAttr(fullPanels * panelCols), restCols,
                            next);
        }
        return next;
      });
  Value sum = walked.back();
  Value past = arith::SubIOp::create(b, rowsTotal, sum);
  return zeroRows(b, slabRows, sum, past, N, walked[0]);
}
