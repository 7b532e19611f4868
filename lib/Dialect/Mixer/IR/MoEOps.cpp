//===- MoEOps.cpp - verifiers, builders and tiling of the MoE ops --------===//
//
// Each tiled op states its loops and indexing maps (structureOf), from which
// TilingModel.cpp tiles it: grouped matmul and SwiGLU over their output
// columns (rows are tied to groups by run-time sizes), the router over
// tokens, the combine over columns. Dispatch is a global sort and is not
// tiled.
//
//===----------------------------------------------------------------------===//

#include "MoEShapes.h"
#include "TilingUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::mixer;

/// Checks an integer operand whose element type is fixed (i32 ids and
/// permutations, i64 group sizes), then its shape.
LogicalResult mlir::mixer::checkIntsOfWidth(ShapeVerifier &v, Value value,
                                           StringRef name,
                                           ArrayRef<StringRef> dims,
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
LogicalResult mlir::mixer::bindSlots(ShapeVerifier &v) {
  std::optional<int64_t> tokens = v.size("T"), k = v.size("k");
  if (!tokens || !k)
    return success();
  std::string what =
      "T*k (" + std::to_string(*tokens) + "*" + std::to_string(*k) + ")";
  return v.bind("T*k", *tokens * *k, what);
}

/// With T dynamic but k and the T*k rows static, the rows must still be a
/// multiple of k. `rowOperands` and `kOperand` name the operands in messages.
LogicalResult mlir::mixer::checkSlotRows(ShapeVerifier &v,
                                        StringRef rowOperands,
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
LogicalResult mlir::mixer::checkSlots(ShapeVerifier &v) {
  v.requireProduct("T*k", "T", "k");
  v.requireFitsInI32("T*k");
  std::optional<int64_t> rows = v.size("T*k");
  if (!rows || *rows <= std::numeric_limits<int32_t>::max())
    return success();
  return v.error() << "operand 'permutation' cannot index T*k = " << *rows
                   << " slots with i32 elements";
}

NamedOperand mlir::mixer::groupSizesOperand(Value groupSizes) {
  return {groupSizes,   "group_sizes", {"E"}, ValueRule::CountsWithin, "T",
          /*ints=*/true};
}

bool mlir::mixer::isPackedWeights(Value weights) {
  return cast<RankedTensorType>(weights.getType()).getRank() == 4;
}

NamedOperand mlir::mixer::groupedWeightsOperand(Value weights, StringRef name,
                                                StringRef columns) {
  if (isPackedWeights(weights))
    return {weights, name, {"E", "P", "K", "W"}};
  return {weights, name, {"E", "K", columns}};
}

LogicalResult mlir::mixer::checkPackedWeights(ShapeVerifier &v, StringRef name,
                                              StringRef columns) {
  std::optional<int64_t> width = v.size("W"), panels = v.size("P"),
                         cols = v.size(columns);
  if (!width)
    return v.error() << "operand '" << name
                     << "' (packed panels [E, P, K, W]) must have a static "
                        "panel width W";
  if (*width <= 0)
    return v.error() << "operand '" << name
                     << "' has panel width W = " << *width
                     << ", expected W > 0";
  if (!cols)
    return v.error() << "with packed '" << name << "', " << columns
                     << " (the columns of the result) must be static";
  if (panels && *panels != llvm::divideCeilSigned(*cols, *width))
    return v.error() << "operand '" << name << "' has " << *panels
                     << " panels (dim 1), but " << columns << " = " << *cols
                     << " needs ceil(" << *cols << " / " << *width
                     << ") = " << llvm::divideCeil(*cols, *width);
  return success();
}

LogicalResult GroupedSignature::verify(Operation *op) const {
  ShapeVerifier v(op);
  if (failed(verifyOperands(op, v, inputs,
                            cast<DestinationStyleOpInterface>(op).getDpsInits(),
                            results)))
    return failure();
  // The weights (the operands with an expert dim E and a K) are all packed
  // or all not.
  const NamedOperand *first = nullptr;
  for (const NamedOperand &in : inputs) {
    if (in.dims.size() < 3 || in.dims.front() != "E")
      continue;
    bool packed = in.dims[1] == "P";
    if (packed && failed(checkPackedWeights(v, in.name, tiled)))
      return failure();
    if (!first) {
      first = &in;
    } else if ((first->dims[1] == "P") != packed) {
      return v.error() << "operands '" << first->name << "' and '" << in.name
                       << "' must both be packed panels [E, P, K, W] or "
                          "both [E, K, "
                       << tiled << "]";
    }
  }
  return success();
}

OpStructure GroupedSignature::structure(MLIRContext *context) const {
  OpStructure s(context);
  s.tiled({tiled}).whole({"T"}).reduction(reduction);
  if (panelWidth > 0) {
    s.whole({"W"});
    s.alias("P", s.expr(tiled).floorDiv(panelWidth));
  }
  for (ArrayRef<NamedOperand> operands : {ArrayRef(inputs), ArrayRef(results)})
    for (const NamedOperand &operand : operands)
      s.operand(operand.value, operand.dims);
  return s;
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

/// The panel width of packed weights, 0 for [E, K, N] weights (or a
/// dynamic width, which the verifier rejects).
static int64_t packedPanelWidth(Value weights) {
  if (!isPackedWeights(weights))
    return 0;
  int64_t width = cast<RankedTensorType>(weights.getType()).getDimSize(3);
  return ShapedType::isDynamic(width) ? 0 : width;
}

/// The loops (cols, T, E, K) of a grouped GEMM writing out [T, cols]: a tile
/// is a block of the columns of the weights and out. The rows T are tied to
/// the groups E by run-time sizes, so they stay whole; the rows' input and
/// group_sizes are read whole by every tile. Packed weights [E, P, K, W]
/// add the loop W; their panels are cols floordiv W.
static GroupedSignature groupedGemmSignature(StringRef cols,
                                             SmallVector<NamedOperand> inputs,
                                             ValueRange outs, Value weights) {
  return {cols, {"E", "K"}, std::move(inputs),
          namedResults(outs, {{"out", {"T", cols}}}),
          packedPanelWidth(weights)};
}

static GroupedSignature signatureOf(GroupedMatmulOp op) {
  return groupedGemmSignature("N",
                              {{op.getLhs(), "lhs", {"T", "K"}},
                               groupedWeightsOperand(op.getRhs(), "rhs", "N"),
                               groupSizesOperand(op.getGroupSizes())},
                              op.getOuts(), op.getRhs());
}

MIXER_GROUPED_OP(GroupedMatmulOp)

//===----------------------------------------------------------------------===//
// GroupedSwigluOp
//===----------------------------------------------------------------------===//

void GroupedSwigluOp::build(OpBuilder &builder, OperationState &state, Value x,
                            Value wGate, Value wUp, Value groupSizes,
                            Value outInit) {
  build(builder, state, TypeRange{outInit.getType()}, x, wGate, wUp, groupSizes,
        ValueRange{outInit});
}

// The gate and up columns of a tile pair up elementwise, so both weights
// take the same column tile.
static GroupedSignature signatureOf(GroupedSwigluOp op) {
  return groupedGemmSignature(
      "F",
      {{op.getX(), "x", {"T", "K"}},
       groupedWeightsOperand(op.getWGate(), "w_gate", "F"),
       groupedWeightsOperand(op.getWUp(), "w_up", "F"),
       groupSizesOperand(op.getGroupSizes())},
      op.getOuts(), op.getWGate());
}

MIXER_GROUPED_OP(GroupedSwigluOp)

//===----------------------------------------------------------------------===//
// PackWeightsOp
//===----------------------------------------------------------------------===//

void PackWeightsOp::build(OpBuilder &builder, OperationState &state,
                          Value weights, Value packedInit) {
  build(builder, state, TypeRange{packedInit.getType()}, weights,
        ValueRange{packedInit});
}

LogicalResult PackWeightsOp::verify() {
  ShapeVerifier v(*this);
  if (failed(verifyOperands(
          *this, v, {{getWeights(), "weights", {"E", "K", "N"}}}, getOuts(),
          namedResults(getOuts(), {{"packed", {"E", "P", "K", "W"}}}))))
    return failure();
  return checkPackedWeights(v, "packed", "N");
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

// Loops (T, E, k): a tile is a block of tokens. The softmax over E and the
// choice of the k largest read a whole row of logits.
static OpStructure structureOf(TopkRouterOp op) {
  OpStructure s(op.getContext());
  s.tiled({"T"}).reduction({"E", "k"});
  return s.operand(op.getLogits(), {"T", "E"})
      .operand(op.getOuts()[0], {"T", "k"})
      .operand(op.getOuts()[1], {"T", "k"});
}

MIXER_STRUCTURED_OP(TopkRouterOp)

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

LogicalResult mlir::mixer::checkCombineInputs(ShapeVerifier &v, Value expertOut,
                                              Value permutation,
                                              Value weights) {
  if (failed(v.check(weights, "weights", {"T", "k"})))
    return failure();
  (void)bindSlots(v); // Nothing else has bound "T*k" yet.
  if (failed(v.check(expertOut, "expert_out", {"T*k", "N"})) ||
      failed(checkIntsOfWidth(v, permutation, "permutation", {"T*k"}, 32)))
    return failure();
  return success();
}

LogicalResult mlir::mixer::checkCombineSlots(ShapeVerifier &v,
                                             Value permutation) {
  // A static T of an operand other than 'weights' (T of 'weights' dynamic)
  // is checked only now.
  if (failed(bindSlots(v)) ||
      failed(checkSlotRows(v, "'expert_out' and 'permutation'", "weights")))
    return failure();
  v.require(permutation, "permutation", ValueRule::IndexBelow, "T*k");
  return checkSlots(v);
}

LogicalResult MoeCombineOp::verify() {
  ShapeVerifier v(*this);
  if (failed(checkCombineInputs(v, getExpertOut(), getPermutation(),
                                getWeights())) ||
      failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "out", {"T", "N"})))
    return failure();
  return checkCombineSlots(v, getPermutation());
}

// Loops (N, T, k, S): a tile is a block of columns N. The rows of a token
// are scattered over the T*k slots S of expert_out by the run-time
// permutation, so T stays whole; permutation and weights are read whole.
static OpStructure structureOf(MoeCombineOp op) {
  OpStructure s(op.getContext());
  s.tiled({"N"}).whole({"T"}).reduction({"k", "S"});
  return s.operand(op.getExpertOut(), {"S", "N"})
      .operand(op.getPermutation(), {"S"})
      .operand(op.getWeights(), {"T", "k"})
      .operand(op.getOuts()[0], {"T", "N"});
}

MIXER_STRUCTURED_OP(MoeCombineOp)
