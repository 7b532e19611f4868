//===- PackedProducts.cpp - products over a right-hand side packed once ---===//
//
//   pack:      panels[p] = matrix[:, p*w : (p+1)*w]              [Kd, w]
//   multiply:  for each slab s of `rows` rows of lhs:
//                acc[s] (+)= lhs[s] panel                 (contractPanel)
//   forEachPanel: scf.forall over the panels (or an scf.for inside a
//                 thread's tile), one tile of each output each
//
//===----------------------------------------------------------------------===//

#include "PackedProducts.h"
#include "GroupedPanels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mixer;

static int64_t dimOf(Value v, unsigned d) {
  return cast<ShapedType>(v.getType()).getDimSize(d);
}

/// Offsets, sizes and the current tile of panel p of each output.
struct PanelTiles {
  SmallVector<SmallVector<OpFoldResult>> offsets, sizes;
  SmallVector<Value> tiles;
};

static PanelTiles panelTilesOf(LinalgBuilder &lb, Value p, Value col0,
                               int64_t width, ValueRange outs,
                               ArrayRef<PanelSlot> slots) {
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1),
               wide = b.getIndexAttr(width);
  PanelTiles out;
  for (auto [shared, slot] : llvm::zip_equal(outs, slots)) {
    int64_t rows = dimOf(shared, 1);
    if (slot == PanelSlot::Columns) {
      rows = dimOf(shared, 0);
      out.offsets.push_back({zero, col0});
      out.sizes.push_back({b.getIndexAttr(rows), wide});
    } else {
      out.offsets.push_back({p, zero, zero});
      out.sizes.push_back({one, b.getIndexAttr(rows), wide});
    }
    out.tiles.push_back(
        lb.slice(shared, out.offsets.back(), out.sizes.back(), {rows, width}));
  }
  return out;
}

SmallVector<Value> mlir::mixer::forEachPanel(LinalgBuilder &lb, int64_t count,
                                             PanelTile tile, ValueRange outs,
                                             ArrayRef<PanelSlot> slots,
                                             PanelTilesBody body,
                                             bool parallel) {
  ImplicitLocOpBuilder &b = lb.builder();
  Value width = arith::ConstantIndexOp::create(b, tile.width);
  if (!parallel) {
    Value c0 = arith::ConstantIndexOp::create(b, 0);
    Value c1 = arith::ConstantIndexOp::create(b, 1);
    Value end = arith::ConstantIndexOp::create(b, count);
    return lb.loop(
        c0, end, c1, outs, [&](LinalgBuilder &pb, Value p, ValueRange state) {
          Value col0 = arith::MulIOp::create(pb.builder(), p, width);
          PanelTiles at = panelTilesOf(pb, p, col0, tile.width, state, slots);
          SmallVector<Value> next = body(pb, p, col0, at.tiles);
          SmallVector<Value> result;
          for (auto [value, dest, off, size] :
               llvm::zip_equal(next, state, at.offsets, at.sizes))
            result.push_back(pb.insert(value, dest, off, size));
          return result;
        });
  }
  auto forall = scf::ForallOp::create(
      b, ArrayRef<OpFoldResult>{b.getIndexAttr(count)}, outs, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  Value p = forall.getInductionVars()[0];
  Value col0 = arith::MulIOp::create(b, p, width);
  PanelTiles at =
      panelTilesOf(lb, p, col0, tile.width, forall.getRegionIterArgs(), slots);
  SmallVector<Value> next = body(lb, p, col0, at.tiles);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  OpFoldResult one = b.getIndexAttr(1);
  for (auto [value, shared, off, size] : llvm::zip_equal(
           next, forall.getRegionIterArgs(), at.offsets, at.sizes)) {
    SmallVector<OpFoldResult> strides(off.size(), one);
    tensor::ParallelInsertSliceOp::create(b, value, shared, off, size, strides);
  }
  return SmallVector<Value>(forall.getResults());
}

Value mlir::mixer::emptyPanels(LinalgBuilder &lb, int64_t Kd, int64_t N,
                               PanelTile tile) {
  ImplicitLocOpBuilder &b = lb.builder();
  return lb.empty({b.getIndexAttr(N / tile.width), b.getIndexAttr(Kd),
                   b.getIndexAttr(tile.width)},
                  b.getF32Type());
}

Value mlir::mixer::packPanel(LinalgBuilder &lb, Value src, Value dest,
                             bool transposed) {
  if (!transposed)
    return lb.copy(src, dest);
  return linalg::TransposeOp::create(lb.builder(), src, dest,
                                     ArrayRef<int64_t>{1, 0})
      .getResult()[0];
}

Value mlir::mixer::packPanelsByRows(LinalgBuilder &lb, Value matrix,
                                    Value panels) {
  ImplicitLocOpBuilder &b = lb.builder();
  auto type = cast<RankedTensorType>(panels.getType());
  ArrayRef<int64_t> shape = type.getShape(); // [panels, Kd, width]
  // [Kd, N] as [Kd, panels, width], copied over (k, p, w): the loops run
  // along each row, one panel's width at a time.
  Value rows = tensor::ExpandShapeOp::create(
      b,
      RankedTensorType::get({shape[1], shape[0], shape[2]},
                            type.getElementType()),
      matrix, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  auto copy = linalg::GenericOp::create(
      b, TypeRange{type}, ValueRange{rows}, ValueRange{panels},
      ArrayRef<AffineMap>{lb.dims(3, {0, 1, 2}), lb.dims(3, {1, 0, 2})},
      SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
      [](OpBuilder &nb, Location loc, ValueRange args) {
        linalg::YieldOp::create(nb, loc, args[0]);
      });
  return copy.getResult(0);
}

Value mlir::mixer::packPanels(LinalgBuilder &lb, Value matrix, Value panels,
                              PanelTile tile, bool transposed, bool parallel) {
  int64_t Kd = dimOf(panels, 1), w = tile.width;
  return forEachPanel(
      lb, dimOf(panels, 0), tile, ValueRange{panels}, {PanelSlot::Packed},
      [&](LinalgBuilder &pb, Value, Value col0,
          ValueRange tiles) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = pb.builder();
        OpFoldResult zero = ib.getIndexAttr(0), kd = ib.getIndexAttr(Kd),
                     width = ib.getIndexAttr(w);
        Value src = transposed
                        ? pb.slice(matrix, {col0, zero}, {width, kd}, {w, Kd})
                        : pb.slice(matrix, {zero, col0}, {kd, width}, {Kd, w});
        return {packPanel(pb, src, tiles[0], transposed)};
      },
      parallel)[0];
}

Value mlir::mixer::panelAt(LinalgBuilder &lb, Value panels, Value p) {
  ImplicitLocOpBuilder &b = lb.builder();
  int64_t Kd = dimOf(panels, 1), w = dimOf(panels, 2);
  OpFoldResult zero = b.getIndexAttr(0);
  return lb.slice(panels, {p, zero, zero},
                  {b.getIndexAttr(1), b.getIndexAttr(Kd), b.getIndexAttr(w)},
                  {Kd, w});
}

Value mlir::mixer::multiplyPanel(LinalgBuilder &lb, Value lhs, Value panel,
                                 Value acc, PanelTile tile, bool zeroFirst) {
  ImplicitLocOpBuilder &b = lb.builder();
  int64_t M = dimOf(lhs, 0), Kd = dimOf(lhs, 1), w = dimOf(acc, 1);
  int64_t fullSlabs = M / tile.rows, rest = M % tile.rows;
  int64_t panelAhead =
      panelPrefetchRows(Kd * w * int64_t(sizeof(float)), tile.l1CacheBytes);
  // Rows [r0, r0 + h) of acc.
  auto slabStep = [&](ImplicitLocOpBuilder &sb, Value r0, int64_t h,
                      Value state) -> Value {
    LinalgBuilder slb(sb);
    OpFoldResult zero = sb.getIndexAttr(0), height = sb.getIndexAttr(h),
                 wide = sb.getIndexAttr(w);
    Value a = slb.slice(lhs, {r0, zero}, {height, sb.getIndexAttr(Kd)},
                        {h, Kd});
    Value dest = slb.slice(state, {r0, zero}, {height, wide}, {h, w});
    if (zeroFirst)
      dest = slb.fill(dest, 0.0);
    Value product = contractPanel(slb, a, panel, dest, tile.rows,
                                  /*prefetchRows=*/0, panelAhead);
    return slb.insert(product, state, {r0, zero}, {height, wide});
  };
  if (fullSlabs > 0) {
    Value c0 = arith::ConstantIndexOp::create(b, 0);
    Value c1 = arith::ConstantIndexOp::create(b, 1);
    Value height = arith::ConstantIndexOp::create(b, tile.rows);
    auto loop = scf::ForOp::create(
        b, c0, arith::ConstantIndexOp::create(b, fullSlabs), c1,
        ValueRange{acc},
        [&](OpBuilder &nb, Location loc, Value s, ValueRange iter) {
          ImplicitLocOpBuilder sb(loc, nb);
          scf::YieldOp::create(
              sb, slabStep(sb, arith::MulIOp::create(sb, s, height), tile.rows,
                           iter[0]));
        });
    acc = loop.getResult(0);
  }
  if (rest > 0)
    acc = slabStep(b, arith::ConstantIndexOp::create(b, fullSlabs * tile.rows),
                   rest, acc);
  return acc;
}
