//===- TilingModel.cpp - TilingInterface of every mixer op from its maps --===//
//
// One TilingInterface model for all structured mixer ops, written over the
// loops and indexing maps of MixerStructuredOpInterface. The iteration
// domain of TilingInterface is the tileable loops; every other loop (the
// scan's L, the sums' M and D, the grouped GEMM's rows and K) is whole in
// every tile, so a tile is the same op over slices of its operands.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {
/// A tile of one loop or one operand dimension.
struct Tile {
  OpFoldResult offset, size;
};
/// The tile of every loop of a nest; std::nullopt: the loop is whole.
using LoopTiles = SmallVector<std::optional<Tile>>;
/// The tiles of the index expressions computed so far (a group tile read by
/// two operands is computed once).
using ExprTiles = llvm::DenseMap<AffineExpr, Tile>;
} // namespace

/// Whether [offset, offset + size) is all of dim `pos` of `value`, decided
/// without creating IR: static sizes, or the size read by tensor.dim.
static bool isWholeDim(Value value, unsigned pos, OpFoldResult offset,
                       OpFoldResult size) {
  if (!isConstantIntValue(offset, 0))
    return false;
  int64_t dim = cast<RankedTensorType>(value.getType()).getDimSize(pos);
  if (!ShapedType::isDynamic(dim))
    return isConstantIntValue(size, dim);
  auto dimOp = dyn_cast_if_present<tensor::DimOp>(
      dyn_cast_if_present<Value>(size) ? cast<Value>(size).getDefiningOp()
                                       : nullptr);
  return dimOp && dimOp.getSource() == value &&
         getConstantIntValue(dimOp.getIndex()) == static_cast<int64_t>(pos);
}

/// Whether `map` reads any loop that tiling splits: an operand that reads
/// none is passed whole to every tile, without a slice.
static bool readsTileableLoop(AffineMap map, ArrayRef<unsigned> tileable) {
  return llvm::any_of(tileable, [&](unsigned loop) {
    return map.isFunctionOfDim(loop);
  });
}

/// The tile of dim `pos` of `value` whose index is `expr` of the loops.
/// Fails for an expression of a split loop other than the loop itself or
/// the loop divided by a constant (the group of a head).
static FailureOr<Tile> dimTile(OpBuilder &b, Location loc, Value value,
                               unsigned pos, AffineExpr expr,
                               const LoopTiles &loops, ExprTiles &computed) {
  auto whole = [&] {
    return Tile{b.getIndexAttr(0), tensor::getMixedSize(b, loc, value, pos)};
  };
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return Tile{b.getIndexAttr(constant.getValue()), b.getIndexAttr(1)};
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    const std::optional<Tile> &loop = loops[dim.getPosition()];
    return loop ? *loop : whole();
  }
  bool split = llvm::any_of(llvm::seq<unsigned>(0, loops.size()),
                            [&](unsigned d) {
                              return loops[d] && expr.isFunctionOfDim(d);
                            });
  if (!split)
    return whole();
  auto div = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!div || div.getKind() != AffineExprKind::FloorDiv ||
      !isa<AffineDimExpr>(div.getLHS()) ||
      !isa<AffineConstantExpr>(div.getRHS()))
    return failure();
  if (auto it = computed.find(expr); it != computed.end())
    return it->second;
  // The groups of a head tile that lies within one group or covers whole
  // groups (checkTile ensures it).
  const Tile &loop = *loops[cast<AffineDimExpr>(div.getLHS()).getPosition()];
  int64_t perGroup = cast<AffineConstantExpr>(div.getRHS()).getValue();
  AffineExpr d0 = b.getAffineDimExpr(0);
  Tile groups{affine::makeComposedFoldedAffineApply(
                  b, loc, d0.floorDiv(perGroup), {loop.offset}),
              affine::makeComposedFoldedAffineApply(
                  b, loc, d0.ceilDiv(perGroup), {loop.size})};
  computed[expr] = groups;
  return groups;
}

/// The offsets and sizes of the tile of operand `operand`.
static LogicalResult operandTile(OpBuilder &b, Operation *op,
                                 OpOperand &operand, AffineMap map,
                                 const LoopTiles &loops, ExprTiles &computed,
                                 SmallVectorImpl<OpFoldResult> &offsets,
                                 SmallVectorImpl<OpFoldResult> &sizes) {
  for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
    FailureOr<Tile> tile =
        dimTile(b, op->getLoc(), operand.get(), pos, expr, loops, computed);
    if (failed(tile)) {
      std::string index;
      llvm::raw_string_ostream(index) << expr;
      return op->emitOpError()
             << "cannot tile operand #" << operand.getOperandNumber()
             << ": its dimension " << pos << " is indexed by " << index;
    }
    offsets.push_back(tile->offset);
    sizes.push_back(tile->size);
  }
  return success();
}

namespace {
/// TilingInterface of a mixer op from MixerStructuredOpInterface.
template <typename OpTy>
struct StructuredTilingModel
    : public TilingInterface::ExternalModel<StructuredTilingModel<OpTy>,
                                            OpTy> {
  static MixerStructuredOpInterface structured(Operation *op) {
    return cast<MixerStructuredOpInterface>(op);
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    SmallVector<utils::IteratorType> all =
        structured(op).getIteratorTypesArray();
    SmallVector<utils::IteratorType> types;
    for (unsigned loop : structured(op).getTileableLoops())
      types.push_back(all[loop]);
    return types;
  }

  /// Each tileable loop ranges over the dim of an operand that it indexes:
  /// of the first operand indexed by every tileable loop (the results, for
  /// most ops), else of the first operand indexed by the loop.
  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    return iterationDomain(op, b);
  }

  static SmallVector<Range> iterationDomain(Operation *op, OpBuilder &b) {
    SmallVector<AffineMap> maps = structured(op).getIndexingMapsArray();
    SmallVector<unsigned> tileable = structured(op).getTileableLoops();
    auto indexes = [&](AffineMap map,
                       unsigned loop) -> std::optional<unsigned> {
      return map.getResultPosition(b.getAffineDimExpr(loop));
    };
    const AffineMap *full = llvm::find_if(maps, [&](AffineMap map) {
      return llvm::all_of(tileable, [&](unsigned l) {
        return indexes(map, l).has_value();
      });
    });
    SmallVector<Range> domain;
    for (unsigned loop : tileable) {
      const AffineMap *source =
          full != maps.end() ? full : llvm::find_if(maps, [&](AffineMap map) {
            return indexes(map, loop).has_value();
          });
      assert(source != maps.end() && "every tileable loop indexes an operand");
      Value value = op->getOperand(source - maps.begin());
      domain.push_back(Range{b.getIndexAttr(0),
                             tensor::getMixedSize(b, op->getLoc(), value,
                                                  *indexes(*source, loop)),
                             b.getIndexAttr(1)});
    }
    return domain;
  }

  /// The tiles of all loops from the tiles of the tileable ones.
  static LoopTiles loopTiles(Operation *op, ArrayRef<OpFoldResult> offsets,
                             ArrayRef<OpFoldResult> sizes) {
    LoopTiles loops(structured(op).getIteratorTypesArray().size());
    for (auto [i, loop] : llvm::enumerate(structured(op).getTileableLoops()))
      loops[loop] = Tile{offsets[i], sizes[i]};
    return loops;
  }

  FailureOr<TilingResult>
  getTiledImplementation(Operation *op, OpBuilder &b,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) const {
    if (failed(structured(op).checkTile(sizes)))
      return failure();
    LoopTiles loops = loopTiles(op, offsets, sizes);
    SmallVector<AffineMap> maps = structured(op).getIndexingMapsArray();
    SmallVector<unsigned> tileable = structured(op).getTileableLoops();
    SmallVector<Operation *> slices;
    SmallVector<Value> operands;
    // The group tiles first, once each, ahead of the slices that read them.
    ExprTiles computed;
    for (OpOperand &operand : op->getOpOperands())
      for (auto [pos, expr] :
           llvm::enumerate(maps[operand.getOperandNumber()].getResults()))
        if (isa<AffineBinaryOpExpr>(expr))
          (void)dimTile(b, op->getLoc(), operand.get(), pos, expr, loops,
                        computed);
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = maps[operand.getOperandNumber()];
      if (!readsTileableLoop(map, tileable)) {
        operands.push_back(operand.get());
        continue;
      }
      SmallVector<OpFoldResult> tileOffsets, tileSizes;
      if (failed(operandTile(b, op, operand, map, loops, computed, tileOffsets,
                             tileSizes)))
        return failure();
      SmallVector<OpFoldResult> strides(tileOffsets.size(), b.getIndexAttr(1));
      auto slice = tensor::ExtractSliceOp::create(
          b, op->getLoc(), operand.get(), tileOffsets, tileSizes, strides);
      slices.push_back(slice);
      operands.push_back(slice);
    }
    SmallVector<Type> resultTypes;
    auto dps = cast<DestinationStyleOpInterface>(op);
    for (OpOperand &init : dps.getDpsInitsMutable())
      resultTypes.push_back(operands[init.getOperandNumber()].getType());
    Operation *tiled = mlir::clone(b, op, resultTypes, operands);
    return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()),
                        slices};
  }

  LogicalResult
  getResultTilePosition(Operation *op, OpBuilder &b, unsigned resultNumber,
                        ArrayRef<OpFoldResult> offsets,
                        ArrayRef<OpFoldResult> sizes,
                        SmallVector<OpFoldResult> &resultOffsets,
                        SmallVector<OpFoldResult> &resultSizes) const {
    OpOperand *init =
        cast<DestinationStyleOpInterface>(op).getDpsInitOperand(resultNumber);
    AffineMap map =
        structured(op).getIndexingMapsArray()[init->getOperandNumber()];
    ExprTiles computed;
    return operandTile(b, op, *init, map, loopTiles(op, offsets, sizes),
                       computed, resultOffsets, resultSizes);
  }

  /// Whether the tile of `operand` is one that a tile of the loops reads or
  /// writes exactly: its dims indexed by a tileable loop take any tile,
  /// every other dim is whole. Sets the tiles of the loops it fixes.
  static bool loopTilesOfOperandTile(Operation *op, OpOperand &operand,
                                     ArrayRef<OpFoldResult> offsets,
                                     ArrayRef<OpFoldResult> sizes,
                                     LoopTiles &loops) {
    AffineMap map =
        structured(op).getIndexingMapsArray()[operand.getOperandNumber()];
    SmallVector<unsigned> tileable = structured(op).getTileableLoops();
    for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (dim && llvm::is_contained(tileable, dim.getPosition())) {
        loops[dim.getPosition()] = Tile{offsets[pos], sizes[pos]};
        continue;
      }
      if (!isWholeDim(operand.get(), pos, offsets[pos], sizes[pos]))
        return false;
    }
    return true;
  }

  /// The tile of the tileable loops that reads or writes exactly the given
  /// operand tiles (tileable loops no operand indexes are whole). Fails when
  /// there is none.
  static LogicalResult
  domainTileOfOperandTiles(Operation *op, OpBuilder &b,
                           ArrayRef<OpOperand *> operands,
                           ArrayRef<SmallVector<OpFoldResult>> allOffsets,
                           ArrayRef<SmallVector<OpFoldResult>> allSizes,
                           SmallVectorImpl<OpFoldResult> &domainOffsets,
                           SmallVectorImpl<OpFoldResult> &domainSizes) {
    LoopTiles loops(structured(op).getIteratorTypesArray().size());
    for (auto [operand, offsets, sizes] :
         llvm::zip_equal(operands, allOffsets, allSizes)) {
      LoopTiles fixed(loops.size());
      if (!loopTilesOfOperandTile(op, *operand, offsets, sizes, fixed))
        return failure();
      // Two operand tiles must fix a shared loop alike.
      for (auto [loop, tile] : llvm::zip_equal(loops, fixed)) {
        if (!tile)
          continue;
        if (loop && (!isEqualConstantIntOrValue(loop->offset, tile->offset) ||
                     !isEqualConstantIntOrValue(loop->size, tile->size)))
          return failure();
        loop = tile;
      }
    }
    SmallVector<Range> domain = iterationDomain(op, b);
    for (auto [i, loop] :
         llvm::enumerate(structured(op).getTileableLoops())) {
      domainOffsets.push_back(loops[loop] ? loops[loop]->offset
                                          : domain[i].offset);
      domainSizes.push_back(loops[loop] ? loops[loop]->size : domain[i].size);
    }
    return success();
  }

  LogicalResult getIterationDomainTileFromResultTile(
      Operation *op, OpBuilder &b, unsigned resultNumber,
      ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
      SmallVectorImpl<OpFoldResult> &domainOffsets,
      SmallVectorImpl<OpFoldResult> &domainSizes) const {
    OpOperand *init =
        cast<DestinationStyleOpInterface>(op).getDpsInitOperand(resultNumber);
    return domainTileOfOperandTiles(op, b, {init}, {llvm::to_vector(offsets)},
                                    {llvm::to_vector(sizes)}, domainOffsets,
                                    domainSizes);
  }

  FailureOr<TilingResult>
  generateResultTileValue(Operation *op, OpBuilder &b, unsigned resultNumber,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) const {
    SmallVector<OpFoldResult> domainOffsets, domainSizes;
    if (failed(getIterationDomainTileFromResultTile(
            op, b, resultNumber, offsets, sizes, domainOffsets, domainSizes)))
      return failure();
    FailureOr<TilingResult> tiled =
        getTiledImplementation(op, b, domainOffsets, domainSizes);
    if (failed(tiled))
      return failure();
    return TilingResult{tiled->tiledOps, {tiled->tiledValues[resultNumber]},
                        tiled->generatedSlices};
  }

  static SmallVector<OpOperand *> operandsOf(Operation *op,
                                             ArrayRef<unsigned> numbers) {
    return llvm::map_to_vector(
        numbers, [&](unsigned n) { return &op->getOpOperand(n); });
  }

  LogicalResult getIterationDomainTileFromOperandTiles(
      Operation *op, OpBuilder &b, ArrayRef<unsigned> operandNumbers,
      ArrayRef<SmallVector<OpFoldResult>> allOffsets,
      ArrayRef<SmallVector<OpFoldResult>> allSizes,
      SmallVectorImpl<OpFoldResult> &domainOffsets,
      SmallVectorImpl<OpFoldResult> &domainSizes) const {
    return domainTileOfOperandTiles(op, b, operandsOf(op, operandNumbers),
                                    allOffsets, allSizes, domainOffsets,
                                    domainSizes);
  }

  FailureOr<TilingResult> getTiledImplementationFromOperandTiles(
      Operation *op, OpBuilder &b, ArrayRef<unsigned> operandNumbers,
      ArrayRef<SmallVector<OpFoldResult>> allOffsets,
      ArrayRef<SmallVector<OpFoldResult>> allSizes) const {
    SmallVector<OpFoldResult> domainOffsets, domainSizes;
    if (failed(getIterationDomainTileFromOperandTiles(
            op, b, operandNumbers, allOffsets, allSizes, domainOffsets,
            domainSizes)))
      return failure();
    return getTiledImplementation(op, b, domainOffsets, domainSizes);
  }

  bool isOpFusableWithConsumerSlice(Operation *op, unsigned resultNumber,
                                    ArrayRef<OpFoldResult> offsets,
                                    ArrayRef<OpFoldResult> sizes) const {
    OpOperand *init =
        cast<DestinationStyleOpInterface>(op).getDpsInitOperand(resultNumber);
    LoopTiles loops(structured(op).getIteratorTypesArray().size());
    return loopTilesOfOperandTile(op, *init, offsets, sizes, loops);
  }

  bool isOpFusableWithProducerSlices(
      Operation *op, ArrayRef<unsigned> operandNumbers,
      ArrayRef<SmallVector<OpFoldResult>> allOffsets,
      ArrayRef<SmallVector<OpFoldResult>> allSizes) const {
    LoopTiles loops(structured(op).getIteratorTypesArray().size());
    return llvm::all_of(
        llvm::zip_equal(operandsOf(op, operandNumbers), allOffsets, allSizes),
        [&](auto tile) {
          return loopTilesOfOperandTile(op, *std::get<0>(tile),
                                        std::get<1>(tile), std::get<2>(tile),
                                        loops);
        });
  }
};

template <typename... OpTys>
void attachModels(MLIRContext &context) {
  (OpTys::template attachInterface<StructuredTilingModel<OpTys>>(context),
   ...);
}
} // namespace

void mlir::mixer::attachTilingInterfaceModels(MLIRContext &context) {
  // Not mixer.sinkhorn (a composite: its kernel_lse ops are tiled once it is
  // decomposed) nor mixer.moe_dispatch (a global sort: no result tile comes
  // from a tile of the operands).
  attachModels<SsdOp, SelectiveScanOp, LinearAttentionOp, GatedDeltaRuleOp,
               KernelMvOp, KernelLseOp, TransportCostOp, GroupedMatmulOp,
               GroupedSwigluOp, TopkRouterOp, MoeCombineOp>(context);
  attachModels<SsdBackwardOp, LinearAttentionBackwardOp>(context);
  // The backward ops with a parallel dimension that all their results share
  // (the composites are tiled through the ops they decompose into).
  attachModels<KernelMvPointGradOp, KernelLsePointGradOp,
               GroupedMatmulBackwardOp>(context);
}
