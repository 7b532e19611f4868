//===- MoEBackwardToLinalg.cpp - the MoE backward ops in row slabs --------===//
//
// The backward ops walk the groups and static row slabs of the forward ops
// (GroupSlabs.h):
//
//   grouped_matmul_backward:
//     dlhs = the forward grouped GEMM of dout with the weights rhs[e]^T
//     for e: acc = 0 [K, N]; for each slab of group e:
//              acc += lhs[slab]^T dout[slab];   drhs[e] = acc
//     On the CPU with K and N multiples of the panel width, dlhs through
//     the forward's packed panels, drhs in L2-sized blocks of rows through
//     the micro-kernel (lowerPackedGroupedMatmulBackward).
//   grouped_swiglu_backward, for e and each slab of group e:
//     gate = x[slab] w_gate[e], up = x[slab] w_up[e]        (recomputed)
//     dgate = dout * up * silu'(gate), dup = dout * silu(gate)
//     dx[slab] = dgate w_gate[e]^T + dup w_up[e]^T
//     acc_gate += x[slab]^T dgate, acc_up += x[slab]^T dup
//     (the [slab, F] blocks live for one slab: nothing of size T x F)
//     On the CPU with K and F multiples of the panel width, the packed
//     form: w[e] and w[e]^T packed once per group, slabs of L2-sized blocks
//     whose products all go through the micro-kernel, panels in parallel
//     (packedBlockStep, PackedProducts.h).
//   moe_combine_backward, for each dispatched row r (slot t*k + j):
//     d_expert_out[r] = weights[t, j] dout[t],
//     d_weights[t, j] = <dout[t], expert_out[r]>
//
//===----------------------------------------------------------------------===//

#include "GradientSums.h"
#include "GroupSlabs.h"
#include "GroupedPanels.h"
#include "MixerToLinalgPatterns.h"
#include "PackedProducts.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"
#include "mixer/Utils/BuildReplacement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

/// Matrix e of a stacked [E, R, C] operand as a [R, C] slice.
static Value matrixOf(LinalgBuilder &lb, Value stacked, Value e) {
  SmallVector<OpFoldResult> sizes = lb.sizesOf(stacked);
  OpFoldResult zero = lb.builder().getIndexAttr(0),
               one = lb.builder().getIndexAttr(1);
  return lb.slice(stacked, {e, zero, zero}, {one, sizes[1], sizes[2]},
                  {staticSize(sizes[1]), staticSize(sizes[2])});
}

/// Writes `block` [R, C] as matrix e of the stacked `dest` [E, R, C].
static Value insertMatrix(LinalgBuilder &lb, Value block, Value dest,
                          Value e) {
  SmallVector<OpFoldResult> sizes = lb.sizesOf(dest);
  OpFoldResult zero = lb.builder().getIndexAttr(0),
               one = lb.builder().getIndexAttr(1);
  return lb.insert(block, dest, {e, zero, zero}, {one, sizes[1], sizes[2]});
}

/// Rows [r0, r0 + rows) of a [T, C] operand as a static [rows, C] slice.
static Value slabOf(LinalgBuilder &lb, Value value, int64_t rows, Value r0) {
  OpFoldResult cols = lb.sizesOf(value)[1];
  ImplicitLocOpBuilder &b = lb.builder();
  return lb.slice(value, {r0, b.getIndexAttr(0)},
                  {b.getIndexAttr(rows), cols}, {rows, staticSize(cols)});
}

/// Inserts a [rows, C] slab at row r0 of `dest`.
static Value insertSlab(LinalgBuilder &lb, Value slab, Value dest, Value r0) {
  ImplicitLocOpBuilder &b = lb.builder();
  auto type = cast<RankedTensorType>(slab.getType());
  return lb.insert(slab, dest, {r0, b.getIndexAttr(0)},
                   {b.getIndexAttr(type.getDimSize(0)),
                    b.getIndexAttr(type.getDimSize(1))});
}

/// A fresh [R, C] block of zeros of the shape of matrix e of `stacked`.
static Value zeroMatrixLike(LinalgBuilder &lb, Value stacked) {
  SmallVector<OpFoldResult> sizes = lb.sizesOf(stacked);
  return lb.filled({sizes[1], sizes[2]}, lb.builder().getF32Type(), 0.0);
}

/// The CPU's register tile for the packed products of [., K] x [K, F]
/// weights, or none when K or F is dynamic or not a multiple of its width.
static std::optional<PanelTile> packedTile(const TargetDescription &target,
                                           int64_t K, int64_t F) {
  if (target.isGpu() || ShapedType::isDynamic(K) || ShapedType::isDynamic(F))
    return std::nullopt;
  PanelTile tile{target.registerTileColumns(), target.gemmTileRows(),
                 target.l1CacheBytes};
  if (K % tile.width != 0 || F % tile.width != 0)
    return std::nullopt;
  return tile;
}

/// Rows of a block of the packed backward products: a multiple of `step`
/// whose [rows, cols] blocks stay in a quarter of L2. Each block updates the
/// weight-gradient accumulators once: 16-row slabs would stream them
/// through L2 every 16 rows.
static int64_t packedBlockRows(const TargetDescription &target, int64_t step,
                               int64_t cols) {
  int64_t rows = groupedRowBlock(target.l2CacheBytes, target.moeSlabRows, cols);
  return std::max<int64_t>(1, rows / step) * step;
}

namespace {

/// drhs of grouped_matmul_backward: drhs[e] = the sum over the blocks of
/// `blockRows` rows of group e of `step(lb, rows, r0, acc)`, which adds
/// the block's lhs^T dout to the [K, N] accumulator `acc` (zero for an
/// empty group).
static Value sumOverGroupBlocks(
    ImplicitLocOpBuilder &b, GroupedMatmulBackwardOp op, int64_t blockRows,
    function_ref<Value(LinalgBuilder &, int64_t rows, Value r0, Value acc)>
        step) {
  Value rowsTotal = tensor::DimOp::create(b, op.getLhs(), 0);
  return walkGroups(
      b, op.getGroupSizes(), rowsTotal, ValueRange{op.getOuts()[1]},
      [&](LinalgBuilder &gb, Value e, Value offset, Value size,
          ValueRange state) -> SmallVector<Value> {
        Value acc =
            forEachSlabCarrying(gb.builder(), blockRows, offset, size,
                                ValueRange{zeroMatrixLike(gb, op.getRhs())},
                                [&](LinalgBuilder &sb, int64_t rows, Value r0,
                                    ValueRange acc) -> SmallVector<Value> {
                                  return {step(sb, rows, r0, acc[0])};
                                })[0];
        return {insertMatrix(gb, acc, state[0], e)};
      })[0];
}

/// grouped_matmul_backward on the CPU, with K and N multiples of the
/// register tile's width:
///   dlhs: the forward grouped GEMM of dout with rhs[e]^T, whose panels it
///         packs by transposing (groupedMatmulTransposedCpu)
///   drhs: per group e, for each block of its rows (packedBlockRows, a
///         multiple of the vector width):
///           N panels: drhs[e] += lhs[block]^T dout[block], dout[block]
///                     packed, lhs[block]^T [K, rows] as the
///                     micro-kernel's rows
/// The op is tiled over K across threads (mixer-tile-parallel-dims):
/// inside a tile the panels go in order.
static SmallVector<Value> lowerPackedGroupedMatmulBackward(
    GroupedMatmulBackwardOp op, ImplicitLocOpBuilder &b,
    const TargetDescription &target, PanelTile tile, int64_t n) {
  Value lhs = op.getLhs(), rhs = op.getRhs(), dout = op.getDout();
  bool parallel = !op->getParentOfType<scf::ForallOp>();
  Value dlhs = groupedMatmulTransposedCpu(b, target, dout, op.getGroupSizes(),
                                          rhs, op.getOuts()[0]);
  // The blocks' rows are only summed over (lhs^T's columns): they need not
  // be whole micro-kernel slabs. A multiple of the vector width lets the
  // lhs block's transpose go in square blocks of register shuffles
  // (mixer-vectorize-cpu), where whole 14-row slabs (252 rows at N = 512)
  // left it to gathers.
  Value drhs = sumOverGroupBlocks(
      b, op, packedBlockRows(target, target.vectorWidth, n),
      [&](LinalgBuilder &sb, int64_t rows, Value r0, Value acc) {
        Value d = slabOf(sb, dout, rows, r0);
        Value dPanels = packPanels(sb, d, emptyPanels(sb, rows, n, tile), tile,
                                   /*transposed=*/false, parallel);
        Value aT = sb.transpose(slabOf(sb, lhs, rows, r0));
        return forEachPanel(
            sb, n / tile.width, tile, acc, {PanelSlot::Columns},
            [&](LinalgBuilder &pb, Value p, Value,
                ValueRange tiles) -> SmallVector<Value> {
              return {multiplyPanel(pb, aT, panelAt(pb, dPanels, p), tiles[0],
                                    tile, /*zeroFirst=*/false)};
            },
            parallel)[0];
      });
  return {dlhs, drhs};
}

static SmallVector<Value> lowerGroupedMatmulBackward(GroupedMatmulBackwardOp op,
                                                     ImplicitLocOpBuilder &b) {
  LinalgBuilder lb(b);
  SmallVector<OpFoldResult> rhsSizes = lb.sizesOf(op.getRhs());
  OpFoldResult K = rhsSizes[1];
  Value lhs = op.getLhs(), rhs = op.getRhs(), dout = op.getDout();
  const TargetDescription &target = lookupTargetDescription(op);
  int64_t slabRows = target.moeSlabRows;
  int64_t n = staticSize(rhsSizes[2]);
  if (std::optional<PanelTile> tile = packedTile(target, staticSize(K), n))
    return lowerPackedGroupedMatmulBackward(op, b, target, *tile, n);

  // dlhs: the forward algorithm with rhs[e]^T [N, K] as the weights.
  Value dlhs =
      groupedMatmulRows(b, slabRows, dout, op.getGroupSizes(), rhsSizes[2], K,
                        op.getOuts()[0], [&](LinalgBuilder &gb, Value e) {
                          return gb.transpose(matrixOf(gb, rhs, e));
                        });

  // drhs[e] = sum over the slabs of group e of lhs[slab]^T dout[slab].
  Value drhs = sumOverGroupBlocks(
      b, op, slabRows,
      [&](LinalgBuilder &sb, int64_t rows, Value r0, Value acc) {
        return sb.contract(slabOf(sb, lhs, rows, r0),
                           slabOf(sb, dout, rows, r0), acc, Lhs::Transposed);
      });
  return {dlhs, drhs};
}

/// dgate = d * up * silu'(gate), dup = d * silu(gate) on one block.
static std::pair<Value, Value> swigluCotangents(LinalgBuilder &sb, Value gate,
                                                Value up, Value d) {
  Type f32 = sb.builder().getF32Type();
  SmallVector<OpFoldResult> block = sb.sizesOf(gate);
  AffineMap id = sb.dims(2, {0, 1});
  // dgate = d * up * s (1 + g (1 - s)), s = sigmoid(g).
  Value dgate = sb.map(
      {gate, up, d}, {id, id, id}, sb.empty(block, f32),
      [](ImplicitLocOpBuilder &mb, ValueRange args) {
        Value g = args[0];
        Value s = sigmoidOf(mb, g);
        Value one = arith::ConstantOp::create(mb, mb.getF32FloatAttr(1.0));
        Value slope = arith::AddFOp::create(
            mb, one,
            arith::MulFOp::create(mb, g, arith::SubFOp::create(mb, one, s)));
        Value dsilu = arith::MulFOp::create(mb, s, slope);
        return arith::MulFOp::create(
                   mb, arith::MulFOp::create(mb, args[2], args[1]), dsilu)
            .getResult();
      });
  // dup = d * silu(g).
  Value dup = sb.map({gate, d}, {id, id}, sb.empty(block, f32),
                     [](ImplicitLocOpBuilder &mb, ValueRange args) {
                       Value silu = arith::MulFOp::create(
                           mb, args[0], sigmoidOf(mb, args[0]));
                       return arith::MulFOp::create(mb, args[1], silu)
                           .getResult();
                     });
  return {dgate, dup};
}

/// The panels of one expert's weights: w_gate, w_up ([K, F], for gate and
/// up) and their transposes ([F, K], for dx).
struct ExpertPanels {
  Value gate, up, gateT, upT;
};

/// One block of `rows` rows of a group in three parallel passes over
/// panels, all through the packed micro-kernel:
///   F panels: gate, up tiles [rows, w] recomputed, dgate and dup formed
///             and written both row-major [rows, F] and packed
///   K panels: dx[block] = dgate w_gate^T + dup w_up^T
///   F panels: dw_gate += x[block]^T dgate, dw_up += x[block]^T dup, with
///             x[block]^T [K, rows] as the micro-kernel's rows
/// Returns dx (the block inserted at r0), dw_gate and dw_up.
static SmallVector<Value> packedBlockStep(LinalgBuilder &sb, PanelTile tile,
                                          Value a, Value d, Value dxBlock,
                                          ExpertPanels w, Value accGate,
                                          Value accUp, Value r0, Value dx) {
  Type f32 = sb.builder().getF32Type();
  int64_t rows = cast<ShapedType>(a.getType()).getDimSize(0);
  int64_t K = cast<ShapedType>(a.getType()).getDimSize(1);
  int64_t F = cast<ShapedType>(d.getType()).getDimSize(1);
  OpFoldResult h = sb.builder().getIndexAttr(rows),
               fCols = sb.builder().getIndexAttr(F);
  SmallVector<Value> cot = forEachPanel(
      sb, F / tile.width, tile,
      ValueRange{sb.empty({h, fCols}, f32), sb.empty({h, fCols}, f32),
                 emptyPanels(sb, rows, F, tile),
                 emptyPanels(sb, rows, F, tile)},
      {PanelSlot::Columns, PanelSlot::Columns, PanelSlot::Packed,
       PanelSlot::Packed},
      [&](LinalgBuilder &pb, Value p, Value col0,
          ValueRange tiles) -> SmallVector<Value> {
        OpFoldResult zero = pb.builder().getIndexAttr(0),
                     wide = pb.builder().getIndexAttr(tile.width);
        Value gate = multiplyPanel(pb, a, panelAt(pb, w.gate, p), tiles[0],
                                   tile, /*zeroFirst=*/true);
        Value up = multiplyPanel(pb, a, panelAt(pb, w.up, p), tiles[1], tile,
                                 /*zeroFirst=*/true);
        Value dTile = pb.slice(d, {zero, col0}, {h, wide}, {rows, tile.width});
        auto [dgate, dup] = swigluCotangents(pb, gate, up, dTile);
        return {dgate, dup, dgate, dup};
      });
  Value dxNew = forEachPanel(
      sb, K / tile.width, tile, ValueRange{dxBlock}, {PanelSlot::Columns},
      [&](LinalgBuilder &pb, Value q, Value,
          ValueRange tiles) -> SmallVector<Value> {
        Value t = multiplyPanel(pb, cot[0], panelAt(pb, w.gateT, q), tiles[0],
                                tile, /*zeroFirst=*/true);
        return {multiplyPanel(pb, cot[1], panelAt(pb, w.upT, q), t, tile,
                              /*zeroFirst=*/false)};
      })[0];
  Value aT = sb.transpose(a);
  SmallVector<Value> dw = forEachPanel(
      sb, F / tile.width, tile, ValueRange{accGate, accUp},
      {PanelSlot::Columns, PanelSlot::Columns},
      [&](LinalgBuilder &pb, Value p, Value,
          ValueRange tiles) -> SmallVector<Value> {
        return {multiplyPanel(pb, aT, panelAt(pb, cot[2], p), tiles[0], tile,
                              false),
                multiplyPanel(pb, aT, panelAt(pb, cot[3], p), tiles[1], tile,
                              false)};
      });
  return {insertSlab(sb, dxNew, dx, r0), dw[0], dw[1]};
}

static SmallVector<Value> lowerGroupedSwigluBackward(GroupedSwigluBackwardOp op,
                                                     ImplicitLocOpBuilder &b) {
  LinalgBuilder lb(b);
  Type f32 = b.getF32Type();
  Value x = op.getX(), wGate = op.getWGate(), wUp = op.getWUp(),
        dout = op.getDout();
  OpFoldResult K = lb.sizesOf(x)[1], F = lb.sizesOf(wGate)[2];
  int64_t k = staticSize(K), f = staticSize(F);
  const TargetDescription &target = lookupTargetDescription(op);
  std::optional<PanelTile> tile = packedTile(target, k, f);
  int64_t slabRows = target.moeSlabRows;
  // Packed: blocks whose [rows, F] cotangents stay in a quarter of L2.
  int64_t blockRows = tile ? packedBlockRows(target, tile->rows, f) : slabRows;
  Value rowsTotal = tensor::DimOp::create(b, x, 0);

  SmallVector<Value> walked = walkGroups(
      b, op.getGroupSizes(), rowsTotal, op.getOuts(),
      [&](LinalgBuilder &gb, Value e, Value offset, Value size,
          ValueRange state) -> SmallVector<Value> {
        Value wg = matrixOf(gb, wGate, e), wu = matrixOf(gb, wUp, e);
        // Packed: the panels of w[e] (for gate, up) and of w[e]^T (for
        // dx), copied once per group; else the transposes.
        Value pg, pu, pgT, puT, wgT, wuT;
        if (tile) {
          pg = packPanels(gb, wg, emptyPanels(gb, k, f, *tile), *tile, false);
          pu = packPanels(gb, wu, emptyPanels(gb, k, f, *tile), *tile, false);
          pgT = packPanels(gb, wg, emptyPanels(gb, f, k, *tile), *tile, true);
          puT = packPanels(gb, wu, emptyPanels(gb, f, k, *tile), *tile, true);
        } else {
          wgT = gb.transpose(wg);
          wuT = gb.transpose(wu);
        }
        SmallVector<Value> slabs = forEachSlabCarrying(
            gb.builder(), blockRows, offset, size,
            ValueRange{state[0], zeroMatrixLike(gb, wGate),
                       zeroMatrixLike(gb, wUp)},
            [&](LinalgBuilder &sb, int64_t rows, Value r0,
                ValueRange acc) -> SmallVector<Value> {
              ImplicitLocOpBuilder &ib = sb.builder();
              OpFoldResult h = ib.getIndexAttr(rows);
              Value a = slabOf(sb, x, rows, r0);
              Value d = slabOf(sb, dout, rows, r0);
              if (!tile) {
                // The forward projections, recomputed for this slab.
                Value gate = sb.contract(a, wg, sb.filled({h, F}, f32, 0.0),
                                         Lhs::RowMajor);
                Value up = sb.contract(a, wu, sb.filled({h, F}, f32, 0.0),
                                       Lhs::RowMajor);
                auto [dgate, dup] = swigluCotangents(sb, gate, up, d);
                Value dx = sb.contract(dgate, wgT, sb.filled({h, K}, f32, 0.0),
                                       Lhs::RowMajor);
                dx = sb.contract(dup, wuT, dx, Lhs::RowMajor);
                return {insertSlab(sb, dx, acc[0], r0),
                        sb.contract(a, dgate, acc[1], Lhs::Transposed),
                        sb.contract(a, dup, acc[2], Lhs::Transposed)};
              }
              return packedBlockStep(
                  sb, *tile, a, d, slabOf(sb, acc[0], rows, r0),
                  {pg, pu, pgT, puT}, acc[1], acc[2], r0, acc[0]);
            });
        return {slabs[0], insertMatrix(gb, slabs[1], state[1], e),
                insertMatrix(gb, slabs[2], state[2], e)};
      });
  // Rows past the groups have no gradient.
  Value sum = walked[3];
  Value dx = zeroRows(b, slabRows, sum,
                      arith::SubIOp::create(b, rowsTotal, sum), K, walked[0]);
  return {dx, walked[1], walked[2]};
}

static SmallVector<Value> lowerMoeCombineBackward(MoeCombineBackwardOp op,
                                                  ImplicitLocOpBuilder &b) {
  LinalgBuilder lb(b);
  Type f32 = b.getF32Type();
  Value expertOut = op.getExpertOut(), perm = op.getPermutation(),
        weights = op.getWeights(), dout = op.getDout();
  Value k = tensor::DimOp::create(b, weights, 1);
  Value slots = tensor::DimOp::create(b, expertOut, 0);
  OpFoldResult cols = lb.sizesOf(expertOut)[1];
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  int64_t n = staticSize(cols);

  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  SmallVector<Value> loop = lb.loop(
      c0, slots, c1, op.getOuts(),
      [&](LinalgBuilder &rb, Value r, ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = rb.builder();
        Value a = arith::IndexCastOp::create(
            ib, ib.getIndexType(), tensor::ExtractOp::create(ib, perm, r));
        Value t = arith::DivUIOp::create(ib, a, k);
        Value j = arith::RemUIOp::create(ib, a, k);
        Value w = tensor::ExtractOp::create(ib, weights, ValueRange{t, j});
        Value doutRow = rb.slice(dout, {t, zero}, {one, cols}, {n});
        Value eoRow = rb.slice(expertOut, {r, zero}, {one, cols}, {n});
        // d_expert_out[r] = w dout[t], written into its row.
        Value dst = rb.slice(acc[0], {r, zero}, {one, cols}, {n});
        Value row =
            rb.map({doutRow}, {rb.dims(1, {0})}, dst,
                   [&](ImplicitLocOpBuilder &mb, ValueRange args) {
                     return arith::MulFOp::create(mb, w, args[0]).getResult();
                   });
        Value dExpertOut = rb.insert(row, acc[0], {r, zero}, {one, cols});
        // d_weights[t, j] = <dout[t], expert_out[r]>.
        AffineMap id = rb.dims(1, {0});
        Value dot =
            rb.sumInto({doutRow, eoRow}, {id, id}, rb.filled({}, f32, 0.0),
                       rb.dims(1, {}), {0}, productOf);
        Value dw = tensor::InsertOp::create(
            ib, tensor::ExtractOp::create(ib, dot, ValueRange{}), acc[1],
            ValueRange{t, j});
        return {dExpertOut, dw};
      });
  return loop;
}

} // namespace

void mlir::mixer::populateMoEBackwardToLinalgPatterns(
    RewritePatternSet &patterns) {
  addReplacementPatterns<lowerGroupedMatmulBackward, lowerGroupedSwigluBackward,
                         lowerMoeCombineBackward>(patterns);
}
