//===- VectorizeCpu.cpp - register tiling and vectorization for the CPU ---===//
//
// Every static-shape linalg op on tensors is tiled so that one tile fits in
// vector registers, then vectorized:
//   - contractions (i, j parallel, k reduction, out[i, j] += lhs * rhs[k, j])
//     first to cache blocks when large, then to rowTile x 2*vectorWidth blocks
//     (2*rowTile x vectorWidth when one vector wide; with AVX-512, over long
//     reductions, wide blocks of 6 x 4 or 12 x 2 vectors) over one k at a time,
//     whose accumulators are hoisted out of the k loop: vector.contract lowered
//     to outer products, i.e. rowTile x 2 FMAs per k (or the rows a lowering
//     names in `mixer.register_tile_rows`, the grouped GEMMs' micro-kernel,
//     whose `mixer.prefetch_rows_ahead` and `mixer.prefetch_panel_rows` go
//     to its K loop); the rows that full blocks do not cover are split off
//     into a contraction of their own, in a smaller block (rowSplitPoint);
//     the element-wise op that makes the accumulator (zeros, a copy, a
//     decayed state) is fused into each block, which then starts from
//     registers, not from a pass over memory;
//   - other ops to rows: every dim but the innermost tiled by 1 (reductions
//     included, their loops innermost, so that they accumulate into a
//     hoisted vector), the innermost whole, or when it is long by
//     2*vectorWidth (4*vectorWidth for bodies with math ops, whose long
//     polynomials want more independent vectors); a
//     `mixer.prefetch_rows_ahead` goes to the loop over the rows.
// Ops with dynamic shapes are left to the scalar loops of the pipeline.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Codegen/CPU/Transforms.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERVECTORIZECPUPASS
#include "mixer/Codegen/CPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

/// The largest of `preferred` that divides `size`, else `size` itself when it
/// is at most `maxWhole`, else 0 (do not vectorize).
static int64_t pickTile(int64_t size, ArrayRef<int64_t> preferred,
                        int64_t maxWhole) {
  for (int64_t t : preferred)
    if (t > 0 && size % t == 0)
      return t;
  return size <= maxWhole ? size : 0;
}

/// out[i, j] += lhs(i, k) * rhs[k, j] with the dims in that order.
static bool isRowMajorRhsContraction(linalg::LinalgOp op) {
  if (op.getNumLoops() != 3 || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return false;
  auto iterators = op.getIteratorTypesArray();
  if (iterators[0] != utils::IteratorType::parallel ||
      iterators[1] != utils::IteratorType::parallel ||
      iterators[2] != utils::IteratorType::reduction)
    return false;
  MLIRContext *ctx = op.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  return maps[1] == AffineMap::get(3, 0, {d(2), d(1)}, ctx) &&
         maps[2] == AffineMap::get(3, 0, {d(0), d(1)}, ctx);
}

namespace {
/// What the register blocks of contractions are made of: the target's
/// f32 lanes and vector registers, the rows of its block two vectors wide
/// and the accumulators of its wide block (TargetDescription).
struct BlockTarget {
  int64_t vectorWidth, rowTile, wideAccumulators, registers;
};

/// A contraction's register block, rows x columns (columns 0: none fits).
struct RegisterBlock {
  int64_t rows = 0, columns = 0;
};
} // namespace

/// The wide block of contraction `bounds` (i, j, k), or none: over a
/// reduction of at least 16 steps and at least twice a 4-vector block's
/// rows, the target's wide accumulators as 4 vectors by their quarter of
/// rows, else 2 vectors by half (AVX-512: 6 x 4 or 12 x 2 zmm), where that
/// many vectors of the right-hand side and a broadcast fit beside them. A
/// block of 8 x 2 zmm, whose 8 broadcasts per 16 FMAs hold the loop at
/// 83-84% of the FMA peak, reaches 89-90% as 6 x 4 (a hand-written loop,
/// 64 steps, operands in L1, one core of the Xeon with AMX); shorter
/// reductions and fewer rows keep the block below (a gated delta rule's
/// 8 x 64 chunk products as 6 + 2 rows measured no faster, its 8-step
/// state update as 4 x 4 slower).
static std::optional<RegisterBlock> wideBlock(ArrayRef<int64_t> bounds,
                                              const BlockTarget &t) {
  int64_t accumulators = t.wideAccumulators;
  if (bounds[2] < 16 || accumulators <= 2 * t.rowTile ||
      bounds[0] < accumulators / 2)
    return std::nullopt;
  for (int64_t vectors : {4, 2})
    if (accumulators % vectors == 0 && vectors + accumulators < t.registers &&
        bounds[1] % (vectors * t.vectorWidth) == 0)
      return RegisterBlock{accumulators / vectors, vectors * t.vectorWidth};
  return std::nullopt;
}

/// The register block of contraction `op`: its wide block where it has
/// one, else two vectors wide (or one, or the whole of a narrower dim) by
/// the target's rows, twice as many for a block one vector wide (as many
/// accumulators, as many independent FMAs per k to cover their latency),
/// or by the rows a lowering that shaped the contraction for a block of its
/// own (the grouped GEMMs' micro-kernel) names. A reduction of fewer than
/// 16 steps takes a power of two of rows: its blocks spend as much on their
/// accumulators' loads and stores as on FMAs, and rows that do not divide a
/// power-of-two dim only add a remainder block (gated_delta_rule's 8-step
/// state update, AVX2: 7-11% slower in 6-row blocks than in 4-row ones).
static RegisterBlock registerBlockOf(linalg::LinalgOp op,
                                     const BlockTarget &t) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  auto named = op->getAttrOfType<IntegerAttr>(mixer::kRegisterTileRowsAttrName);
  if (!named)
    if (std::optional<RegisterBlock> wide = wideBlock(bounds, t))
      return *wide;
  int64_t vectorWidth = t.vectorWidth;
  int64_t columns =
      pickTile(bounds[1], {2 * vectorWidth, vectorWidth}, 2 * vectorWidth);
  if (!columns)
    return {};
  if (named)
    return {named.getInt(), columns};
  int64_t rows = columns == vectorWidth ? 2 * t.rowTile : t.rowTile;
  if (bounds[2] < 16)
    rows = llvm::bit_floor(uint64_t(rows));
  return {rows, columns};
}

/// Where the static contraction `op` splits along its rows so that full
/// register blocks cover the first part: the largest multiple of the
/// block's rows, when they do not divide the contraction's (6-row AVX2
/// blocks of a 64-row chunk: 60 rows, then 4; of gated_delta_rule's 8-token
/// chunk: 6, then 2, 1-3% faster than two 4-row blocks). 0: no split.
static int64_t rowSplitPoint(linalg::LinalgOp op, const BlockTarget &t) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (!isRowMajorRhsContraction(op) ||
      llvm::any_of(bounds, ShapedType::isDynamic))
    return 0;
  RegisterBlock block = registerBlockOf(op, t);
  if (!block.columns)
    return 0;
  int64_t rows = block.rows;
  if (bounds[0] <= rows || bounds[0] % rows == 0)
    return 0;
  return bounds[0] - bounds[0] % rows;
}

/// Vectors per step of a row that is tiled (longer than 4 vectors): 4 when
/// the body has a math op, whose polynomial (an exp: about 20 dependent
/// instructions) needs that many independent chains to fill the pipes
/// (measured with AVX2 code: the kernel sums 1.13-1.22x, selective_scan
/// 1.05-1.15x as fast as with 2), else 2 (the copies of dispatch and
/// combine ran 4-7% slower in steps of 4 with AVX-512 code).
static int64_t rowVectors(linalg::LinalgOp op) {
  WalkResult math = op->walk([](Operation *inner) {
    return isa<math::MathDialect>(inner->getDialect()) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
  });
  return math.wasInterrupted() ? 4 : 2;
}

/// Tile sizes of `op` for register blocks, or empty to leave it scalar.
static SmallVector<int64_t> registerTileSizes(linalg::LinalgOp op,
                                              const BlockTarget &t) {
  int64_t vectorWidth = t.vectorWidth;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (bounds.empty() || llvm::any_of(bounds, ShapedType::isDynamic))
    return {};
  if (isRowMajorRhsContraction(op)) {
    RegisterBlock block = registerBlockOf(op, t);
    int64_t j = block.columns;
    if (!j)
      return {};
    // The block's rows when they divide the contraction's (rowSplitPoint
    // made the rest a contraction of its own), else the largest power of
    // two below them that does.
    int64_t rows = block.rows;
    int64_t i = bounds[0] % rows == 0 ? rows : 0;
    for (int64_t power = llvm::bit_floor(uint64_t(rows)); !i; power /= 2)
      if (bounds[0] % power == 0)
        i = power;
    // A block of few rows (a row of a triangular solve, a token's step)
    // takes wider columns, up to a two-vector block's 2 * rowTile
    // accumulators: each k step then has that many independent FMAs, not
    // one or two.
    for (int64_t vectors =
             int64_t(llvm::bit_floor(uint64_t(2 * t.rowTile / i)));
         vectors * vectorWidth > j; vectors /= 2)
      if (bounds[1] % (vectors * vectorWidth) == 0) {
        j = vectors * vectorWidth;
        break;
      }
    return {i, j, 1};
  }
  // 2-D transposes in square blocks of 16 or 8, the largest a vector holds
  // that divides both dims (AVX2: 8; AVX-512: 16, or 8 where a dim is 8):
  // a vector.transpose of 16 x 16 or 8 x 8 lowers to register shuffles,
  // where row tiles would gather a column element-wise.
  if (isa<linalg::TransposeOp>(op.getOperation()) && bounds.size() == 2)
    for (int64_t block = vectorWidth; block >= 8; block /= 2)
      if (bounds[0] % block == 0 && bounds[1] % block == 0)
        return {block, block};
  SmallVector<int64_t> sizes(bounds.size(), 1);
  int64_t inner = pickTile(bounds.back(), {}, 4 * vectorWidth);
  if (!inner)
    inner = pickTile(
        bounds.back(),
        {rowVectors(op) * vectorWidth, 2 * vectorWidth, vectorWidth}, 0);
  if (!inner)
    return {};
  sizes.back() = inner;
  return sizes;
}

/// Cache blocks of a large contraction (i, j, k): at most 64 x nc x nc with
/// the right-hand-side block nc x nc in a quarter of L2 (256 for 1 MiB: a
/// 64 KiB accumulator and a 256 KiB block that stay in L2 while the register
/// tiles sweep them). Each block size divides its dim so that the register
/// tiles see static shapes (0: dim left whole). Empty when the contraction
/// already fits.
static SmallVector<int64_t> cacheTileSizes(linalg::LinalgOp op,
                                           int64_t l2CacheBytes) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t nc = 256;
  while (nc > 16 && nc * nc * int64_t(sizeof(float)) > l2CacheBytes / 4)
    nc /= 2;
  const int64_t limits[3] = {64, nc, nc};
  SmallVector<int64_t> sizes(3, 0);
  bool tiled = false;
  for (int d = 0; d < 3; ++d) {
    if (bounds[d] <= limits[d])
      continue;
    for (int64_t t = limits[d]; t >= limits[d] / 4; t /= 2)
      if (bounds[d] % t == 0) {
        sizes[d] = t;
        tiled = true;
        break;
      }
  }
  return tiled ? sizes : SmallVector<int64_t>();
}

/// The cache blocks mixer-vectorize-cpu tiles `op` by first: those of a
/// static contraction, except one that names its register rows (shaped for
/// the micro-kernel by its lowering, blocked for the caches there: its K
/// loop stays whole, the accumulators in registers from the first step to
/// the last). Empty when none.
static SmallVector<int64_t> cacheBlocksOf(linalg::LinalgOp op,
                                          int64_t l2CacheBytes) {
  if (!isRowMajorRhsContraction(op) ||
      op->hasAttr(mixer::kRegisterTileRowsAttrName) ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return {};
  return cacheTileSizes(op, l2CacheBytes);
}

/// The loop order of a row op's tiles: its parallel dims, then its
/// reductions, so that a reduction over an outer dim (a column sum, the
/// running maximum and sum of an online log-sum-exp over the rows of a
/// transposed block) steps innermost and its accumulator tile, invariant
/// there, is hoisted into registers; in dim order the tile loop over the
/// inner parallel dim would sit inside and the accumulator go through
/// memory at every step.
static SmallVector<int64_t> parallelDimsFirst(linalg::LinalgOp op) {
  SmallVector<int64_t> order, reductions;
  for (auto [dim, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (type == utils::IteratorType::parallel ? order : reductions).push_back(dim);
  order.append(reductions);
  return order;
}

/// Tiles `op` by `sizes` into scf.for loops, replacing it, in the order of
/// parallelDimsFirst (a contraction's (i, j, k) already is).
static FailureOr<scf::SCFTilingResult>
tileOp(RewriterBase &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setInterchange(parallelDimsFirst(op));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()),
                        options);
  if (succeeded(tiled))
    rewriter.replaceOp(op, tiled->replacements);
  return tiled;
}

/// Vectorizes the static-shape `tile` whole; false when it stays scalar.
static bool vectorizeTile(RewriterBase &rewriter, Operation *tile) {
  if (failed(linalg::vectorizeOpPrecondition(tile)))
    return false;
  rewriter.setInsertionPoint(tile);
  FailureOr<linalg::VectorizationResult> vectorized =
      linalg::vectorize(rewriter, tile);
  if (failed(vectorized))
    return false;
  rewriter.replaceOp(tile, vectorized->replacements);
  return true;
}

/// Tiles `op` by `sizes` and vectorizes the tile. Returns the loops,
/// innermost last (empty when the tile stays scalar).
static FailureOr<SmallVector<LoopLikeOpInterface>>
tileAndVectorize(RewriterBase &rewriter, linalg::LinalgOp op,
                 ArrayRef<int64_t> sizes) {
  FailureOr<scf::SCFTilingResult> tiled = tileOp(rewriter, op, sizes);
  if (failed(tiled))
    return failure();
  if (!vectorizeTile(rewriter, tiled->tiledOps.front()))
    return SmallVector<LoopLikeOpInterface>(); // stays a scalar loop nest
  return tiled->loops;
}

/// The op that makes the accumulator of the contraction `op`, when it can
/// be computed block by block inside the register tiles instead: an
/// element-wise linalg op (every loop parallel, its result indexed as the
/// accumulator: a zero fill, a copy, a state scaled by its decay in place),
/// with the contraction its only user.
static linalg::LinalgOp fusableAccumulatorProducer(linalg::LinalgOp op) {
  Value init = op.getDpsInitOperand(0)->get();
  auto producer = init.getDefiningOp<linalg::LinalgOp>();
  if (!producer || !init.hasOneUse() || producer->getNumResults() != 1 ||
      !producer.hasPureTensorSemantics() || producer.getNumLoops() != 2 ||
      producer.getNumParallelLoops() != 2 ||
      llvm::any_of(producer.getStaticLoopRanges(), ShapedType::isDynamic))
    return {};
  SmallVector<AffineMap> maps = producer.getIndexingMapsArray();
  if (!maps.back().isIdentity() ||
      !llvm::all_of(maps, [](AffineMap map) {
        return map.isProjectedPermutation();
      }))
    return {};
  return producer;
}

/// An op to register-tile (a contraction or a part of one), with the op
/// that makes its accumulator when that is fused into its blocks (null
/// otherwise).
struct ContractionPart {
  linalg::LinalgOp contraction, producer;
};

/// `op` on rows [offset, offset + rows) of its first dim and the whole of
/// the others, writing into the rows of `dest` (in place of its own init).
static FailureOr<linalg::LinalgOp> rowsOf(RewriterBase &rewriter,
                                          linalg::LinalgOp op, Value dest,
                                          int64_t offset, int64_t rows) {
  SmallVector<OpFoldResult> offsets(op.getNumLoops(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(op.getContext(), op.getStaticLoopRanges());
  offsets[0] = rewriter.getIndexAttr(offset);
  sizes[0] = rewriter.getIndexAttr(rows);
  auto writer = cast<linalg::LinalgOp>(rewriter.clone(*op));
  rewriter.modifyOpInPlace(writer,
                           [&] { writer.getDpsInitOperand(0)->set(dest); });
  FailureOr<TilingResult> part =
      cast<TilingInterface>(writer.getOperation())
          .getTiledImplementation(rewriter, offsets, sizes);
  rewriter.eraseOp(writer);
  if (failed(part))
    return failure();
  return cast<linalg::LinalgOp>(part->tiledOps.front());
}

/// Splits the contraction `op` at row `splitRow` into one on the rows
/// before it and one on the rest, each writing its rows of the tensor `op`
/// wrote. `producer`, when given, makes `op`'s accumulator and is split
/// with it, each part making the accumulator of its own rows (to be fused
/// into their blocks).
static FailureOr<std::array<ContractionPart, 2>>
splitRows(RewriterBase &rewriter, linalg::LinalgOp op,
          linalg::LinalgOp producer, int64_t splitRow) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  const int64_t rowRanges[2][2] = {{0, splitRow},
                                   {splitRow, bounds[0] - splitRow}};
  rewriter.setInsertionPoint(op);
  // The tensor both parts write: the destination of `op` (or of its
  // producer), then that with the first part's rows inserted.
  Value result = (producer ? producer : op).getDpsInitOperand(0)->get();
  std::array<ContractionPart, 2> parts;
  for (auto [part, range] : llvm::zip_equal(parts, rowRanges)) {
    FailureOr<linalg::LinalgOp> accumulator;
    if (producer && failed(accumulator = rowsOf(rewriter, producer, result,
                                                range[0], range[1])))
      return failure();
    FailureOr<linalg::LinalgOp> contraction =
        rowsOf(rewriter, op, result, range[0], range[1]);
    if (failed(contraction))
      return failure();
    if (producer) {
      // The part accumulates into its producer's part.
      OpOperand *init = (*contraction).getDpsInitOperand(0);
      Operation *slice = init->get().getDefiningOp();
      rewriter.modifyOpInPlace(
          *contraction, [&] { init->set((*accumulator)->getResult(0)); });
      if (slice && slice->use_empty())
        rewriter.eraseOp(slice);
    }
    OpFoldResult zero = rewriter.getIndexAttr(0),
                 one = rewriter.getIndexAttr(1);
    result = tensor::InsertSliceOp::create(
        rewriter, op.getLoc(), (*contraction)->getResult(0), result,
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(range[0]), zero},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(range[1]),
                               rewriter.getIndexAttr(bounds[1])},
        ArrayRef<OpFoldResult>{one, one});
    part = {*contraction, producer ? *accumulator : linalg::LinalgOp()};
  }
  rewriter.replaceOp(op, result);
  if (producer)
    rewriter.eraseOp(producer);
  return parts;
}

/// Tiles the contraction `op` by the register block `sizes` (i, j, k = 1)
/// with `producer`, which makes its accumulator, fused into each (i, j)
/// block: the block's accumulator is computed in registers right before
/// its k loop (a producer the tiling could not fuse is vectorized on its
/// own). Returns the loops, innermost last.
static FailureOr<SmallVector<LoopLikeOpInterface>>
tileFusingAccumulator(RewriterBase &rewriter, linalg::LinalgOp op,
                      linalg::LinalgOp producer, ArrayRef<int64_t> sizes,
                      const BlockTarget &t) {
  scf::SCFTileAndFuseOptions options;
  options.tilingOptions.setTileSizes(getAsIndexOpFoldResult(
      op.getContext(), ArrayRef<int64_t>{sizes[0], sizes[1], 0}));
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult original, bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (isDestination && original.getOwner() == producer.getOperation())
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(fused))
    return failure();
  for (auto [result, replacement] : fused->replacements)
    rewriter.replaceAllUsesWith(result, replacement);
  rewriter.eraseOp(op);
  SmallVector<LoopLikeOpInterface> loops(fused->loops.begin(),
                                         fused->loops.end());
  auto tiles = fused->tiledAndFusedOps.getArrayRef();
  if (tiles.size() == 2) {
    vectorizeTile(rewriter, tiles[1]);
    rewriter.eraseOp(producer);
  } else {
    // Not fused after all: the producer is vectorized on its own.
    SmallVector<int64_t> rows = registerTileSizes(producer, t);
    if (!rows.empty() && failed(tileAndVectorize(rewriter, producer, rows)))
      return failure();
  }
  FailureOr<SmallVector<LoopLikeOpInterface>> kLoop = tileAndVectorize(
      rewriter, cast<linalg::LinalgOp>(tiles[0]), {0, 0, sizes[2]});
  if (failed(kLoop))
    return failure();
  loops.append(kLoop->begin(), kLoop->end());
  return loops;
}

/// Tiles `op` to its register blocks and vectorizes them, with `producer`
/// (when given) fused into each; appends the loops, innermost last, to
/// `tileLoops`. An op without register blocks stays as it is.
static LogicalResult
tileForRegisters(RewriterBase &rewriter, linalg::LinalgOp op,
                 linalg::LinalgOp producer, const BlockTarget &t,
                 SmallVectorImpl<LoopLikeOpInterface> &tileLoops) {
  SmallVector<int64_t> sizes = registerTileSizes(op, t);
  if (sizes.empty())
    return success();
  Attribute prefetch = op->getAttr(mixer::kPrefetchRowsAheadAttrName);
  Attribute panelPrefetch = op->getAttr(mixer::kPrefetchPanelRowsAttrName);
  bool contraction = isRowMajorRhsContraction(op);
  FailureOr<SmallVector<LoopLikeOpInterface>> loops =
      producer ? tileFusingAccumulator(rewriter, op, producer, sizes, t)
               : tileAndVectorize(rewriter, op, sizes);
  if (failed(loops))
    return op->emitError("register tiling failed");
  // The prefetch a lowering asked for goes to the loop whose steps read
  // one row each: a contraction's K loop (innermost), another op's loop
  // over its rows (outermost). mixer-prefetch-rows finds it there after
  // bufferization.
  if (prefetch && !loops->empty())
    (contraction ? loops->back() : loops->front())
        ->setAttr(mixer::kPrefetchRowsAheadAttrName, prefetch);
  if (panelPrefetch && contraction && !loops->empty())
    loops->back()->setAttr(mixer::kPrefetchPanelRowsAttrName, panelPrefetch);
  tileLoops.append(loops->begin(), loops->end());
  return success();
}

static LogicalResult applyPatterns(Operation *root,
                                   function_ref<void(RewritePatternSet &)> add) {
  RewritePatternSet patterns(root->getContext());
  add(patterns);
  return applyPatternsGreedily(root, std::move(patterns));
}

LogicalResult mlir::mixer::vectorizeForCpu(Operation *root,
                                           const TargetDescription &target) {
  BlockTarget blocks{target.vectorWidth, target.registerTileRows,
                     target.registerBlockAccumulators, target.vectorRegisters};
  MLIRContext *ctx = root->getContext();
  SmallVector<linalg::LinalgOp> ops;
  root->walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics())
      ops.push_back(op);
  });
  // The accumulators' producers that go into their contractions' blocks;
  // the contraction tiles them, they are not tiled on their own.
  DenseMap<Operation *, linalg::LinalgOp> accumulatorProducers;
  DenseSet<Operation *> fusedProducers;
  for (linalg::LinalgOp op : ops)
    if (isRowMajorRhsContraction(op) &&
        !registerTileSizes(op, blocks).empty() &&
        cacheBlocksOf(op, target.l2CacheBytes).empty())
      if (linalg::LinalgOp producer = fusableAccumulatorProducer(op)) {
        accumulatorProducers[op] = producer;
        fusedProducers.insert(producer);
      }

  // 1. Tile and vectorize each op.
  IRRewriter rewriter(ctx);
  SmallVector<LoopLikeOpInterface> tileLoops;
  for (linalg::LinalgOp op : ops) {
    if (fusedProducers.contains(op))
      continue;
    SmallVector<int64_t> cache = cacheBlocksOf(op, target.l2CacheBytes);
    if (!cache.empty()) {
      FailureOr<scf::SCFTilingResult> block = tileOp(rewriter, op, cache);
      if (failed(block))
        return op->emitError("cache tiling failed");
      op = cast<linalg::LinalgOp>(block->tiledOps.front());
    }
    linalg::LinalgOp producer = accumulatorProducers.lookup(op);
    SmallVector<ContractionPart, 2> parts = {{op, producer}};
    if (int64_t splitRow = rowSplitPoint(op, blocks)) {
      FailureOr<std::array<ContractionPart, 2>> split =
          splitRows(rewriter, op, producer, splitRow);
      if (failed(split))
        return op->emitError(
            "splitting the rows of the register blocks failed");
      parts.assign(split->begin(), split->end());
    }
    for (const ContractionPart &part : parts)
      if (failed(tileForRegisters(rewriter, part.contraction, part.producer,
                                  blocks, tileLoops)))
        return failure();
  }

  // 2. Fold the vectorized multiply-reduce into vector.contract before any
  // lowering breaks it up.
  if (failed(applyPatterns(root, [&](RewritePatternSet &patterns) {
        vector::populateVectorReductionToContractPatterns(patterns);
        vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
        vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
        vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
      })))
    return failure();

  // 3. Keep accumulators in registers across the reduction loops: hoist the
  // read/write of each loop-invariant tile, innermost loop first.
  for (LoopLikeOpInterface loop : llvm::reverse(tileLoops))
    hoistLoopInvariantSubsets(rewriter, loop);

  // 4. Contractions to outer products (FMAs), transfers to 1-D loads and
  // stores, the remaining n-D vector ops to 1-D ones.
  if (failed(applyPatterns(root, [&](RewritePatternSet &patterns) {
        vector::populateVectorContractLoweringPatterns(
            patterns, vector::VectorContractLowering::OuterProduct);
        vector::populateVectorOuterProductLoweringPatterns(patterns);
        vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
        vector::populateVectorTransferLoweringPatterns(patterns,
                                                       /*maxTransferRank=*/1);
      })))
    return failure();
  return applyPatterns(root, [&](RewritePatternSet &patterns) {
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerParallel);
    populateTransposeBlockPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle16x16);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
  });
}

namespace {
struct MixerVectorizeCpuPass
    : public mixer::impl::MixerVectorizeCpuPassBase<MixerVectorizeCpuPass> {
  using Base::Base;
  void runOnOperation() override {
    // The module's target, unless the options say otherwise.
    FailureOr<mixer::TargetDescription> target =
        mixer::getTargetDescription(getOperation());
    if (failed(target))
      return signalPassFailure();
    if (vectorWidth.hasValue())
      target->vectorWidth = vectorWidth;
    if (rowTile.hasValue())
      target->registerTileRows = rowTile;
    if (blockAccumulators.hasValue())
      target->registerBlockAccumulators = blockAccumulators;
    if (failed(mixer::vectorizeForCpu(getOperation(), *target)))
      return signalPassFailure();
  }
};
} // namespace
