//===- ChunkedScanLowering.h - a scan op through the driver -----*- C++ -*-===//
//
// The one rewrite pattern of the four scans: it reads the batch and length
// of the op's first operand ([B, L, ...] for every scan), lets the op's hooks
// class configure the driver, and replaces the op with the driver's loops.
// The sizes the hooks need static are checked first, by
// getLinalgLoweringBlocker (which the pass also reports as errors). The
// backward scans' lowerings share that check (replaceUnlessBlocked), their
// driver spec and the recomputation of the forward's chunk-boundary states.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_CHUNKEDSCANLOWERING_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_CHUNKEDSCANLOWERING_H

#include "MixerToLinalgPatterns.h"
#include "mixer/Target/TargetDescription.h"
#include "mixer/Utils/BuildReplacement.h"
#include "mixer/Utils/ChunkedScan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer {

/// The size of dim `dim` of the ranked tensor `value` (maybe dynamic).
inline int64_t dimSize(Value value, unsigned dim) {
  return cast<RankedTensorType>(value.getType()).getDimSize(dim);
}

/// Whether a tile's `heads` step through each chunk together on `target`
/// (ChunkedScanSpec::headsInner): two up to its head block limit, which is
/// what mixer-tile-parallel-dims leaves in a tile (1 on GPUs: never). The
/// lowerings add what the driver needs besides (no chunk states, one
/// segment).
inline bool headsStepTogether(const TargetDescription &target, int64_t heads) {
  return heads > 1 && heads <= target.scanHeadBlockLimit;
}

/// Whether `value` is read: a use other than a tile's insert into a
/// parallel loop result that is itself unread, or the yield of an scf.if
/// (the run-time checks' guard) whose result is unread.
inline bool isRead(Value value) {
  for (OpOperand &use : value.getUses()) {
    if (auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
        yield && isa<scf::IfOp>(yield->getParentOp())) {
      if (isRead(yield->getParentOp()->getResult(use.getOperandNumber())))
        return true;
      continue;
    }
    auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(use.getOwner());
    auto arg = insert ? dyn_cast<BlockArgument>(insert.getDest()) : nullptr;
    auto forall = arg ? dyn_cast<scf::ForallOp>(arg.getOwner()->getParentOp())
                      : nullptr;
    if (!forall || use.getOperandNumber() != 0)
      return true;
    if (isRead(forall.getTiedOpResult(forall.getTiedOpOperand(arg))))
      return true;
  }
  return false;
}

/// Lowers `Scan::Op` with the hooks class `Scan`, which provides
///   static FailureOr<Scan> match(Scan::Op, PatternRewriter &)
///     (the hooks, read from the op's static sizes; builds no IR), and
///   void configure(ImplicitLocOpBuilder &, ChunkedScanSpec &)
///     (sets the heads, the chunk size and any segments).
template <typename Scan>
struct ChunkedScanLowering : public OpRewritePattern<typename Scan::Op> {
  ChunkedScanLowering(MLIRContext *ctx,
                      std::optional<int64_t> recurrentThreshold)
      : OpRewritePattern<typename Scan::Op>(ctx),
        recurrentThreshold(recurrentThreshold) {}

  LogicalResult matchAndRewrite(typename Scan::Op op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<std::string> blocker = getLinalgLoweringBlocker(op))
      return rewriter.notifyMatchFailure(op, *blocker);
    FailureOr<Scan> scan = Scan::match(op, rewriter);
    if (failed(scan))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ChunkedScanSpec spec;
    spec.batches = tensor::DimOp::create(b, op->getOperand(0), 0);
    spec.length = tensor::DimOp::create(b, op->getOperand(0), 1);
    spec.recurrentThreshold = recurrentThreshold;
    scan->configure(b, spec);
    // The `outs` the boundary states are written into come back last.
    ValueRange outs = op.getOuts();
    outs = outs.drop_back(spec.boundaryDests.size());
    rewriter.replaceOp(op, buildChunkedScan(b, spec, outs, *scan));
    return success();
  }

  std::optional<int64_t> recurrentThreshold;
};

/// replaceWithBuilt<Build> for an op whose lowering needs static sizes:
/// an op with a getLinalgLoweringBlocker reason is left (the pass reports
/// it).
template <auto Build>
LogicalResult replaceUnlessBlocked(decltype(detail::builtOp(Build)) op,
                                   PatternRewriter &rewriter) {
  if (std::optional<std::string> blocker = getLinalgLoweringBlocker(op))
    return rewriter.notifyMatchFailure(op, *blocker);
  return replaceWithBuilt<Build>(op, rewriter);
}

/// The driver's spec of a backward scan over operands [B, L, ...] like
/// `first`: `heads` heads in chunks of `chunkSize`, and no recurrent-only
/// short sequences (every chunk starts from a saved boundary state).
inline ChunkedScanSpec backwardScanSpec(ImplicitLocOpBuilder &b, Value first,
                                        int64_t heads, int64_t chunkSize) {
  ChunkedScanSpec spec;
  spec.batches = tensor::DimOp::create(b, first, 0);
  spec.length = tensor::DimOp::create(b, first, 1);
  spec.heads = arith::ConstantIndexOp::create(b, heads);
  spec.chunkSize = chunkSize;
  spec.recurrentThreshold = std::nullopt;
  return spec;
}

/// The forward's states [stateShape] at the chunk boundaries of `spec`,
/// for a backward op that did not get them saved: the forward scan's hooks
/// `forward`, run without output.
inline Value forwardBoundaryStates(ImplicitLocOpBuilder &b,
                                   const ChunkedScanSpec &spec,
                                   ChunkedScanHooks &forward,
                                   ArrayRef<int64_t> stateShape) {
  ChunkedScanSpec fwdSpec = spec;
  fwdSpec.steppedOuts = 0;
  fwdSpec.boundaryStates = {RankedTensorType::get(stateShape, b.getF32Type())};
  return buildChunkedScan(b, fwdSpec, ValueRange{}, forward)[0];
}

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_CHUNKEDSCANLOWERING_H
