//===- MoEOps.cpp - verifiers, builders and tiling of the MoE ops --------===//
//
// Grouped matmul and SwiGLU tile over their output columns (rows are tied to
// groups by run-time sizes), the router over tokens, the combine over
// columns. Dispatch is a global sort and is not tiled.
//
//===----------------------------------------------------------------------===//

#include "ShapeVerifier.h"
#include "TilingUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::mixer;

/// Checks an integer operand whose element type is fixed (i32 ids and
/// permutations, i64 group sizes), then its shape.
static LogicalResult checkIntsOfWidth(ShapeVerifier &v, Value value,
                                      StringRef name, ArrayRef<StringRef> dims,
                                      unsigned width) {
  Type elt = cast<RankedTensorType>(value.getType()).getElementType();
  if (!elt.isSignlessInteger(width))
    return v.error() << "operand '" << name << "' must have i" << width
                     << " elements, got " << elt;
  return v.checkInts(value, name, dims);
}

/// Binds the symbol "T*k" (the rows of the dispatched slots) to T * k when
/// both are static, so that every [T*k]-shaped operand is checked against it
/// (or, when such an operand bound it first, checks it).
static LogicalResult bindSlots(ShapeVerifier &v) {
  std::optional<int64_t> tokens = v.size("T"), k = v.size("k");
  if (!tokens || !k)
    return success();
  std::string what =
      "T*k (" + std::to_string(*tokens) + "*" + std::to_string(*k) + ")";
  return v.bind("T*k", *tokens * *k, what);
}

/// With T dynamic but k and the T*k rows static, the rows must still be a
/// multiple of k. `rowOperands` and `kOperand` name the operands in messages.
static LogicalResult checkSlotRows(ShapeVerifier &v, StringRef rowOperands,
                                   StringRef kOperand) {
  std::optional<int64_t> rows = v.size("T*k"), k = v.size("k");
  if (v.size("T") || !rows || !k)
    return success();
  if (*k == 0 ? *rows == 0 : *rows % *k == 0)
    return success();
  return v.error() << "rows T*k = " << *rows << " of " << rowOperands
                   << " must be a multiple of k = " << *k << " of '" << kOperand
                   << "'";
}

/// The i32 permutation holds slot indices: T*k must fit in i32. States the
/// T*k rows for the run-time checks, which check what is dynamic.
static LogicalResult checkSlots(ShapeVerifier &v) {
  v.requireProduct("T*k", "T", "k");
  v.requireFitsInI32("T*k");
  std::optional<int64_t> rows = v.size("T*k");
  if (!rows || *rows <= std::numeric_limits<int32_t>::max())
    return success();
  return v.error() << "operand 'permutation' cannot index T*k = " << *rows
                   << " slots with i32 elements";
}

/// The tile of the last dim of a rank-`rank` operand (columns), the other
/// dims whole.
static OperandTile lastDimTile(int64_t rank, DimTile cols) {
  OperandTile t(rank, std::nullopt);
  t.back() = cols;
  return t;
}

/// The tile of the first dim of a rank-`rank` operand (rows), the other dims
/// whole.
static OperandTile firstDimTile(int64_t rank, DimTile rows) {
  OperandTile t(rank, std::nullopt);
  t.front() = rows;
  return t;
}

//===----------------------------------------------------------------------===//
// GroupedMatmulOp
//===----------------------------------------------------------------------===//

void GroupedMatmulOp::build(OpBuilder &builder, OperationState &state,
                            Value lhs, Value rhs, Value groupSizes,
                            Value outInit) {
  build(builder, state, TypeRange{outInit.getType()}, lhs, rhs, groupSizes,
        ValueRange{outInit});
}

LogicalResult GroupedMatmulOp::verify() {
  ShapeVerifier v(*this);
  if (failed(v.check(getLhs(), "lhs", {"T", "K"})) ||
      failed(v.check(getRhs(), "rhs", {"E", "K", "N"})) ||
      failed(v.checkInts(getGroupSizes(), "group_sizes", {"E"})) ||
      failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", {"T", "N"})))
    return failure();
  v.require(getGroupSizes(), "group_sizes", ValueRule::CountsWithin, "T");
  return success();
}

// Iteration domain: (N), parallel.
SmallVector<utils::IteratorType> GroupedMatmulOp::getLoopIteratorTypes() {
  return {utils::IteratorType::parallel};
}

SmallVector<Range> GroupedMatmulOp::getIterationDomain(OpBuilder &b) {
  return iterationDomainOf(b, getLoc(), getOuts()[0], {1});
}

FailureOr<TilingResult>
GroupedMatmulOp::getTiledImplementation(OpBuilder &b,
                                        ArrayRef<OpFoldResult> offsets,
                                        ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  DimTile cols{offsets[0], sizes[0]};
  SmallVector<Operation *> slices;
  Value rhs = extractTile(b, loc, getRhs(), lastDimTile(3, cols), slices);
  Value outInit =
      extractTile(b, loc, getOuts()[0], lastDimTile(2, cols), slices);
  auto tiled =
      GroupedMatmulOp::create(b, loc, getLhs(), rhs, getGroupSizes(), outInit);
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()), slices};
}

LogicalResult GroupedMatmulOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  tileOffsetsAndSizes(b, getLoc(), getOuts()[0],
                      lastDimTile(2, {offsets[0], sizes[0]}), resultOffsets,
                      resultSizes);
  return success();
}

//===----------------------------------------------------------------------===//
// GroupedSwigluOp
//===----------------------------------------------------------------------===//

void GroupedSwigluOp::build(OpBuilder &builder, OperationState &state, Value x,
                            Value wGate, Value wUp, Value groupSizes,
                            Value outInit) {
  build(builder, state, TypeRange{outInit.getType()}, x, wGate, wUp, groupSizes,
        ValueRange{outInit});
}

LogicalResult GroupedSwigluOp::verify() {
  ShapeVerifier v(*this);
  if (failed(v.check(getX(), "x", {"T", "K"})) ||
      failed(v.check(getWGate(), "w_gate", {"E", "K", "F"})) ||
      failed(v.check(getWUp(), "w_up", {"E", "K", "F"})) ||
      failed(v.checkInts(getGroupSizes(), "group_sizes", {"E"})) ||
      failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", {"T", "F"})))
    return failure();
  v.require(getGroupSizes(), "group_sizes", ValueRule::CountsWithin, "T");
  return success();
}

// Iteration domain: (F), parallel.
SmallVector<utils::IteratorType> GroupedSwigluOp::getLoopIteratorTypes() {
  return {utils::IteratorType::parallel};
}

SmallVector<Range> GroupedSwigluOp::getIterationDomain(OpBuilder &b) {
  return iterationDomainOf(b, getLoc(), getOuts()[0], {1});
}

FailureOr<TilingResult>
GroupedSwigluOp::getTiledImplementation(OpBuilder &b,
                                        ArrayRef<OpFoldResult> offsets,
                                        ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  DimTile cols{offsets[0], sizes[0]};
  SmallVector<Operation *> slices;
  // The gate and up columns of a tile pair up elementwise, so both weights
  // take the same column tile.
  Value wGate = extractTile(b, loc, getWGate(), lastDimTile(3, cols), slices);
  Value wUp = extractTile(b, loc, getWUp(), lastDimTile(3, cols), slices);
  Value outInit =
      extractTile(b, loc, getOuts()[0], lastDimTile(2, cols), slices);
  auto tiled = GroupedSwigluOp::create(b, loc, getX(), wGate, wUp,
                                       getGroupSizes(), outInit);
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()), slices};
}

LogicalResult GroupedSwigluOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  tileOffsetsAndSizes(b, getLoc(), getOuts()[0],
                      lastDimTile(2, {offsets[0], sizes[0]}), resultOffsets,
                      resultSizes);
  return success();
}

//===----------------------------------------------------------------------===//
// TopkRouterOp
//===----------------------------------------------------------------------===//

void TopkRouterOp::build(OpBuilder &builder, OperationState &state,
                         Value logits, Value weightsInit, Value expertIdsInit,
                         int64_t k, bool normalize) {
  build(builder, state,
        TypeRange{weightsInit.getType(), expertIdsInit.getType()}, logits,
        ValueRange{weightsInit, expertIdsInit}, k, normalize);
}

LogicalResult TopkRouterOp::verify() {
  int64_t k = getK();
  if (k < 1)
    return emitOpError() << "attribute 'k' must be at least 1, got " << k;
  ShapeVerifier v(*this);
  if (failed(v.bindAttribute("k", k, "attribute 'k'")) ||
      failed(v.check(getLogits(), "logits", {"T", "E"})))
    return failure();
  v.requireAtMost("k", "E");
  if (std::optional<int64_t> experts = v.size("E"); experts && k > *experts)
    return emitOpError() << "attribute 'k' = " << k
                         << " must not exceed the number of experts E = "
                         << *experts << " of 'logits'";
  if (failed(verifyOutsAndResults(*this, getOuts(), 2)) ||
      failed(v.check(getOuts()[0], "weights", {"T", "k"})) ||
      failed(checkIntsOfWidth(v, getOuts()[1], "expert_ids", {"T", "k"}, 32)))
    return failure();
  return success();
}

// Iteration domain: (T), parallel.
SmallVector<utils::IteratorType> TopkRouterOp::getLoopIteratorTypes() {
  return {utils::IteratorType::parallel};
}

SmallVector<Range> TopkRouterOp::getIterationDomain(OpBuilder &b) {
  return iterationDomainOf(b, getLoc(), getLogits(), {0});
}

FailureOr<TilingResult>
TopkRouterOp::getTiledImplementation(OpBuilder &b,
                                     ArrayRef<OpFoldResult> offsets,
                                     ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  OperandTile rows = firstDimTile(2, {offsets[0], sizes[0]});
  SmallVector<Operation *> slices;
  Value logits = extractTile(b, loc, getLogits(), rows, slices);
  Value weightsInit = extractTile(b, loc, getOuts()[0], rows, slices);
  Value idsInit = extractTile(b, loc, getOuts()[1], rows, slices);
  auto tiled = TopkRouterOp::create(b, loc, logits, weightsInit, idsInit,
                                    getK(), getNormalize());
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()), slices};
}

LogicalResult TopkRouterOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  tileOffsetsAndSizes(b, getLoc(), getOuts()[resultNumber],
                      firstDimTile(2, {offsets[0], sizes[0]}), resultOffsets,
                      resultSizes);
  return success();
}

//===----------------------------------------------------------------------===//
// MoeDispatchOp
//===----------------------------------------------------------------------===//

void MoeDispatchOp::build(OpBuilder &builder, OperationState &state, Value x,
                          Value expertIds, Value sortedInit,
                          Value groupSizesInit, Value permutationInit,
                          int64_t numExperts) {
  build(builder, state,
        TypeRange{sortedInit.getType(), groupSizesInit.getType(),
                  permutationInit.getType()},
        x, expertIds, ValueRange{sortedInit, groupSizesInit, permutationInit},
        numExperts);
}

LogicalResult MoeDispatchOp::verify() {
  int64_t experts = getNumExperts();
  if (experts <= 0)
    return emitOpError() << "attribute 'num_experts' must be positive, got "
                         << experts;
  ShapeVerifier v(*this);
  if (failed(v.bindAttribute("E", experts, "attribute 'num_experts'")) ||
      failed(v.check(getX(), "x", {"T", "K"})) ||
      failed(checkIntsOfWidth(v, getExpertIds(), "expert_ids", {"T", "k"}, 32)))
    return failure();
  v.require(getExpertIds(), "expert_ids", ValueRule::IndexBelow, "E");
  (void)bindSlots(v); // Nothing else has bound "T*k" yet.
  if (failed(verifyOutsAndResults(*this, getOuts(), 3)) ||
      failed(v.check(getOuts()[0], "sorted", {"T*k", "K"})) ||
      failed(checkIntsOfWidth(v, getOuts()[1], "group_sizes", {"E"}, 64)) ||
      failed(checkIntsOfWidth(v, getOuts()[2], "permutation", {"T*k"}, 32)) ||
      failed(checkSlotRows(v, "'sorted' and 'permutation'", "expert_ids")))
    return failure();
  return checkSlots(v);
}

//===----------------------------------------------------------------------===//
// MoeCombineOp
//===----------------------------------------------------------------------===//

void MoeCombineOp::build(OpBuilder &builder, OperationState &state,
                         Value expertOut, Value permutation, Value weights,
                         Value outInit) {
  build(builder, state, TypeRange{outInit.getType()}, expertOut, permutation,
        weights, ValueRange{outInit});
}

LogicalResult MoeCombineOp::verify() {
  ShapeVerifier v(*this);
  // The weights fix T and k first, so the T*k rows are checked against them.
  if (failed(v.check(getWeights(), "weights", {"T", "k"})))
    return failure();
  (void)bindSlots(v); // Nothing else has bound "T*k" yet.
  if (failed(v.check(getExpertOut(), "expert_out", {"T*k", "N"})) ||
      failed(
          checkIntsOfWidth(v, getPermutation(), "permutation", {"T*k"}, 32)) ||
      failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", {"T", "N"})))
    return failure();
  // A static T of 'out' alone (T of 'weights' dynamic) is checked only now.
  if (failed(bindSlots(v)))
    return failure();
  if (failed(checkSlotRows(v, "'expert_out' and 'permutation'", "weights")))
    return failure();
  v.require(getPermutation(), "permutation", ValueRule::IndexBelow, "T*k");
  return checkSlots(v);
}

// Iteration domain: (N), parallel.
SmallVector<utils::IteratorType> MoeCombineOp::getLoopIteratorTypes() {
  return {utils::IteratorType::parallel};
}

SmallVector<Range> MoeCombineOp::getIterationDomain(OpBuilder &b) {
  return iterationDomainOf(b, getLoc(), getOuts()[0], {1});
}

FailureOr<TilingResult>
MoeCombineOp::getTiledImplementation(OpBuilder &b,
                                     ArrayRef<OpFoldResult> offsets,
                                     ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  DimTile cols{offsets[0], sizes[0]};
  SmallVector<Operation *> slices;
  Value expertOut =
      extractTile(b, loc, getExpertOut(), lastDimTile(2, cols), slices);
  Value outInit =
      extractTile(b, loc, getOuts()[0], lastDimTile(2, cols), slices);
  auto tiled = MoeCombineOp::create(b, loc, expertOut, getPermutation(),
                                    getWeights(), outInit);
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()), slices};
}

LogicalResult MoeCombineOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  tileOffsetsAndSizes(b, getLoc(), getOuts()[0],
                      lastDimTile(2, {offsets[0], sizes[0]}), resultOffsets,
                      resultSizes);
  return success();
}
