//===- MoEToLinalg.cpp - the MoE ops as row slabs in linalg ---------------===//
//
// The grouped GEMMs walk the experts in order with a running row offset (the
// prefix sum of the run-time group sizes) and cover the rows of each group
// with static-height slabs, so that every contraction has static shapes and
// vectorizes to FMAs:
//
//   off = 0
//   for e in [0, E):
//     W = rhs[e]                                    [K, N]
//     rows off .. off + size_e - 1 in slabs of 16 rows, then the remainder
//     (< 16) in at most one slab each of 8, 4, 2 and 1 rows (on CPUs, in
//     slabs of the micro-kernel's rows, then one slab of the remainder's
//     own height):
//       out[slab] = lhs[slab] W                     [rows, K] x [K, N]
//     off += size_e
//   out[off .. T-1] = 0                             rows past the sum
//
// grouped_swiglu does the same with two contractions per slab (gate, up)
// into local slab buffers, then writes silu(gate) * up into its rows of the
// output: no [T, F] intermediate is materialized.
//
// Routing is memory-bound: the router keeps the scalar loops of
// convert-mixer-to-loops (per token, E small); dispatch is a scalar counting
// sort followed by a parallel gather of the rows of x (an scf.forall over
// the sorted rows, a vector row copy each); combine inverts the permutation
// by a parallel scatter, then gathers each token's k expert rows, weighted,
// in an scf.forall over the tokens. The foralls are the parallel loops of
// both targets: CPU threads, GPU blocks.
//
//===----------------------------------------------------------------------===//

#include "GroupSlabs.h"
#include "GroupedPanels.h"
#include "MixerToLinalgPatterns.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mixer/Conversion/MixerToLoops/MixerToLoops.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"
#include "mixer/Utils/BuildReplacement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

/// One slab of `rows` rows starting at row `r0`: returns the updated output.
using SlabStep = function_ref<Value(LinalgBuilder &lb, int64_t rows, Value r0,
                                    Value out)>;

/// Runs `step` over `count` consecutive slabs of `rows` rows from `begin`.
static SmallVector<Value> slabLoop(ImplicitLocOpBuilder &b, int64_t rows,
                                   Value begin, Value count, ValueRange state,
                                   SlabSteps step) {
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value height = arith::ConstantIndexOp::create(b, rows);
  LinalgBuilder lb(b);
  return lb.loop(c0, count, c1, state,
                 [&](LinalgBuilder &ilb, Value i, ValueRange acc) {
                   ImplicitLocOpBuilder &ib = ilb.builder();
                   Value r0 = arith::AddIOp::create(
                       ib, begin, arith::MulIOp::create(ib, i, height));
                   return step(ilb, rows, r0, acc);
                 });
}

/// One slab of the `rest` rows at `pos`, rest in [lo, hi] (known at run
/// time; 0: none), each height a static slab: a binary search over the
/// heights in scf.if. (A chain of slabs guarded by their trip counts, one
/// per height, would cost bufferization's analysis twice as much per link.)
static SmallVector<Value> restSlab(ImplicitLocOpBuilder &b, int64_t lo,
                                   int64_t hi, Value pos, Value rest,
                                   ValueRange state, SlabSteps step) {
  if (lo == hi) {
    if (lo == 0)
      return SmallVector<Value>(state);
    LinalgBuilder lb(b);
    return step(lb, lo, pos, state);
  }
  int64_t mid = (lo + hi) / 2;
  Value low = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, rest,
                                    arith::ConstantIndexOp::create(b, mid));
  auto branch = [&](int64_t from, int64_t to) {
    return [&, from, to](OpBuilder &nb, Location loc) {
      ImplicitLocOpBuilder ib(loc, nb);
      scf::YieldOp::create(ib,
                           restSlab(ib, from, to, pos, rest, state, step));
    };
  };
  return scf::IfOp::create(b, low, branch(lo, mid), branch(mid + 1, hi))
      .getResults();
}

/// Covers rows [begin, begin + count) with static slabs: count / slabRows
/// full slabs, then the rest in one slab of its own height (`exactRest`) or
/// in one slab of each power of two below slabRows set in it, so every
/// slab has a static height.
SmallVector<Value> mlir::mixer::forEachSlabCarrying(ImplicitLocOpBuilder &b,
                                            int64_t slabRows, Value begin,
                                            Value count, ValueRange state,
                                            SlabSteps step, bool exactRest) {
  Value full = arith::ConstantIndexOp::create(b, slabRows);
  Value slabs = arith::DivUIOp::create(b, count, full);
  SmallVector<Value> acc = slabLoop(b, slabRows, begin, slabs, state, step);
  Value done = arith::MulIOp::create(b, slabs, full);
  Value pos = arith::AddIOp::create(b, begin, done);
  Value rest = arith::SubIOp::create(b, count, done);
  if (exactRest)
    return restSlab(b, 0, slabRows - 1, pos, rest, acc, step);
  for (int64_t rows = int64_t(llvm::PowerOf2Ceil(slabRows)) / 2; rows >= 1;
       rows /= 2) {
    // The bit `rows` of the remainder: 0 or 1 slab of that height.
    Value bit = arith::AndIOp::create(
        b, rest, arith::ConstantIndexOp::create(b, rows));
    Value once = arith::DivUIOp::create(
        b, bit, arith::ConstantIndexOp::create(b, rows));
    acc = slabLoop(b, rows, pos, once, acc, step);
    pos = arith::AddIOp::create(b, pos, bit);
  }
  return acc;
}

/// forEachSlabCarrying with one tensor.
static Value forEachSlab(ImplicitLocOpBuilder &b, int64_t slabRows,
                         Value begin, Value count, Value out, SlabStep step) {
  return forEachSlabCarrying(b, slabRows, begin, count, ValueRange{out},
                     [&](LinalgBuilder &lb, int64_t rows, Value r0,
                         ValueRange state) -> SmallVector<Value> {
                       return {step(lb, rows, r0, state[0])};
                     })[0];
}

int64_t mlir::mixer::staticSize(OpFoldResult ofr) {
  return getConstantIntValue(ofr).value_or(ShapedType::kDynamic);
}

Value mlir::mixer::zeroRows(ImplicitLocOpBuilder &b, int64_t slabRows,
                            Value begin, Value count, OpFoldResult cols,
                            Value out) {
  return forEachSlab(
      b, slabRows, begin, count, out,
      [&](LinalgBuilder &lb, int64_t rows, Value r0, Value out) -> Value {
        ImplicitLocOpBuilder &ib = lb.builder();
        OpFoldResult zero = ib.getIndexAttr(0), h = ib.getIndexAttr(rows);
        Value tile =
            lb.slice(out, {r0, zero}, {h, cols}, {rows, staticSize(cols)});
        return lb.insert(lb.fill(tile, 0.0), out, {r0, zero}, {h, cols});
      });
}

/// group_sizes[e] as an index.
static Value groupSize(ImplicitLocOpBuilder &b, Value groupSizes, Value e) {
  Value size = tensor::ExtractOp::create(b, groupSizes, e);
  return arith::IndexCastOp::create(b, b.getIndexType(), size);
}

SmallVector<Value> mlir::mixer::walkGroups(ImplicitLocOpBuilder &b,
                                           Value groupSizes, Value rowsTotal,
                                           ValueRange state,
                                           GroupSteps group) {
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value experts = tensor::DimOp::create(b, groupSizes, 0);
  SmallVector<Value> init(state.begin(), state.end());
  init.push_back(c0);
  LinalgBuilder lb(b);
  return lb.loop(
      c0, experts, c1, init, [&](LinalgBuilder &glb, Value e, ValueRange acc) {
        ImplicitLocOpBuilder &ib = glb.builder();
        Value offset = acc.back();
        // Sizes are data: a negative one counts as 0 and none reaches past
        // the T rows, so bad sizes cannot write out of bounds.
        Value room = arith::SubIOp::create(ib, rowsTotal, offset);
        Value size = arith::MinSIOp::create(
            ib, arith::MaxSIOp::create(ib, groupSize(ib, groupSizes, e), c0),
            room);
        SmallVector<Value> next = group(glb, e, offset, size, acc.drop_back());
        next.push_back(arith::AddIOp::create(ib, offset, size));
        return next;
      });
}

/// Walks the groups in order: `group(lb, e, offset, size, out)` computes the
/// rows of group e; then the rows past the sum are zeroed. Returns the
/// output.
static Value
forEachGroup(ImplicitLocOpBuilder &b, int64_t slabRows, Value groupSizes,
             Value rowsTotal, OpFoldResult cols, Value out,
             function_ref<Value(LinalgBuilder &, Value e, Value offset,
                                Value size, Value out)>
                 group) {
  SmallVector<Value> walked = walkGroups(
      b, groupSizes, rowsTotal, ValueRange{out},
      [&](LinalgBuilder &lb, Value e, Value offset, Value size,
          ValueRange state) -> SmallVector<Value> {
        return {group(lb, e, offset, size, state[0])};
      });
  Value sum = walked[1];
  Value past = arith::SubIOp::create(b, rowsTotal, sum);
  return zeroRows(b, slabRows, sum, past, cols, walked[0]);
}

Value mlir::mixer::groupedMatmulRows(
    ImplicitLocOpBuilder &b, int64_t slabRows, Value lhs, Value groupSizes,
    OpFoldResult K, OpFoldResult N, Value out,
    function_ref<Value(LinalgBuilder &, Value e)> weightOf) {
  Type f32 = b.getF32Type();
  OpFoldResult zero = b.getIndexAttr(0);
  Value rowsTotal = tensor::DimOp::create(b, lhs, 0);
  return forEachGroup(
      b, slabRows, groupSizes, rowsTotal, N, out,
      [&](LinalgBuilder &gb, Value e, Value offset, Value size,
          Value out) -> Value {
        Value w = weightOf(gb, e);
        return forEachSlab(
            gb.builder(), slabRows, offset, size, out,
            [&](LinalgBuilder &sb, int64_t rows, Value r0, Value out) -> Value {
              OpFoldResult h = sb.builder().getIndexAttr(rows);
              Value a =
                  sb.slice(lhs, {r0, zero}, {h, K}, {rows, staticSize(K)});
              // Accumulated in a local slab buffer, written to out once.
              Value acc = sb.contract(a, w, sb.filled({h, N}, f32, 0.0),
                                      Lhs::RowMajor);
              return sb.insert(acc, out, {r0, zero}, {h, N});
            });
      });
}

Value mlir::mixer::sigmoidOf(ImplicitLocOpBuilder &b, Value g) {
  Type f32 = g.getType();
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(f32));
  Value oneF = arith::ConstantOp::create(b, b.getFloatAttr(f32, 1.0));
  Value negAbs = arith::NegFOp::create(b, math::AbsFOp::create(b, g));
  Value e = math::ExpOp::create(b, negAbs);
  Value positive =
      arith::CmpFOp::create(b, arith::CmpFPredicate::OGE, g, zero);
  Value num = arith::SelectOp::create(b, positive, oneF, e);
  return arith::DivFOp::create(b, num, arith::AddFOp::create(b, oneF, e));
}

/// silu(g) * u with silu(g) = g * sigmoid(g).
static Value siluTimes(ImplicitLocOpBuilder &b, Value g, Value u) {
  return arith::MulFOp::create(
      b, arith::MulFOp::create(b, g, sigmoidOf(b, g)), u);
}

namespace {

/// The tiles of the forward grouped GEMMs on `target` with `weights`
/// ([E, K, N], or packed [E, P, K, W]: K rows either way) and `lhs` [T, K].
/// The CPU multiplies panels as wide as its register tile in slabs of the
/// micro-kernel's rows: packed once per expert when many slabs reuse them,
/// else read in place (weights packed beforehand: in their panels, while
/// the next expert's are prefetched), a group's last rows in one slab of
/// their own height; the GPU maps each slab's products to threads and reads
/// the weights in place. With `transposedWeights` ([E, N, K], CPUs), whose
/// transposes cannot be read in place, the panels are always packed and
/// nothing of the next expert's is prefetched.
struct GroupedGemmTiles {
  int64_t slabRows, panelCols, tileRows, prefetchRows = 0, l1CacheBytes = 0;
  bool packPanels = false, exactRest = false, transposedWeights;
  GroupedGemmTiles(const TargetDescription &target, Value weights, Value lhs,
                   bool transposedWeights = false)
      : transposedWeights(transposedWeights) {
    auto type = cast<ShapedType>(weights.getType());
    if (target.isGpu()) {
      slabRows = target.moeSlabRows;
      panelCols = tileRows = 0;
      return;
    }
    slabRows = tileRows = target.gemmTileRows();
    panelCols = target.registerTileColumns();
    // A slab streams its panels once whatever its height, and one of one
    // or two rows costs about that stream: a group's last rows take one
    // slab of their own height, not one per power of two of their count.
    exactRest = true;
    l1CacheBytes = target.l1CacheBytes;
    packPanels =
        transposedWeights ||
        (type.getRank() == 3 &&
         groupedPanelsPacked(cast<ShapedType>(lhs.getType()).getDimSize(0),
                             type.getDimSize(0), slabRows));
    // Only weights packed beforehand ([E, P, K, W], never packed here)
    // prefetch the next expert's panels, consecutive lines; those of
    // [E, K, N] weights read in place are 1 KiB apart at N = 256, whose
    // prefetch from memory slowed the micro-kernel more than it hid
    // (gmm-T4096-E64 1.01-1.04x as fast without it with AVX-512 code,
    // 1.00-1.02x with AVX2 code; docs/Rationale.md).
    if (type.getRank() == 4)
      prefetchRows = nextExpertPanelRows(weights);
  }
};

/// out = the grouped GEMM of `lhs` with `weights` in the tiles of `tiles`
/// (weights [E, N, K] whose transposes are packed where the tiles say so).
static Value groupedMatmulPanels(ImplicitLocOpBuilder &b,
                                 const GroupedGemmTiles &tiles, Value lhs,
                                 Value groupSizes, Value weights, Value out) {
  return groupedPanelRows(
      b, tiles.slabRows, tiles.panelCols, tiles.packPanels, tiles.l1CacheBytes,
      tiles.exactRest, lhs, groupSizes, weights, out,
      [&](LinalgBuilder &sb, Value a, ValueRange panels, Value dest,
          int64_t panelAhead) {
        // Accumulated in place in the output's tile on the CPU; in a
        // local slab buffer (a temporary of the block) on the GPU.
        Value acc = tiles.tileRows
                        ? sb.fill(dest, 0.0)
                        : sb.filled(sb.sizesOf(dest), b.getF32Type(), 0.0);
        return contractPanel(sb, a, panels[0], acc, tiles.tileRows,
                             tiles.prefetchRows, panelAhead);
      },
      tiles.transposedWeights);
}

static SmallVector<Value> lowerGroupedMatmul(GroupedMatmulOp op,
                                             ImplicitLocOpBuilder &b) {
  GroupedGemmTiles tiles(lookupTargetDescription(op), op.getRhs(), op.getLhs());
  return {groupedMatmulPanels(b, tiles, op.getLhs(), op.getGroupSizes(),
                              op.getRhs(), op.getOuts()[0])};
}

static SmallVector<Value> lowerGroupedSwiglu(GroupedSwigluOp op,
                                             ImplicitLocOpBuilder &b) {
  Type f32 = b.getF32Type();
  GroupedGemmTiles tiles(lookupTargetDescription(op), op.getWGate(),
                         op.getX());
  int64_t rows = tiles.tileRows, ahead = tiles.prefetchRows;
  Value out = groupedPanelRows(
      b, tiles.slabRows, tiles.panelCols, tiles.packPanels, tiles.l1CacheBytes,
      tiles.exactRest, op.getX(), op.getGroupSizes(),
      ValueRange{op.getWGate(), op.getWUp()}, op.getOuts()[0],
      [&](LinalgBuilder &sb, Value a, ValueRange panels, Value dest,
          int64_t panelAhead) {
        // Both products of the tile in local buffers, then silu(gate) * up
        // straight into the output's tile.
        SmallVector<OpFoldResult> tile = sb.sizesOf(dest);
        Value gate = contractPanel(sb, a, panels[0], sb.filled(tile, f32, 0.0),
                                   rows, ahead, panelAhead);
        Value up = contractPanel(sb, a, panels[1], sb.filled(tile, f32, 0.0),
                                 rows, ahead, panelAhead);
        AffineMap id = sb.dims(2, {0, 1});
        return sb.map({gate, up}, {id, id}, dest,
                      [](ImplicitLocOpBuilder &mb, ValueRange args) {
                        return siluTimes(mb, args[0], args[1]);
                      });
      });
  return {out};
}

/// The panels of every expert's weights, as the grouped GEMMs pack them.
static SmallVector<Value> lowerPackWeights(PackWeightsOp op,
                                           ImplicitLocOpBuilder &b) {
  return {packWeightPanels(b, op.getWeights(), op.getOuts()[0])};
}

/// The index value of an integer scalar.
static Value toIndex(ImplicitLocOpBuilder &b, Value v) {
  return arith::IndexCastOp::create(b, b.getIndexType(), v);
}

/// An scf.for over [0, ub) carrying `init`; `body` returns the next values.
static SmallVector<Value> loop(ImplicitLocOpBuilder &b, Value ub,
                               ValueRange init, LinalgBuilder::LoopBody body) {
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  return LinalgBuilder(b).loop(c0, ub, c1, init, body);
}

/// Row `i` of `value`: [1] of a vector, the rank-reduced [cols] of a matrix.
static Value rowOf(LinalgBuilder &lb, Value value, Value i,
                   SmallVectorImpl<OpFoldResult> *offsets = nullptr,
                   SmallVectorImpl<OpFoldResult> *sizes = nullptr) {
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> off{i}, size{one};
  SmallVector<int64_t> shape{1};
  if (cast<ShapedType>(value.getType()).getRank() == 2) {
    OpFoldResult cols = lb.sizesOf(value)[1];
    off.push_back(zero);
    size.push_back(cols);
    shape = {staticSize(cols)};
  }
  if (offsets)
    *offsets = off;
  if (sizes)
    *sizes = size;
  return lb.slice(value, off, size, shape);
}

/// What one iteration of forEachRowInParallel writes: `value` into row
/// `row` of the shared output.
struct RowWrite {
  Value row, value;
};

/// An scf.forall over i in [0, count) sharing `dest` (a vector or a
/// matrix): iteration i writes one row of it, `body(lb, i, shared)`. The
/// iterations are independent, so the CPU runs them on its threads (each a
/// vector row operation) and the GPU as one block each (the row over the
/// block's threads).
static Value forEachRowInParallel(
    ImplicitLocOpBuilder &b, Value count, Value dest,
    function_ref<RowWrite(LinalgBuilder &, Value i, Value shared)> body) {
  auto forall = scf::ForallOp::create(b, ArrayRef<OpFoldResult>{count},
                                      ValueRange{dest}, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  LinalgBuilder lb(b);
  Value shared = forall.getRegionIterArgs()[0];
  RowWrite write = body(lb, forall.getInductionVars()[0], shared);
  SmallVector<OpFoldResult> offsets, sizes;
  rowOf(lb, shared, write.row, &offsets, &sizes);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  tensor::ParallelInsertSliceOp::create(b, write.value, shared, offsets, sizes,
                                        strides);
  return forall.getResult(0);
}

/// The scalar counting sort (memory-bound, T*k steps), then the rows of x
/// gathered in parallel, a vector row copy each.
static SmallVector<Value> lowerMoeDispatch(MoeDispatchOp op,
                                           ImplicitLocOpBuilder &b) {
  LinalgBuilder lb(b);
  Value x = op.getX(), ids = op.getExpertIds();
  Value sorted = op.getOuts()[0], sizes = op.getOuts()[1],
        perm = op.getOuts()[2];
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  int64_t numExperts = op.getNumExperts();
  Value k = tensor::DimOp::create(b, ids, 1);
  Value slots = tensor::DimOp::create(b, perm, 0);
  Value experts = arith::ConstantIndexOp::create(b, numExperts);
  Value zero64 = arith::ConstantIntOp::create(b, i64, 0);
  Value one64 = arith::ConstantIntOp::create(b, i64, 1);

  auto expertOf = [&](ImplicitLocOpBuilder &ib, Value a) {
    Value t = arith::DivUIOp::create(ib, a, k);
    Value j = arith::RemUIOp::create(ib, a, k);
    return toIndex(ib, tensor::ExtractOp::create(ib, ids, ValueRange{t, j}));
  };

  // Group sizes: count the slots of each expert.
  sizes = linalg::FillOp::create(b, zero64, sizes).getResult(0);
  sizes = loop(
      b, slots, sizes,
      [&](LinalgBuilder &rb, Value a, ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = rb.builder();
        Value e = expertOf(ib, a);
        Value n = tensor::ExtractOp::create(ib, acc[0], e);
        return {tensor::InsertOp::create(
            ib, arith::AddIOp::create(ib, n, one64), acc[0], e)};
      })[0];
  // The next free row of each expert, from the first row of its group.
  Value next = bufferization::AllocTensorOp::create(
      b, RankedTensorType::get({numExperts}, i64), ValueRange{});
  next = loop(
      b, experts, {next, zero64},
      [&](LinalgBuilder &rb, Value e, ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = rb.builder();
        Value n = tensor::ExtractOp::create(ib, sizes, e);
        return {tensor::InsertOp::create(ib, acc[1], acc[0], e),
                arith::AddIOp::create(ib, acc[1], n)};
      })[0];
  // Slots in order to the next row of their expert: a stable sort.
  perm = loop(
      b, slots, {perm, next},
      [&](LinalgBuilder &rb, Value a, ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = rb.builder();
        Value e = expertOf(ib, a);
        Value row = tensor::ExtractOp::create(ib, acc[1], e);
        Value slot = arith::IndexCastOp::create(ib, i32, a);
        return {tensor::InsertOp::create(ib, slot, acc[0], toIndex(ib, row)),
                tensor::InsertOp::create(
                    ib, arith::AddIOp::create(ib, row, one64), acc[1], e)};
      })[0];
  // sorted[r, :] = x[permutation[r] / k, :]: a gather of rows, each row
  // read from its token's row of x.
  sorted = forEachRowInParallel(
      b, slots, sorted,
      [&](LinalgBuilder &rb, Value r, Value shared) -> RowWrite {
        ImplicitLocOpBuilder &ib = rb.builder();
        Value t = arith::DivUIOp::create(
            ib, toIndex(ib, tensor::ExtractOp::create(ib, perm, r)), k);
        return {r, rb.copy(rowOf(rb, x, t), rowOf(rb, shared, r))};
      });
  return {sorted, sizes, perm};
}

/// A gather per token: the inverse of the permutation (the row of each
/// slot) by a parallel scatter, then each token's row of the output summed
/// from its k expert rows, weighted. No two iterations write the same row,
/// so tokens run in parallel and no row is added to twice.
static SmallVector<Value> lowerMoeCombine(MoeCombineOp op,
                                          ImplicitLocOpBuilder &b) {
  LinalgBuilder lb(b);
  Value expertOut = op.getExpertOut(), perm = op.getPermutation(),
        weights = op.getWeights();
  Type i32 = b.getI32Type();
  Value k = tensor::DimOp::create(b, weights, 1);
  Value tokens = tensor::DimOp::create(b, op.getOuts()[0], 0);
  OpFoldResult slots = lb.sizesOf(perm)[0];

  // rowOfSlot[permutation[r]] = r. Zeroed first: a slot that no row
  // names (permutation is not checked to be one) reads row 0, in bounds.
  Value rowOfSlot = linalg::FillOp::create(
                        b, Value(arith::ConstantIntOp::create(b, i32, 0)),
                        lb.empty({slots}, i32))
                        .getResult(0);
  rowOfSlot = forEachRowInParallel(
      b, getValueOrCreateConstantIndexOp(b, b.getLoc(), slots), rowOfSlot,
      [&](LinalgBuilder &rb, Value r, Value shared) -> RowWrite {
        ImplicitLocOpBuilder &ib = rb.builder();
        Value a = toIndex(ib, tensor::ExtractOp::create(ib, perm, r));
        Value index = arith::IndexCastOp::create(ib, i32, r);
        return {a, linalg::FillOp::create(ib, index, rowOf(rb, shared, a))
                       .getResult(0)};
      });
  // out[t, :] = sum_j weights[t, j] * expert_out[rowOfSlot[t * k + j], :].
  Value out = forEachRowInParallel(
      b, tokens, op.getOuts()[0],
      [&](LinalgBuilder &rb, Value t, Value shared) -> RowWrite {
        ImplicitLocOpBuilder &ib = rb.builder();
        Value row = rb.fill(rowOf(rb, shared, t), 0.0);
        Value first = arith::MulIOp::create(ib, t, k);
        row = loop(
            ib, k, row,
            [&](LinalgBuilder &jlb, Value j,
                ValueRange acc) -> SmallVector<Value> {
              ImplicitLocOpBuilder &jb = jlb.builder();
              Value slot = arith::AddIOp::create(jb, first, j);
              Value r =
                  toIndex(jb, tensor::ExtractOp::create(jb, rowOfSlot, slot));
              Value w =
                  tensor::ExtractOp::create(jb, weights, ValueRange{t, j});
              // acc += w * expert_out[r, :].
              auto addWeighted = [&](ImplicitLocOpBuilder &mb,
                                     ValueRange args) -> Value {
                return arith::AddFOp::create(
                    mb, args[1], arith::MulFOp::create(mb, w, args[0]));
              };
              return {jlb.map({rowOf(jlb, expertOut, r)}, {jlb.dims(1, {0})},
                              acc[0], addWeighted)};
            })[0];
        return {t, row};
      });
  return {out};
}

} // namespace

Value mlir::mixer::groupedMatmulTransposedCpu(ImplicitLocOpBuilder &b,
                                              const TargetDescription &target,
                                              Value lhs, Value groupSizes,
                                              Value weightsT, Value out) {
  GroupedGemmTiles tiles(target, weightsT, lhs, /*transposedWeights=*/true);
  return groupedMatmulPanels(b, tiles, lhs, groupSizes, weightsT, out);
}

void mlir::mixer::populateMoEToLinalgPatterns(RewritePatternSet &patterns) {
  addReplacementPatterns<lowerGroupedMatmul, lowerGroupedSwiglu,
                         lowerPackWeights, lowerMoeDispatch, lowerMoeCombine>(
      patterns);
  populateTopkRouterToVectorPatterns(patterns);
  populateTopkRouterToLoopsPatterns(patterns);
}
