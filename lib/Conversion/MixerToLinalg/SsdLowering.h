//===- SsdLowering.h - the chunked SSD of forward and backward -*- C++ -*-===//
//
// The pieces of the chunked SSD (SsdToLinalg.cpp) that the backward
// (SsdBackwardToLinalg.cpp) reuses: the hooks of the forward scan, which
// can also run as the state passing alone (the chunk-boundary states the
// backward starts from), and the per-chunk products of decays and scores.
// States are carried transposed, St [N, P].
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_SSDLOWERING_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_SSDLOWERING_H

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Utils/ChunkedScan.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer {

/// The inputs of an ssd scan and its static sizes.
struct SsdInputs {
  Value x, logA, b, c, init; // init may be null
  int64_t H, P, G, N, Q;

  /// Reads the sizes from the operands ([B, L, H, P] and [B, L, G, N]).
  static SsdInputs of(Value x, Value logA, Value b, Value c, Value init,
                      int64_t chunkSize);
  int64_t headsPerGroup() const { return H / G; }
  /// The group read by `head`.
  Value groupOf(ImplicitLocOpBuilder &b, Value head) const;
  /// The state [P, N] of (batch, head) in an init or final state, carried
  /// transposed as St [N, P].
  StateSlice stateOf(OpBuilder &b, Value batch, Value head) const;
};

/// The decays of a chunk of n tokens from its log-decays A [n]: the
/// inclusive prefix sums (f64: segment sums keep f32 accuracy) and their
/// total, from which L[t, s] = exp(cum[t] - cum[s]) for s <= t, else 0,
/// is evaluated where it multiplies (decayedScores), never stored.
struct SsdChunkDecays {
  Value cumLast, cum;
  /// [n]: exp(cum[t]) and exp(cumLast - cum[t]), one exp per token that
  /// every row scaling below reuses.
  Value startFactors, endFactors;
  static SsdChunkDecays of(LinalgBuilder &lb, Value A);
  /// G * L for a [n, n] G (the scores from Cc Bc^T, the gradient of Cc Bc^T
  /// from that of the scores), in one pass without L: the decays are
  /// evaluated where they are multiplied; in row blocks up to the diagonal
  /// as L.
  Value decayedScores(LinalgBuilder &lb, Value G,
                      int64_t triangularBlock = 0) const;
  /// rows[t, :] * exp(cum[t]): decayed from the chunk's start to t.
  Value fromStart(LinalgBuilder &lb, Value rows) const;
  /// rows[t, :] * exp(cumLast - cum[t]): decayed from t to the chunk's end.
  Value toEnd(LinalgBuilder &lb, Value rows) const;
  /// state * exp(cumLast), in place: decayed over the whole chunk.
  Value overChunk(LinalgBuilder &lb, Value state) const;
};

/// Cc Bc^T of a chunk ([n, n]), the part of the scores that does not depend
/// on the head's decays; with `triangularBlock`, only in row blocks of that
/// many rows up to the diagonal (zeros above it).
Value ssdChunkGram(LinalgBuilder &lb, Value Cc, Value Bc,
                   int64_t triangularBlock = 0);

/// The math of mixer.ssd for the chunked-scan driver. Outs: y (stepped) and
/// the final state; with `withOutput` false the steps pass the state only
/// (no output, and no outs are written).
class SsdScan final : public OneStateScanHooks {
public:
  using Op = SsdOp;
  SsdScan(const SsdInputs &in, bool withOutput)
      : OneStateScanHooks(in.init, /*finalStateOut=*/1), in(in),
        withOutput(withOutput) {}

  /// The forward op's hooks: its output is computed unless neither y nor
  /// the final state has a use (the chunk states alone are wanted).
  static FailureOr<SsdScan> match(SsdOp op, PatternRewriter &rewriter);
  void configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec);

  /// With the heads inside the chunk loop: the chunk's b, c and Cc Bc^T,
  /// once for all the heads (they read one group).
  void chunkShared(LinalgBuilder &lb, unsigned, Value t0) override;
  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override;
  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override;
  StateSlice stateSlice(OpBuilder &b) const override {
    return in.stateOf(b, batch, head);
  }

private:
  SsdInputs in;
  bool withOutput;
  /// The op's chunk_states `outs`, when it returns them.
  Value chunkStatesOut;
  /// Rows per block of the causal products (0: whole).
  int64_t triangularBlock = 0;
  void startHead(LinalgBuilder &lb) override {
    group = in.groupOf(lb.builder(), head);
  }
  /// Whether the heads run inside the chunk loop, sharing chunkShared's
  /// values: they all read one group.
  bool headsInner = false;
  /// The chunk's rows of b and c at t0 (of `group`).
  std::pair<Value, Value> chunkInputs(LinalgBuilder &lb, Value t0) const;

  /// chunkShared's values, for the chunk steps of its heads.
  Value sharedBc, sharedCc, sharedGram;
  Value group; // of the current head
};

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_SSDLOWERING_H
