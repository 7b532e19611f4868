//===- ScanVjp.cpp - vector-Jacobian products of the scan ops -------------===//
//
// DifferentiableOpInterface of ssd, selective_scan, linear_attention and
// gated_delta_rule: each builds the op's backward op.
//
//===----------------------------------------------------------------------===//

#include "VjpUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// ssd and linear_attention
//===----------------------------------------------------------------------===//

/// The backward op's `outs`: one new tensor like each differentiable input.
static SmallVector<Value> gradientOuts(OpBuilder &builder, Location loc,
                                       ArrayRef<Value> inputs) {
  SmallVector<Value> outs;
  for (Value input : inputs)
    if (input)
      outs.push_back(emptyLike(builder, loc, input));
  return outs;
}

/// One value per operand of `op`: the gradients of the present inputs in
/// order, then null for each `outs` operand.
static SmallVector<Value> perOperand(ValueRange grads, unsigned numOuts) {
  SmallVector<Value> result(grads.begin(), grads.end());
  result.append(numOuts, Value());
  return result;
}

/// A new [B, H, L / chunk + 1, rows, cols] f32 tensor for the chunk states
/// of a scan over `seq` ([B, L, H, ...]).
static Value emptyChunkStates(OpBuilder &builder, Location loc, Value seq,
                              int64_t chunk, OpFoldResult rows,
                              OpFoldResult cols) {
  int64_t length = cast<RankedTensorType>(seq.getType()).getDimSize(1);
  OpFoldResult count = builder.getIndexAttr(length / chunk + 1);
  if (ShapedType::isDynamic(length))
    count = arith::AddIOp::create(
                builder, loc,
                arith::DivUIOp::create(
                    builder, loc, tensor::DimOp::create(builder, loc, seq, 1),
                    arith::ConstantIndexOp::create(builder, loc, chunk)),
                arith::ConstantIndexOp::create(builder, loc, 1))
                .getResult();
  SmallVector<OpFoldResult> sizes = {
      tensor::getMixedSize(builder, loc, seq, 0),
      tensor::getMixedSize(builder, loc, seq, 2), count, rows, cols};
  return tensor::EmptyOp::create(builder, loc, sizes, builder.getF32Type());
}

/// The forward `op` in the form that also returns its chunk-boundary
/// states (the residual of the backward), replacing `op`'s uses; `op`
/// itself when it returns them already. Built where `op` is.
static SsdOp withChunkStates(OpBuilder &builder, SsdOp op) {
  if (op.getChunkStates())
    return op;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value x = op.getX();
  // [B, H, L / chunk_size + 1, N, P].
  Value statesOut = emptyChunkStates(
      builder, loc, x, op.getChunkSize(),
      tensor::getMixedSize(builder, loc, op.getB(), 3),
      tensor::getMixedSize(builder, loc, x, 3));
  ValueRange outs = op.getOuts();
  auto saving = SsdOp::create(builder, loc, x, op.getLogA(), op.getB(),
                              op.getC(), op.getInit(), outs[0], outs[1],
                              op.getChunkSize(), statesOut);
  op.getY().replaceAllUsesWith(saving.getY());
  op.getFinalState().replaceAllUsesWith(saving.getFinalState());
  return saving;
}

/// The same for linear_attention ([B, H, L / chunk_size + 1, Dk, Dv]).
static LinearAttentionOp withChunkStates(OpBuilder &builder,
                                         LinearAttentionOp op) {
  if (op.getChunkStates())
    return op;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value statesOut = emptyChunkStates(
      builder, loc, op.getQ(), op.getChunkSize(),
      tensor::getMixedSize(builder, loc, op.getQ(), 3),
      tensor::getMixedSize(builder, loc, op.getV(), 3));
  ValueRange outs = op.getOuts();
  auto saving = LinearAttentionOp::create(
      builder, loc, op.getQ(), op.getK(), op.getV(), op.getLogDecay(),
      op.getInit(), outs[0], outs[1], op.getChunkSize(), op.getWindow(),
      op.getScale().convertToFloat(), statesOut);
  op.getO().replaceAllUsesWith(saving.getO());
  op.getFinalState().replaceAllUsesWith(saving.getFinalState());
  return saving;
}

/// Switches the forward to the form that saves its chunk states (the
/// original op is left without uses) and reads them in the backward, so
/// that the backward does not recompute the forward's state passing.
static FailureOr<SmallVector<Value>> ssdVjp(SsdOp op, OpBuilder &builder,
                                            ArrayRef<Value> cotangents) {
  Location loc = op.getLoc();
  SsdOp saving = withChunkStates(builder, op);
  SmallVector<Value> outs = gradientOuts(
      builder, loc,
      {op.getX(), op.getLogA(), op.getB(), op.getC(), op.getInit()});
  auto backward = SsdBackwardOp::create(builder, loc, op.getX(), op.getLogA(),
                                        op.getB(), op.getC(), op.getInit(),
                                        saving.getChunkStates(), cotangents[0],
                                        cotangents[1], outs, op.getChunkSize());
  return perOperand(backward.getGrads(), op.getOuts().size());
}

static FailureOr<SmallVector<Value>>
linearAttentionVjp(LinearAttentionOp op, OpBuilder &builder,
                   ArrayRef<Value> cotangents) {
  Location loc = op.getLoc();
  // Only window 0 has chunk states; with a window the backward recomputes
  // them.
  Value chunkStates;
  if (op.getWindow() == 0)
    chunkStates = withChunkStates(builder, op).getChunkStates();
  SmallVector<Value> outs = gradientOuts(
      builder, loc,
      {op.getQ(), op.getK(), op.getV(), op.getLogDecay(), op.getInit()});
  auto backward = LinearAttentionBackwardOp::create(
      builder, loc, op.getQ(), op.getK(), op.getV(), op.getLogDecay(),
      op.getInit(), cotangents[0], cotangents[1], outs, op.getChunkSize(),
      op.getWindow(), op.getScale().convertToFloat(), chunkStates);
  return perOperand(backward.getGrads(), op.getOuts().size());
}

//===----------------------------------------------------------------------===//
// Recurrent scans: selective_scan
//===----------------------------------------------------------------------===//

/// Tokens per chunk of the backward's reverse scan: the CPU target's time
/// block, which bounds its chunk temporaries ([chunk + 1, N, channel block])
/// and sets the boundary states to L / chunk + 1 per channel.
static constexpr int64_t kRecurrentBackwardChunk = 16;

/// A tensor.empty of the sizes `dims` of `values` (pairs of value and dim).
static Value emptyOfDims(OpBuilder &b, Location loc,
                         ArrayRef<std::pair<Value, int64_t>> dims) {
  SmallVector<OpFoldResult> sizes;
  for (auto [value, dim] : dims)
    sizes.push_back(tensor::getMixedSize(b, loc, value, dim));
  return tensor::EmptyOp::create(b, loc, sizes, b.getF32Type());
}

/// The sum over dim 0 (the batch) of `perBatch`.
static Value sumOverBatch(OpBuilder &b, Location loc, Value perBatch) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, perBatch);
  sizes.erase(sizes.begin());
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  Value init =
      linalg::FillOp::create(
          b, loc, zero,
          ValueRange{tensor::EmptyOp::create(b, loc, sizes, b.getF32Type())})
          .getResult(0);
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{perBatch}, ValueRange{init}, ArrayRef<int64_t>{0},
      [](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(
            nb, nl,
            ValueRange{arith::AddFOp::create(nb, nl, args[0], args[1])});
      });
  return reduce.getResult(0);
}

static FailureOr<SmallVector<Value>>
selectiveScanVjp(SelectiveScanOp op, OpBuilder &b, ArrayRef<Value> cotangents) {
  Location loc = op.getLoc();
  Value u = op.getU(), A = op.getA();
  // One destination per gradient, in the backward op's result order; the
  // batch-shared parameters' gradients come per batch element.
  SmallVector<Value> outs = {
      emptyLike(b, loc, u), emptyLike(b, loc, op.getDelta()),
      emptyOfDims(b, loc, {{u, 0}, {A, 0}, {A, 1}}),
      emptyLike(b, loc, op.getB()), emptyLike(b, loc, op.getC())};
  if (op.getDSkip())
    outs.push_back(emptyOfDims(b, loc, {{u, 0}, {u, 2}}));
  if (op.getZ())
    outs.push_back(emptyLike(b, loc, op.getZ()));
  if (op.getDeltaBias())
    outs.push_back(emptyOfDims(b, loc, {{u, 0}, {u, 2}}));
  if (op.getInit())
    outs.push_back(emptyLike(b, loc, op.getInit()));
  auto backward = SelectiveScanBackwardOp::create(
      b, loc, u, op.getDelta(), A, op.getB(), op.getC(), op.getDSkip(),
      op.getZ(), op.getDeltaBias(), op.getInit(), cotangents[0], cotangents[1],
      /*chunkStates=*/Value(), outs, kRecurrentBackwardChunk,
      op.getDeltaSoftplus());

  // Operand order: u, delta, A, b, c, then the optional ones present, then
  // the outs (no cotangent).
  ResultRange grads = backward.getResults();
  SmallVector<Value> result = {
      grads[0], grads[1], sumOverBatch(b, loc, grads[2]), grads[3], grads[4]};
  unsigned next = 5;
  if (op.getDSkip())
    result.push_back(sumOverBatch(b, loc, grads[next++]));
  if (op.getZ())
    result.push_back(grads[next++]);
  if (op.getDeltaBias())
    result.push_back(sumOverBatch(b, loc, grads[next++]));
  if (op.getInit())
    result.push_back(grads[next++]);
  return perOperand(result, op.getOuts().size());
}

//===----------------------------------------------------------------------===//
// Recurrent scans: gated_delta_rule
//===----------------------------------------------------------------------===//

static FailureOr<SmallVector<Value>>
gatedDeltaRuleVjp(GatedDeltaRuleOp op, OpBuilder &b,
                  ArrayRef<Value> cotangents) {
  Location loc = op.getLoc();
  SmallVector<Value> outs = gradientOuts(
      b, loc,
      {op.getQ(), op.getK(), op.getV(), op.getG(), op.getBeta(), op.getInit()});
  auto backward = GatedDeltaRuleBackwardOp::create(
      b, loc, op.getQ(), op.getK(), op.getV(), op.getG(), op.getBeta(),
      op.getInit(), cotangents[0], cotangents[1], /*chunkStates=*/Value(), outs,
      op.getChunkSize(), op.getScale().convertToFloat());
  // Operand order: q, k, v, g, beta, init (when present), then the outs.
  return perOperand(backward.getResults(), op.getOuts().size());
}

void mlir::mixer::attachScanVjpModels(MLIRContext &context) {
  SsdOp::attachInterface<VjpModel<SsdOp, ssdVjp>>(context);
  LinearAttentionOp::attachInterface<
      VjpModel<LinearAttentionOp, linearAttentionVjp>>(context);
  SelectiveScanOp::attachInterface<VjpModel<SelectiveScanOp, selectiveScanVjp>>(
      context);
  GatedDeltaRuleOp::attachInterface<
      VjpModel<GatedDeltaRuleOp, gatedDeltaRuleVjp>>(context);
}
