//===- ChunkedScan.h - the chunk-then-tail driver of the scans --*- C++ -*-===//
//
// The linalg lowerings of the scans (ssd, gated_delta_rule,
// linear_attention, selective_scan) share one skeleton: a scf.for nest over
// (batch, head) -- channel blocks for selective_scan -- that threads the
// op's `outs`, and per head the initial states, a scf.for over the full
// chunks (the chunked form), a scf.for over the remaining tokens (the
// recurrent form) and the write of the final states. The driver builds that
// skeleton; each op supplies its math as the hooks of a ChunkedScanHooks.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_UTILS_CHUNKEDSCAN_H
#define MIXER_UTILS_CHUNKEDSCAN_H

#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::mixer {

/// The values carried from step to step of one (batch, head).
struct ScanCarry {
  /// The `outs` the steps write (the leading `steppedOuts` of the op's).
  SmallVector<Value> outs;
  /// The recurrent states, any number of them.
  SmallVector<Value> states;
};

/// The math of one scan. For each (batch, head) the driver calls `init`,
/// then the steps in scan order, then `finalize`; every hook builds at the
/// insertion point of `lb` and updates what it is given in place.
class ChunkedScanHooks {
public:
  virtual ~ChunkedScanHooks();

  /// Starts the (batch, head) `batch`, `head` (the driver sets them first):
  /// keeps the slices and indices its steps share, and pushes the initial
  /// states (a fresh copy of the op's init, or zeros) onto `carry.states`.
  virtual void init(LinalgBuilder &lb, ScanCarry &carry) = 0;
  /// The chunked form on the full chunk of tokens [t0, t0 + chunkSize) of
  /// segment `segment`.
  virtual void chunkStep(LinalgBuilder &lb, unsigned segment, Value t0,
                         ScanCarry &carry) = 0;
  /// With ChunkedScanSpec::headsInner: builds, before the heads' steps on
  /// the full chunk at `t0`, the values they share (kept for chunkStep,
  /// which is built inside the heads' loop).
  virtual void chunkShared(LinalgBuilder &lb, unsigned segment, Value t0) {}
  /// The recurrent form on token `t` of segment `segment`.
  virtual void tokenStep(LinalgBuilder &lb, unsigned segment, Value t,
                         ScanCarry &carry) = 0;
  /// With ChunkedScanSpec::paddedTail: the tail tokens [t0, t0 + count)
  /// (0 < count < chunkSize) as one chunk step, padded to a full chunk.
  virtual void tailChunkStep(LinalgBuilder &lb, unsigned segment, Value t0,
                             Value count, ScanCarry &carry);
  /// Writes the final `states` of the (batch, head) into the op's `outs`
  /// (all of them, the stepped ones already updated).
  virtual void finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                        MutableArrayRef<Value> outs) = 0;

  /// Sets the indices of the (batch, head) being built.
  void setHead(Value batchIv, Value headIv) {
    batch = batchIv;
    head = headIv;
  }

  /// Whether the chunks these hooks build are walked from the last (a
  /// reverse scan reusing a forward's hooks): the chunk prefetched is then
  /// the one before.
  bool chunksFromLast = false;

protected:
  /// The tokens [t, t + count) of the (batch, head) being built in a
  /// time-major operand `x`, [B, L, H, D] or [B, L, H] (at `index` in place
  /// of the head when given: a group), with unit dims dropped to `shape`.
  Value tokensOf(LinalgBuilder &lb, Value x, Value t, int64_t count,
                 ArrayRef<int64_t> shape, Value index = {}) const;
  /// `tile` written into those tokens of `dest`.
  Value insertTokens(LinalgBuilder &lb, Value tile, Value dest, Value t,
                     int64_t count, Value index = {}) const;
  /// tokensOf(x, t, count) copied into a local buffer by a copy that also
  /// prefetches the same rows of the next chunk the scan builds into L2.
  /// Time-major rows are strided by the heads, which the hardware prefetchers
  /// do not follow; so the next chunk's stream in while this one computes.
  Value copyChunkTokens(LinalgBuilder &lb, Value x, Value t, int64_t count,
                        ArrayRef<int64_t> shape) const;
  /// `tile` written into the tokens [t, t + count) of `dest` by a copy that
  /// also prefetches the next chunk's rows of `dest` for writing.
  Value writeChunkTokens(LinalgBuilder &lb, Value tile, Value dest, Value t,
                         int64_t count) const;
  /// The rows from a chunk of `count` tokens to the next one the scan
  /// builds: `count`, or -`count` with chunksFromLast.
  int64_t nextChunkRows(int64_t count) const {
    return chunksFromLast ? -count : count;
  }

  /// The indices of the (batch, head) being built.
  Value batch, head;
};

/// A range of tokens [begin, end) scanned as full chunks then a tail.
struct ScanSegment {
  Value begin, end;
};

/// How the driver splits and orders the tokens.
struct ChunkedScanSpec {
  /// Extents of the (batch, head) loop nest.
  Value batches, heads;
  /// Tokens in the sequence.
  Value length;
  int64_t chunkSize = 1;
  /// Sequences of at most this many tokens (decode, short prompts) use the
  /// token step only; none: full chunks whatever the length.
  std::optional<int64_t> recurrentThreshold;
  /// The token ranges scanned one after the other, each with its own full
  /// chunks and tail; empty means the one segment [0, length).
  SmallVector<ScanSegment> segments;
  /// How many leading `outs` the steps write (carried through the chunk
  /// and token loops); the others only `finalize` writes.
  unsigned steppedOuts = 1;
  /// Runs a segment's tail (when not empty) as one chunk step,
  /// ChunkedScanHooks::tailChunkStep, instead of token by token.
  bool paddedTail = false;
  /// Scans from the last token to the first: segments from last to first,
  /// and in each the tail tokens (from last to first) before the full
  /// chunks (from last to first). The backward pass needs it.
  bool reverse = false;
  /// Loops over the heads inside the loop over the full chunks, so that
  /// what a chunk's heads share (ChunkedScanHooks::chunkShared) is built
  /// once per chunk and its inputs are read while they are in cache: per
  /// batch entry, `init` for every head, then per full chunk `chunkShared`
  /// and the heads' chunk steps, then per head its tail and `finalize`. The
  /// states of the heads are carried stacked, [heads, state dims...]. Needs
  /// a constant `heads`; not with `reverse`, `paddedTail`, segments or
  /// boundary states.
  bool headsInner = false;
  /// When not empty, the driver also returns the states at the chunk
  /// boundaries, one tensor per carried state whose type is listed here:
  /// [batches, heads, fullChunks + 1, state dims...]. Row c holds the state
  /// at token c * chunkSize (the last row: where the tail starts), having
  /// scanned the tokens before it, or in reverse the tokens from it on. Only
  /// with a single segment.
  SmallVector<RankedTensorType> boundaryStates;
  /// Where the boundary states are written (an op's `outs`, of the shape
  /// above), one per entry of boundaryStates; empty: new tensors.
  SmallVector<Value> boundaryDests;
};

/// Builds the scan of `spec` over the op's `outs` with `hooks`; returns the
/// updated `outs`, followed by the boundary-state tensors when requested.
SmallVector<Value> buildChunkedScan(ImplicitLocOpBuilder &b,
                                    const ChunkedScanSpec &spec,
                                    ValueRange outs, ChunkedScanHooks &hooks);

/// Where one (batch, head)'s state lies in the op's init and final state
/// ([..., rows, cols]): at `offsets`, one element in every leading dim. The
/// steps carry it as [rows, cols], or as [cols, rows] when `transposed`.
struct StateSlice {
  SmallVector<OpFoldResult> offsets;
  int64_t rows, cols;
  bool transposed = false;
};

/// The state a (batch, head) starts from, as a fresh tensor that the steps
/// may update in place: its slice of the op's `init`, or zeros when the op
/// has none.
Value initialState(LinalgBuilder &lb, Value init, const StateSlice &slice);

/// The final `state` of a (batch, head) inserted into its slice of `dest`.
Value insertFinalState(LinalgBuilder &lb, Value state, Value dest,
                       const StateSlice &slice);

/// The hooks of a scan that carries one state, stored in the op's tensors
/// where stateSlice says: each (batch, head) starts from its slice of the
/// op's `stateSource` (its init, or the gradient of its final state; zeros
/// when null) and, when the driver is given outs[finalStateOut] (the op's
/// final state, or the gradient of its init, when it has one), ends there.
class OneStateScanHooks : public ChunkedScanHooks {
public:
  void init(LinalgBuilder &lb, ScanCarry &carry) override;
  void finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                MutableArrayRef<Value> outs) override;

  /// Where the state of the (batch, head) being built lies.
  virtual StateSlice stateSlice(OpBuilder &b) const = 0;

protected:
  OneStateScanHooks(Value stateSource, unsigned finalStateOut)
      : stateSource(stateSource), finalStateOut(finalStateOut) {}
  /// Keeps what the steps of the (batch, head) share, before init reads
  /// its state.
  virtual void startHead(LinalgBuilder &lb) {}

private:
  Value stateSource;
  unsigned finalStateOut;
};

/// Row `row` of (batch, head) in chunk-boundary states laid out as the
/// driver writes them ([batches, heads, C, rows, cols], see
/// ChunkedScanSpec::boundaryStates): the [rows, cols] state there.
Value boundaryStateAt(LinalgBuilder &lb, Value states, Value batch, Value head,
                      Value row, int64_t rows, int64_t cols);

} // namespace mlir::mixer

#endif // MIXER_UTILS_CHUNKEDSCAN_H
