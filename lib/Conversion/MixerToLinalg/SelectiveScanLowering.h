//===- SelectiveScanLowering.h - the selective scan's building blocks -*- C++ -*-===//
//
// The forward lowering of mixer.selective_scan as chunked-scan hooks, and
// the per-block steps it is made of (step sizes, the state update, the
// output gate), which the backward lowering reuses: it runs these hooks
// (without output) to record the chunk-boundary states, then recomputes
// each chunk's states with the same state update.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_SELECTIVESCANLOWERING_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_SELECTIVESCANLOWERING_H

#include "mixer/Utils/ChunkedScan.h"
#include "mixer/Utils/LinalgBuilder.h"

namespace mlir::mixer {

/// The array operands of a selective scan (forward or backward); the
/// optional ones are null when absent.
struct SelectiveScanOperands {
  Value u, delta, A, b, c, dSkip, z, deltaBias, init;
  bool softplus = false;
};

/// softplus(x) = log1p(exp(x)), and x itself above this argument (where exp
/// would overflow the sum's precision anyway).
constexpr double kSoftplusLimit = 20.0;

/// sigmoid(x) = 1 / (1 + exp(-x)) of a f32 scalar.
Value buildSigmoid(ImplicitLocOpBuilder &b, Value x);
/// silu(x) = x / (1 + exp(-x)) of a f32 scalar.
Value buildSilu(ImplicitLocOpBuilder &b, Value x);

/// The math of mixer.selective_scan for the chunked-scan driver: the
/// "heads" are the blocks of Db channels (inside one group), the "chunks"
/// blocks of T tokens, and the state is carried transposed as hT [N, Db] so
/// that every step is vectorized along the channels. With `withOutput` the
/// steps write y (outs: y, final state); without, they only advance the
/// state (outs: none), for the backward's chunk-boundary states.
class SelectiveScanHooks : public OneStateScanHooks {
public:
  SelectiveScanHooks(const SelectiveScanOperands &ops, int64_t D, int64_t G,
                     int64_t N, int64_t T, int64_t Db, bool withOutput)
      : OneStateScanHooks(ops.init, /*finalStateOut=*/1), ops(ops), D(D), N(N),
        T(T), perGroup(D / G), Db(Db), withOutput(withOutput) {}

  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override {
    tokenBlock(lb, T, t0, carry);
  }
  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override {
    tokenBlock(lb, 1, t, carry);
  }

  /// The channel blocks: the driver's heads.
  int64_t numBlocks() const { return D / Db; }

  // Building blocks, at the block set by setHead and startBlock.

  /// Keeps the block's first channel, group and slices of A, delta_bias and
  /// D_skip.
  void startBlock(LinalgBuilder &lb);
  /// The rows [t0, t0 + T) of the block's channels of a [B, L, D] operand:
  /// [T, Db].
  Value rows(LinalgBuilder &lb, Value x, int64_t T, Value t0) const;
  /// The rows [t0, t0 + T) of the block's group of a [B, L, G, N] operand:
  /// [T, N].
  Value groupRows(LinalgBuilder &lb, Value x, int64_t T, Value t0) const;
  /// dt = softplus(delta + delta_bias) (as the op asks) of `deltaRows`.
  Value stepSizes(LinalgBuilder &lb, Value deltaRows) const;
  /// x * y elementwise, into a new tensor.
  Value product(LinalgBuilder &lb, Value x, Value y) const;
  /// hT = exp(At * dt) hT + b du^T in place, for one token's dt, du [Db]
  /// and b [N].
  Value advance(LinalgBuilder &lb, Value hT, Value dt, Value du,
                Value bi) const;
  /// The same in two steps, for the backward, which reuses the decays:
  /// exp(At * dt) [N, Db] into `dest`, then hT = decay * hT + b du^T in
  /// place.
  Value decays(LinalgBuilder &lb, Value dt, Value dest) const;
  Value advanceDecayed(LinalgBuilder &lb, Value hT, Value decay, Value du,
                       Value bi) const;
  /// The block's state [Db, N] in an init or final state [B, D, N].
  StateSlice stateSlice(OpBuilder &b) const override;

  Value getBatch() const { return batch; }
  Value getHead() const { return head; }

  SelectiveScanOperands ops;
  int64_t D, N, T, perGroup, Db;
  // Of the current block.
  Value At;          // [N, Db]
  Value bias, dSkip; // [Db], null when absent
  Value d0, group;

private:
  void startHead(LinalgBuilder &lb) override { startBlock(lb); }
  /// The tokens t0 .. t0 + T - 1 of the channel block.
  void tokenBlock(LinalgBuilder &lb, int64_t T, Value t0, ScanCarry &carry);

  bool withOutput;
};

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_SELECTIVESCANLOWERING_H
