//===- KernelOps.cpp - verifiers, builders and tiling of kernel ops -------===//
//
// mixer.kernel_mv, mixer.kernel_lse, mixer.transport_cost and the composite
// mixer.sinkhorn, plus the kernel-kind helpers and the `kernel(<kind>)`
// assembly directive.
//
//===----------------------------------------------------------------------===//

#include "ShapeVerifier.h"
#include "TilingUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// Kernel kinds
//===----------------------------------------------------------------------===//

bool mlir::mixer::isKernelFunction(KernelKind kind) {
  return kind != KernelKind::sqeuclidean;
}

bool mlir::mixer::isLogDomainCost(KernelKind kind) {
  return kind == KernelKind::sqeuclidean || kind == KernelKind::gaussian ||
         kind == KernelKind::laplacian;
}

bool mlir::mixer::isDistanceBased(KernelKind kind) {
  return kind != KernelKind::linear;
}

ParseResult mlir::mixer::parseKernelKind(OpAsmParser &parser,
                                         KernelKindAttr &kind) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<KernelKind> value = symbolizeKernelKind(keyword);
  if (!value)
    return parser.emitError(loc) << "unknown kernel kind '" << keyword << "'";
  kind = KernelKindAttr::get(parser.getContext(), *value);
  return success();
}

void mlir::mixer::printKernelKind(OpAsmPrinter &printer, Operation *,
                                  KernelKindAttr kind) {
  printer << stringifyKernelKind(kind.getValue());
}

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

/// Dimension symbols of an operand, with the batch symbol Bt in front when the
/// op is batched.
static SmallVector<StringRef> dimsOf(bool batched,
                                     std::initializer_list<StringRef> dims) {
  SmallVector<StringRef> result;
  if (batched)
    result.push_back("Bt");
  result.append(dims.begin(), dims.end());
  return result;
}

/// Decides from `x` whether the op is batched: x must be [N, D] or
/// [Bt, N, D]. Every other operand is then checked against that choice.
static FailureOr<bool> batchedFromX(Operation *op, Value x) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  if (rank != 2 && rank != 3)
    return op->emitOpError() << "operand 'x' must have rank 2 [N, D] or rank "
                                "3 [Bt, N, D], got rank "
                             << rank;
  return rank == 3;
}

/// The tile of the optional batch dim followed by `rest`.
static OperandTile
withBatch(std::optional<DimTile> batch,
          std::initializer_list<std::optional<DimTile>> rest) {
  OperandTile tile;
  if (batch)
    tile.push_back(batch);
  tile.append(rest.begin(), rest.end());
  return tile;
}

/// extractTile, except that an operand not tiled in any dim (y and v of an
/// unbatched op) is used as it is rather than through an identity slice.
static Value tileOrWhole(OpBuilder &b, Location loc, Value value,
                         const OperandTile &tile,
                         SmallVectorImpl<Operation *> &slices) {
  if (llvm::all_of(tile, [](const std::optional<DimTile> &t) { return !t; }))
    return value;
  return extractTile(b, loc, value, tile, slices);
}

/// The check of a log-domain cost attribute (kernel_lse, transport_cost,
/// sinkhorn).
static LogicalResult verifyLogDomainCost(Operation *op, StringRef attrName,
                                         KernelKind kind) {
  if (isLogDomainCost(kind))
    return success();
  return op->emitOpError() << "attribute '" << attrName
                           << "' must be a cost (sqeuclidean, gaussian or "
                              "laplacian), got "
                           << stringifyKernelKind(kind);
}

/// The iteration domain ((Bt,) N) of the row reductions kernel_lse and
/// transport_cost: all parallel, the shape of `out`.
static SmallVector<utils::IteratorType> rowIteratorTypes(bool batched) {
  return SmallVector<utils::IteratorType>(batched ? 2 : 1,
                                          utils::IteratorType::parallel);
}

static SmallVector<Range> rowIterationDomain(OpBuilder &b, Location loc,
                                             Value out, bool batched) {
  if (batched)
    return iterationDomainOf(b, loc, out, {0, 1});
  return iterationDomainOf(b, loc, out, {0});
}

/// The batch tile (when batched) and the row tile of a ((Bt,) N, ...) tile.
static std::pair<std::optional<DimTile>, DimTile>
batchAndRows(bool batched, ArrayRef<OpFoldResult> offsets,
             ArrayRef<OpFoldResult> sizes) {
  unsigned first = batched ? 1 : 0;
  std::optional<DimTile> batch;
  if (batched)
    batch = DimTile{offsets[0], sizes[0]};
  return {batch, DimTile{offsets[first], sizes[first]}};
}

/// The result tile of an op whose iteration domain is its result's shape.
static LogicalResult
resultTileIsTheDomainTile(ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes,
                          SmallVector<OpFoldResult> &resultOffsets,
                          SmallVector<OpFoldResult> &resultSizes) {
  resultOffsets.assign(offsets.begin(), offsets.end());
  resultSizes.assign(sizes.begin(), sizes.end());
  return success();
}

//===----------------------------------------------------------------------===//
// KernelMvOp
//===----------------------------------------------------------------------===//

void KernelMvOp::build(OpBuilder &builder, OperationState &state,
                       KernelKind kernel, Value x, Value y, Value v,
                       Value bandwidth, Value outInit) {
  build(builder, state, outInit.getType(),
        KernelKindAttr::get(builder.getContext(), kernel), x, y, v, bandwidth,
        ValueRange{outInit});
}

LogicalResult KernelMvOp::verify() {
  KernelKind kind = getKernel();
  if (!isKernelFunction(kind))
    return emitOpError() << "attribute 'kernel' " << stringifyKernelKind(kind)
                         << " is a cost, not a kernel (use it with "
                            "mixer.kernel_lse or mixer.sinkhorn)";
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return dimsOf(*batched, d);
  };
  if (failed(v.check(getX(), "x", dims({"N", "D"}))) ||
      failed(v.check(getY(), "y", dims({"M", "D"}))) ||
      failed(v.check(getV(), "v", dims({"M", "C"}))) ||
      failed(v.checkScalar(getBandwidth(), "bandwidth")))
    return failure();
  if (kind != KernelKind::linear) // The linear kernel ignores its bandwidth.
    v.require(getBandwidth(), "bandwidth", ValueRule::Positive);
  if (failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", dims({"N", "C"}))))
    return failure();
  return success();
}

// Iteration domain: ((Bt,) N, C), all parallel: the shape of `out`. A tile
// reads its rows of x, all of y and its columns of v.
SmallVector<utils::IteratorType> KernelMvOp::getLoopIteratorTypes() {
  return SmallVector<utils::IteratorType>(isBatched() ? 3 : 2,
                                          utils::IteratorType::parallel);
}

SmallVector<Range> KernelMvOp::getIterationDomain(OpBuilder &b) {
  if (isBatched())
    return iterationDomainOf(b, getLoc(), getOuts()[0], {0, 1, 2});
  return iterationDomainOf(b, getLoc(), getOuts()[0], {0, 1});
}

FailureOr<TilingResult>
KernelMvOp::getTiledImplementation(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                                   ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  auto [batch, rows] = batchAndRows(isBatched(), offsets, sizes);
  unsigned colDim = isBatched() ? 2 : 1;
  DimTile cols{offsets[colDim], sizes[colDim]};

  SmallVector<Operation *> slices;
  auto tile = [&](Value v, const OperandTile &t) {
    return tileOrWhole(b, loc, v, t, slices);
  };
  Value x = tile(getX(), withBatch(batch, {rows, std::nullopt}));
  Value y = tile(getY(), withBatch(batch, {std::nullopt, std::nullopt}));
  Value v = tile(getV(), withBatch(batch, {std::nullopt, cols}));
  Value outInit = tile(getOuts()[0], withBatch(batch, {rows, cols}));
  // The bandwidth is a 0-d tensor shared by every tile.
  auto tiled =
      KernelMvOp::create(b, loc, getKernel(), x, y, v, getBandwidth(), outInit);
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()),
                      slices};
}

LogicalResult KernelMvOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  return resultTileIsTheDomainTile(offsets, sizes, resultOffsets,
                                   resultSizes);
}

//===----------------------------------------------------------------------===//
// KernelLseOp
//===----------------------------------------------------------------------===//

void KernelLseOp::build(OpBuilder &builder, OperationState &state,
                        KernelKind kernel, Value x, Value y, Value eps, Value g,
                        Value outInit) {
  build(builder, state, outInit.getType(),
        KernelKindAttr::get(builder.getContext(), kernel), x, y, eps, g,
        ValueRange{outInit});
}

LogicalResult KernelLseOp::verify() {
  if (failed(verifyLogDomainCost(*this, "kernel", getKernel())))
    return failure();
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return dimsOf(*batched, d);
  };
  if (failed(v.check(getX(), "x", dims({"N", "D"}))) ||
      failed(v.check(getY(), "y", dims({"M", "D"}))) ||
      failed(v.checkScalar(getEps(), "eps")))
    return failure();
  v.require(getEps(), "eps", ValueRule::Positive);
  if (getG() && failed(v.check(getG(), "g", dims({"M"}))))
    return failure();
  if (failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", dims({"N"}))))
    return failure();
  return success();
}

// Iteration domain: ((Bt,) N), all parallel: the shape of `out`. A tile reads
// its rows of x and all of y and g; the sum over M stays inside the op.
SmallVector<utils::IteratorType> KernelLseOp::getLoopIteratorTypes() {
  return rowIteratorTypes(isBatched());
}

SmallVector<Range> KernelLseOp::getIterationDomain(OpBuilder &b) {
  return rowIterationDomain(b, getLoc(), getOuts()[0], isBatched());
}

FailureOr<TilingResult>
KernelLseOp::getTiledImplementation(OpBuilder &b,
                                    ArrayRef<OpFoldResult> offsets,
                                    ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  auto [batch, rows] = batchAndRows(isBatched(), offsets, sizes);

  SmallVector<Operation *> slices;
  auto tile = [&](Value v, const OperandTile &t) {
    return tileOrWhole(b, loc, v, t, slices);
  };
  Value x = tile(getX(), withBatch(batch, {rows, std::nullopt}));
  Value y = tile(getY(), withBatch(batch, {std::nullopt, std::nullopt}));
  Value g = getG() ? tile(getG(), withBatch(batch, {std::nullopt})) : Value();
  Value outInit = tile(getOuts()[0], withBatch(batch, {rows}));
  // eps is a 0-d tensor shared by every tile.
  auto tiled =
      KernelLseOp::create(b, loc, getKernel(), x, y, getEps(), g, outInit);
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()),
                      slices};
}

LogicalResult KernelLseOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  return resultTileIsTheDomainTile(offsets, sizes, resultOffsets,
                                   resultSizes);
}

//===----------------------------------------------------------------------===//
// TransportCostOp
//===----------------------------------------------------------------------===//

void TransportCostOp::build(OpBuilder &builder, OperationState &state,
                            KernelKind cost, Value x, Value y, Value logU,
                            Value logV, Value eps, Value outInit) {
  build(builder, state, outInit.getType(),
        KernelKindAttr::get(builder.getContext(), cost), x, y, logU, logV, eps,
        ValueRange{outInit});
}

LogicalResult TransportCostOp::verify() {
  if (failed(verifyLogDomainCost(*this, "cost", getCost())))
    return failure();
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return dimsOf(*batched, d);
  };
  if (failed(v.check(getX(), "x", dims({"N", "D"}))) ||
      failed(v.check(getY(), "y", dims({"M", "D"}))) ||
      failed(v.check(getLogU(), "log_u", dims({"N"}))) ||
      failed(v.check(getLogV(), "log_v", dims({"M"}))) ||
      failed(v.checkScalar(getEps(), "eps")))
    return failure();
  v.require(getEps(), "eps", ValueRule::Positive);
  if (failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", dims({"N"}))))
    return failure();
  return success();
}

// Iteration domain: ((Bt,) N), all parallel: the shape of `out`. A tile reads
// its rows of x and log_u and all of y and log_v.
SmallVector<utils::IteratorType> TransportCostOp::getLoopIteratorTypes() {
  return rowIteratorTypes(isBatched());
}

SmallVector<Range> TransportCostOp::getIterationDomain(OpBuilder &b) {
  return rowIterationDomain(b, getLoc(), getOuts()[0], isBatched());
}

FailureOr<TilingResult>
TransportCostOp::getTiledImplementation(OpBuilder &b,
                                        ArrayRef<OpFoldResult> offsets,
                                        ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  auto [batch, rows] = batchAndRows(isBatched(), offsets, sizes);

  SmallVector<Operation *> slices;
  auto tile = [&](Value v, const OperandTile &t) {
    return tileOrWhole(b, loc, v, t, slices);
  };
  Value x = tile(getX(), withBatch(batch, {rows, std::nullopt}));
  Value y = tile(getY(), withBatch(batch, {std::nullopt, std::nullopt}));
  Value logU = tile(getLogU(), withBatch(batch, {rows}));
  Value logV = tile(getLogV(), withBatch(batch, {std::nullopt}));
  Value outInit = tile(getOuts()[0], withBatch(batch, {rows}));
  // eps is a 0-d tensor shared by every tile.
  auto tiled = TransportCostOp::create(b, loc, getCost(), x, y, logU, logV,
                                       getEps(), outInit);
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()),
                      slices};
}

LogicalResult TransportCostOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  return resultTileIsTheDomainTile(offsets, sizes, resultOffsets,
                                   resultSizes);
}

//===----------------------------------------------------------------------===//
// SinkhornOp
//===----------------------------------------------------------------------===//

void SinkhornOp::build(OpBuilder &builder, OperationState &state,
                       KernelKind cost, int64_t iterations, Value x, Value y,
                       Value logA, Value logB, Value eps, Value fInit,
                       Value gInit, Value costInit) {
  build(builder, state,
        TypeRange{fInit.getType(), gInit.getType(), costInit.getType()},
        KernelKindAttr::get(builder.getContext(), cost),
        builder.getI64IntegerAttr(iterations), x, y, logA, logB, eps,
        ValueRange{fInit, gInit, costInit});
}

LogicalResult SinkhornOp::verify() {
  if (failed(verifyLogDomainCost(*this, "cost", getCost())))
    return failure();
  if (getIterations() <= 0)
    return emitOpError() << "attribute 'iterations' must be positive, got "
                         << getIterations();
  ShapeVerifier v(*this);
  if (failed(v.check(getX(), "x", {"N", "D"})) ||
      failed(v.check(getY(), "y", {"M", "D"})) ||
      failed(v.check(getLogA(), "log_a", {"N"})) ||
      failed(v.check(getLogB(), "log_b", {"M"})) ||
      failed(v.checkScalar(getEps(), "eps")))
    return failure();
  v.require(getEps(), "eps", ValueRule::Positive);
  if (failed(verifyOutsAndResults(*this, getOuts(), 3)) ||
      failed(v.check(getOuts()[0], "f", {"N"})) ||
      failed(v.check(getOuts()[1], "g", {"M"})) ||
      failed(v.checkScalar(getOuts()[2], "transport_cost")))
    return failure();
  return success();
}
