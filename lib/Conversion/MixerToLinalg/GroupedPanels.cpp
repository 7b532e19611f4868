//===- GroupedPanels.cpp - grouped GEMMs over packed weight panels --------===//
//
//   for e in [0, E):                          rows off .. off + size_e - 1
//     for each panel p of `panelCols` columns of N (when packing; along
//     W[e]'s rows where N is whole panels):
//       packed[p] = W[e][:, p]                [K, width], contiguous
//     for each static slab of the group's rows:
//       for each panel p:
//         out[slab, p] = step(lhs[slab], packed[p], out[slab, p])
//   out[rows past the groups] = 0
//
// The packed buffer ([panels, K, panelCols] per weight) is allocated once
// and carried through the loops. Weights packed already by
// mixer.pack_weights ([E, panels, K, panelCols], the same copies over every
// expert) skip the packing and are read in their panels. The inner loop
// reuses what stays in L1: packed panels larger than half of L1 stream
// from L2 past each slab, whose rows stay in L1 (the order above); smaller
// ones stay in L1 while every slab of the group sweeps them (the panel
// loop outside). Without packing, the slabs read W[e][:, p] in place,
// panel by panel: its rows, N floats apart, share a few L1 sets, and the
// panel is swept by every slab while it is in L2.
//
//===----------------------------------------------------------------------===//

#include "GroupedPanels.h"
#include "GroupSlabs.h"
#include "PackedProducts.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::mixer;

namespace {
/// One panel: its index, first column and width.
using PanelBody = function_ref<SmallVector<Value>(
    ImplicitLocOpBuilder &b, OpFoldResult panel, OpFoldResult col0,
    OpFoldResult width, ValueRange state)>;

/// The loops of one grouped product over packed panels.
struct PanelLoops {
  int64_t slabRows, panelCols;
  Value lhs;
  ValueRange weights;
  /// Whether `weights` are packed already ([E, P, K, W], mixer.pack_weights).
  bool prepacked;
  OpFoldResult K;
  /// N in `fullPanels` panels of panelCols, then one of `restCols` when
  /// `hasRest` (with N dynamic: no full panel, the rest is N).
  int64_t fullPanels;
  OpFoldResult restCols;
  bool hasRest;
  PanelSlabStep step;
  /// Whether each slab sweeps every panel (else each panel every slab).
  bool slabsOuter = false;
  /// Whether a group's last rows go in one slab of their own height.
  bool exactRest = false;
  /// Whether `weights` are [E, N, K], each expert's transpose used.
  bool transposed = false;
  /// The rows ahead of each panel that the step prefetches into L1.
  int64_t panelPrefetchRows = 0;

  /// Runs `body` on every panel in order, carrying `state`.
  SmallVector<Value> forEachPanel(ImplicitLocOpBuilder &b, ValueRange state,
                                  PanelBody body) const {
    SmallVector<Value> next(state.begin(), state.end());
    if (fullPanels > 0) {
      Value c0 = arith::ConstantIndexOp::create(b, 0);
      Value c1 = arith::ConstantIndexOp::create(b, 1);
      Value count = arith::ConstantIndexOp::create(b, fullPanels);
      Value width = arith::ConstantIndexOp::create(b, panelCols);
      auto loop = scf::ForOp::create(
          b, c0, count, c1, next,
          [&](OpBuilder &nb, Location loc, Value p, ValueRange iter) {
            ImplicitLocOpBuilder pb(loc, nb);
            Value col0 = arith::MulIOp::create(pb, p, width);
            scf::YieldOp::create(
                pb, body(pb, p, col0, pb.getIndexAttr(panelCols), iter));
          });
      next.assign(loop.getResults().begin(), loop.getResults().end());
    }
    if (hasRest)
      next = body(b, b.getIndexAttr(fullPanels),
                  b.getIndexAttr(fullPanels * panelCols), restCols, next);
    return next;
  }

  /// Panel `panel` ([K, width]) of a packed buffer.
  Value panelOf(LinalgBuilder &lb, Value packed, OpFoldResult panel,
                OpFoldResult width) const {
    OpFoldResult zero = lb.builder().getIndexAttr(0),
                 one = lb.builder().getIndexAttr(1);
    return lb.slice(packed, {panel, zero, zero}, {one, K, width},
                    {staticSize(K), staticSize(width)});
  }

  /// The columns from `col0` of `width` of expert `e` of `weight`, in place
  /// (panel `panel` of packed weights; their rows, [width, K], of
  /// transposed ones).
  Value columnsOf(LinalgBuilder &lb, Value weight, Value e, OpFoldResult panel,
                  OpFoldResult col0, OpFoldResult width) const {
    OpFoldResult zero = lb.builder().getIndexAttr(0),
                 one = lb.builder().getIndexAttr(1);
    if (prepacked)
      return lb.slice(weight, {e, panel, zero, zero}, {one, one, K, width},
                      {staticSize(K), staticSize(width)});
    if (transposed)
      return lb.slice(weight, {e, col0, zero}, {one, width, K},
                      {staticSize(width), staticSize(K)});
    return lb.slice(weight, {e, zero, col0}, {one, K, width},
                    {staticSize(K), staticSize(width)});
  }

  /// Copies the panels of expert `e` of every weight into its buffer: in
  /// one pass over the weight's rows where N is whole panels and K static
  /// (gmm-T4096-E8: packing from 11% of the time to 3%, 1.02-1.035x as
  /// fast with AVX2 code, 1.01x with AVX-512 code), else panel by panel.
  SmallVector<Value> pack(ImplicitLocOpBuilder &b, Value e,
                          ValueRange buffers) const {
    int64_t k = staticSize(K);
    if (!transposed && !hasRest && fullPanels > 0 &&
        !ShapedType::isDynamic(k)) {
      LinalgBuilder lb(b);
      OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
      int64_t n = fullPanels * panelCols;
      SmallVector<Value> next;
      for (auto [weight, buffer] : llvm::zip(weights, buffers)) {
        Value rows =
            lb.slice(weight, {e, zero, zero},
                     {one, b.getIndexAttr(k), b.getIndexAttr(n)}, {k, n});
        next.push_back(packPanelsByRows(lb, rows, buffer));
      }
      return next;
    }
    return forEachPanel(
        b, buffers,
        [&](ImplicitLocOpBuilder &pb, OpFoldResult panel, OpFoldResult col0,
            OpFoldResult width, ValueRange bufs) -> SmallVector<Value> {
          LinalgBuilder lb(pb);
          OpFoldResult zero = pb.getIndexAttr(0), one = pb.getIndexAttr(1);
          SmallVector<Value> next;
          for (auto [weight, buffer] : llvm::zip(weights, bufs)) {
            Value src = columnsOf(lb, weight, e, panel, col0, width);
            Value dest = panelOf(lb, buffer, panel, width);
            Value packed = packPanel(lb, src, dest, transposed);
            next.push_back(lb.insert(packed, buffer, {panel, zero, zero},
                                     {one, K, width}));
          }
          return next;
        });
  }

  /// out[r0 .. r0 + rows - 1] from the packed panels (none: the weights of
  /// expert `e` in place, or their own panels when prepacked), in static
  /// slabs: each slab through every panel when `slabsOuter`, else each
  /// panel through every slab.
  Value multiply(ImplicitLocOpBuilder &b, Value e, Value r0, Value rows,
                 ValueRange buffers, Value out) const {
    // The tile of the slab at `s0` (rows `a`, `h` of them) and one panel.
    auto product = [&](LinalgBuilder &lb, int64_t h, Value s0, Value a,
                       OpFoldResult panel, OpFoldResult col0,
                       OpFoldResult width, Value acc) -> Value {
      SmallVector<Value> panels;
      for (Value buffer : buffers)
        panels.push_back(panelOf(lb, buffer, panel, width));
      if (buffers.empty())
        for (Value weight : weights)
          panels.push_back(columnsOf(lb, weight, e, panel, col0, width));
      OpFoldResult height = lb.builder().getIndexAttr(h);
      Value dest = lb.slice(acc, {s0, col0}, {height, width},
                            {h, staticSize(width)});
      Value tile = step(lb, a, panels, dest, panelPrefetchRows);
      return lb.insert(tile, acc, {s0, col0}, {height, width});
    };
    auto rowsOf = [&](LinalgBuilder &lb, int64_t h, Value s0) {
      OpFoldResult zero = lb.builder().getIndexAttr(0),
                   height = lb.builder().getIndexAttr(h);
      return lb.slice(lhs, {s0, zero}, {height, K}, {h, staticSize(K)});
    };
    if (slabsOuter)
      return forEachSlabCarrying(
          b, slabRows, r0, rows, ValueRange{out},
          [&](LinalgBuilder &sb, int64_t h, Value s0,
              ValueRange acc) -> SmallVector<Value> {
            Value a = rowsOf(sb, h, s0);
            return forEachPanel(
                sb.builder(), acc,
                [&](ImplicitLocOpBuilder &pb, OpFoldResult panel,
                    OpFoldResult col0, OpFoldResult width,
                    ValueRange state) -> SmallVector<Value> {
                  LinalgBuilder lb(pb);
                  return {product(lb, h, s0, a, panel, col0, width, state[0])};
                });
          },
          exactRest)[0];
    return forEachPanel(
        b, ValueRange{out},
        [&](ImplicitLocOpBuilder &pb, OpFoldResult panel, OpFoldResult col0,
            OpFoldResult width, ValueRange state) -> SmallVector<Value> {
          return forEachSlabCarrying(
              pb, slabRows, r0, rows, state,
              [&](LinalgBuilder &sb, int64_t h, Value s0,
                  ValueRange acc) -> SmallVector<Value> {
                return {product(sb, h, s0, rowsOf(sb, h, s0), panel, col0,
                                width, acc[0])};
              },
              exactRest);
        })[0];
  }
};
} // namespace

/// The loops over the N columns of `weights` ([E, K, N], or [E, P, K, W]
/// packed already) in panels of `panelCols` (one of all N when <= 0 or N is
/// dynamic).
static PanelLoops panelLoopsOf(ImplicitLocOpBuilder &b, int64_t slabRows,
                               int64_t panelCols, Value lhs, ValueRange weights,
                               OpFoldResult K, OpFoldResult N,
                               PanelSlabStep step) {
  int64_t n = staticSize(N);
  bool onePanel = ShapedType::isDynamic(n) || panelCols <= 0;
  bool prepacked = cast<RankedTensorType>(weights[0].getType()).getRank() == 4;
  return PanelLoops{slabRows,
                    panelCols,
                    lhs,
                    weights,
                    prepacked,
                    K,
                    onePanel ? 0 : n / panelCols,
                    onePanel ? N : b.getIndexAttr(n % panelCols),
                    onePanel || n % panelCols != 0,
                    step};
}

Value mlir::mixer::groupedPanelRows(ImplicitLocOpBuilder &b, int64_t slabRows,
                                    int64_t panelCols, bool packPanels,
                                    int64_t l1CacheBytes, bool exactRest,
                                    Value lhs, Value groupSizes,
                                    ValueRange weights, Value out,
                                    PanelSlabStep step,
                                    bool transposedWeights) {
  LinalgBuilder lb(b);
  SmallVector<OpFoldResult> wSizes = lb.sizesOf(weights[0]);
  // Packed already ([E, P, K, W], static W and N): read in its panels.
  bool prepacked = wSizes.size() == 4;
  OpFoldResult K = prepacked || transposedWeights ? wSizes[2] : wSizes[1];
  OpFoldResult N = prepacked           ? lb.sizesOf(out)[1]
                   : transposedWeights ? wSizes[1]
                                       : wSizes[2];
  if (prepacked)
    panelCols = staticSize(wSizes[3]);
  // Packed here, once per expert, unless packed already or used in place.
  bool packed = packPanels && panelCols > 0 && !prepacked;
  assert((!transposedWeights ||
          (packed && !ShapedType::isDynamic(staticSize(N)))) &&
         "transposed weights are packed, by panels of a static N");
  PanelLoops loops =
      panelLoopsOf(b, slabRows, panelCols, lhs, weights, K, N, step);
  loops.exactRest = exactRest;
  loops.transposed = transposedWeights;
  if ((packed || prepacked) && l1CacheBytes > 0) {
    // One step's panels (one per weight), [K, panelCols] f32 each: each
    // slab sweeps them all when they do not stay in L1 together, and the
    // micro-kernel prefetches them.
    int64_t k = staticSize(K);
    int64_t panelBytes =
        ShapedType::isDynamic(k)
            ? std::numeric_limits<int64_t>::max()
            : k * panelCols * int64_t(sizeof(float) * weights.size());
    loops.panelPrefetchRows = panelPrefetchRows(panelBytes, l1CacheBytes);
    loops.slabsOuter = loops.panelPrefetchRows > 0;
  } else if (l1CacheBytes > 0) {
    // Read in place, its rows N floats apart in a few L1 sets.
    loops.panelPrefetchRows = kPanelPrefetchRows;
  }

  // One packed buffer per weight: [panels, K, panel width].
  OpFoldResult width =
      loops.fullPanels ? b.getIndexAttr(panelCols) : loops.restCols;
  int64_t panels = loops.fullPanels + (loops.hasRest ? 1 : 0);
  SmallVector<Value> state = {out};
  for (Value weight : packed ? weights : ValueRange()) {
    SmallVector<Value> dynamicSizes;
    SmallVector<int64_t> shape;
    dispatchIndexOpFoldResults({b.getIndexAttr(panels), K, width},
                               dynamicSizes, shape);
    Type element = cast<ShapedType>(weight.getType()).getElementType();
    state.push_back(bufferization::AllocTensorOp::create(
        b, RankedTensorType::get(shape, element), dynamicSizes));
  }

  Value rowsTotal = tensor::DimOp::create(b, lhs, 0);
  SmallVector<Value> walked = walkGroups(
      b, groupSizes, rowsTotal, state,
      [&](LinalgBuilder &gb, Value e, Value offset, Value size,
          ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = gb.builder();
        SmallVector<Value> buffers(acc.drop_front());
        if (packed)
          buffers = loops.pack(ib, e, buffers);
        Value result = loops.multiply(ib, e, offset, size, buffers, acc[0]);
        SmallVector<Value> next = {result};
        next.append(buffers);
        return next;
      });
  Value sum = walked.back();
  Value past = arith::SubIOp::create(b, rowsTotal, sum);
  return zeroRows(b, slabRows, sum, past, N, walked[0]);
}

Value mlir::mixer::packWeightPanels(ImplicitLocOpBuilder &b, Value weights,
                                    Value packed) {
  LinalgBuilder lb(b);
  SmallVector<OpFoldResult> wSizes = lb.sizesOf(weights),
                            pSizes = lb.sizesOf(packed);
  int64_t width = staticSize(pSizes[3]);
  // The loops keep a range of the weights: it must outlive them.
  Value source[] = {weights};
  PanelLoops loops = panelLoopsOf(b, /*slabRows=*/0, width, Value(), source,
                                  wSizes[1], wSizes[2], /*step=*/nullptr);
  // The columns of the last panel past N are zero.
  if (loops.hasRest)
    packed = lb.fill(packed, 0.0);
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> expertSizes = {one, pSizes[1], pSizes[2],
                                           pSizes[3]};
  SmallVector<int64_t> expertShape = {staticSize(pSizes[1]),
                                      staticSize(pSizes[2]), width};
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value experts = tensor::DimOp::create(b, weights, 0);
  auto loop = scf::ForOp::create(
      b, c0, experts, c1, ValueRange{packed},
      [&](OpBuilder &nb, Location loc, Value e, ValueRange iter) {
        ImplicitLocOpBuilder eb(loc, nb);
        LinalgBuilder elb(eb);
        SmallVector<OpFoldResult> at = {e, zero, zero, zero};
        Value dest = elb.slice(iter[0], at, expertSizes, expertShape);
        Value filled = loops.pack(eb, e, ValueRange{dest})[0];
        scf::YieldOp::create(eb, elb.insert(filled, iter[0], at, expertSizes));
      });
  return loop.getResult(0);
}

int64_t mlir::mixer::panelPrefetchRows(int64_t panelBytes,
                                       int64_t l1CacheBytes) {
  // A panel that does not stay in L1 (streaming from L2 past each slab, or
  // read in place) reaches the micro-kernel late: AVX2's 6-row block takes
  // a line of it every 6 cycles, faster than the L1 prefetchers fetch it.
  // 16 rows ahead (1 or 2 KiB) is well past L2's latency; 8 and 32
  // measured the same.
  if (l1CacheBytes <= 0 || panelBytes <= l1CacheBytes / 2)
    return 0;
  return kPanelPrefetchRows;
}

int64_t mlir::mixer::groupedRowBlock(int64_t l2CacheBytes, int64_t slabRows,
                                     int64_t K) {
  if (ShapedType::isDynamic(K))
    return 0;
  int64_t rowBytes = std::max<int64_t>(K, 1) * int64_t(sizeof(float));
  int64_t rows = l2CacheBytes / 4 / rowBytes / slabRows * slabRows;
  return std::max(rows, slabRows);
}

bool mlir::mixer::groupedPanelsPacked(int64_t rows, int64_t experts,
                                      int64_t slabRows) {
  // Packing reads the weights once more and writes them, a pass that no
  // FMA overlaps; reading them in place costs each slab's sweep of a panel
  // some L1 conflicts. At K = N = 256, packing paid at 34 slabs per expert
  // (AVX2's 6 rows), not at 21 (AVX2) or at 18 (AVX-512's 14 rows).
  constexpr int64_t kMinSlabsPerPanel = 24;
  if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(experts) ||
      experts <= 0)
    return true;
  return rows / experts >= kMinSlabsPerPanel * slabRows;
}

int64_t mlir::mixer::nextExpertPanelRows(Value weights) {
  // A tile of the weights (mixer-tile-parallel-dims slices their columns,
  // or panels) lies in the whole tensor: its experts are that far apart.
  int64_t rank = cast<ShapedType>(weights.getType()).getRank();
  while (auto slice = weights.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (slice.getSourceType().getRank() != rank)
      break;
    weights = slice.getSource();
  }
  ArrayRef<int64_t> shape = cast<ShapedType>(weights.getType()).getShape();
  ArrayRef<int64_t> perExpert = shape.drop_front().drop_back();
  if (llvm::any_of(perExpert, ShapedType::isDynamic))
    return 0;
  int64_t rows = 1;
  for (int64_t size : perExpert)
    rows *= size;
  return rows;
}

Value mlir::mixer::contractPanel(LinalgBuilder &lb, Value lhs, Value panel,
                                 Value acc, int64_t tileRows,
                                 int64_t prefetchRows,
                                 int64_t panelPrefetchRows) {
  Value product = lb.contract(lhs, panel, acc, Lhs::RowMajor);
  // A slab shorter than the micro-kernel is one block of all its rows.
  int64_t rows = cast<ShapedType>(lhs.getType()).getDimSize(0);
  if (!ShapedType::isDynamic(rows))
    tileRows = std::min(tileRows, rows);
  if (tileRows > 0)
    product.getDefiningOp()->setAttr(kRegisterTileRowsAttrName,
                                     lb.builder().getI64IntegerAttr(tileRows));
  if (prefetchRows > 0)
    LinalgBuilder::prefetchingRowsAhead(product, prefetchRows);
  if (panelPrefetchRows > 0)
    product.getDefiningOp()->setAttr(
        kPrefetchPanelRowsAttrName,
        lb.builder().getI64IntegerAttr(panelPrefetchRows));
  return product;
}
