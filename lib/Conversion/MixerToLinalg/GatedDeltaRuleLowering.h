//===- GatedDeltaRuleLowering.h - the delta rule's building blocks -*- C++ -*-===//
//
// The forward lowering of mixer.gated_delta_rule as chunked-scan hooks, and
// the pieces it is made of, which the backward lowering reuses: the
// recurrent form's state update (S_t = a S + k w^T with
// w = beta (v - a S^T k)), the chunk's WY factors (the effective values U'
// of the chunk, solving a unit lower-triangular system) and the
// substitution that solves it.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_GATEDDELTARULELOWERING_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_GATEDDELTARULELOWERING_H

#include "mixer/Utils/ChunkedScan.h"
#include "mixer/Utils/LinalgBuilder.h"

namespace mlir::mixer {

/// w = beta (v - gate kS) for one token's v and kS = S^T k [Dv] and the f32
/// scalars gate = exp(g) and beta.
Value buildDeltaRuleWrite(LinalgBuilder &lb, Value vt, Value kS, Value gate,
                          Value beta);

/// S = gate S + k w^T in place, for S [Dk, Dv], k [Dk] and w [Dv].
Value buildDeltaRuleUpdate(LinalgBuilder &lb, Value st, Value k, Value w,
                           Value gate);

/// Solves (I + A) X = X in place for A [C, C] strictly lower triangular by
/// forward substitution (rows from the first), or, with `lastRowFirst`, for
/// A strictly upper triangular by back substitution (rows from the last).
/// With `block` (> 0: CPUs), row by row in static ops, each over just the
/// rows solved before it, and where C is a larger multiple of `block` in
/// diagonal blocks of that many rows whose coupling to the rows still
/// unsolved is one contraction each; without, or where C is larger and not
/// a multiple, in a loop over the rows.
Value substitute(LinalgBuilder &lb, Value A, Value X, int64_t C, int64_t D,
                 int64_t block = 0, bool lastRowFirst = false);


/// The array operands and sizes of a gated delta rule (forward or
/// backward); init is null when absent.
struct GatedDeltaRuleOperands {
  Value q, k, v, g, beta, init;
  int64_t H, Dk, Dv, C;
  double scale;
  /// Rows per block of the chunks' triangular work (the target's
  /// triangularBlockRows; 0: whole).
  int64_t triangularBlock = 0;
};

/// The WY factors of one full chunk of C tokens entering with state S0
/// (gam_t = exp(cum_t), cum the prefix sums of g in the chunk, in f64):
///   A[t, j] = beta_t (k_t . k_j) gam_t / gam_j  (j < t)
///   (I + A) U' = diag(beta) V - diag(beta gam) K S0
/// so that S_t = a_t S_{t-1} + k_t u'_t^T.
struct DeltaRuleChunk {
  Value K, Q, V, beta; // [C, Dk], [C, Dk] (null without output), [C, Dv], [C]
  Value cum, cumLast;  // f64 [C] and scalar
  Value Kt;            // K^T [Dk, C]
  Value decay;         // gam_t / gam_j for j <= t, 0 above [C, C], or null
  Value KK;            // K K^T [C, C]
  Value QKt;           // (Q K^T)^T [C, C] (stackScores), or null
  Value A;             // [C, C]
  Value betaGam;       // beta gam [C]
  Value Kb;            // diag(beta gam) K [C, Dk] (keepScaledKeys), or null
  Value U;             // U' [C, Dv]
};

/// The math of mixer.gated_delta_rule for the chunked-scan driver, per
/// (batch, head) with the state S [Dk, Dv] in its natural layout. With
/// `withOutput` the steps write o (outs: o, final state); without, they only
/// advance the state (outs: none), for the backward's chunk-boundary states.
class GatedDeltaRuleHooks : public OneStateScanHooks {
public:
  GatedDeltaRuleHooks(const GatedDeltaRuleOperands &ops, bool withOutput)
      : OneStateScanHooks(ops.init, /*finalStateOut=*/1), ops(ops),
        withOutput(withOutput) {}

  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override;
  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override;

  // Building blocks, at the (batch, head) set by setHead.

  /// The WY factors of the full chunk at t0 entering with state `S0`; with
  /// `shareDecays`, the decay matrix is formed once for every mask (the
  /// backward's four, the CPU forward's two), else each mask takes its own
  /// exps (the GPU forward's two: fewer live temporaries in its kernel).
  /// With `stackScores` (and output), K K^T and (Q K^T)^T come from one
  /// product K [K; Q]^T [C, 2C] (f.QKt set, f.Kt null).
  DeltaRuleChunk chunkFactors(LinalgBuilder &lb, Value t0, Value S0,
                              bool shareDecays = false) const;
  /// The decays between tokens of the chunk, exp(cum[t] - cum[j]) for
  /// j <= t and 0 above [C, C]: one exp per pair, shared by every mask.
  Value decays(LinalgBuilder &lb, Value cum) const;
  /// scores[t, j] * exp(cum[t] - cum[j]) (f.decay when formed; times
  /// rowFactor[t] when given), masked to j < t (strict) or j <= t, in
  /// place.
  /// With `block`, only the row blocks up to the diagonal (as
  /// LinalgBuilder::mapLowerBlocks): `scores` must be 0 above them.
  Value decayMask(LinalgBuilder &lb, const DeltaRuleChunk &f, Value scores,
                  bool strict, Value rowFactor, int64_t block = 0) const;
  /// exp(cum) [C] (times `factor` when not 1), in f32.
  Value gammas(LinalgBuilder &lb, Value cum, double factor) const;
  /// exp(cumLast - cum) [C]: the decay from each token to the chunk's end.
  Value decaysToEnd(LinalgBuilder &lb, Value cum, Value cumLast) const;
  /// M = scale (Q K^T) * Gam [C, C], Gam[t, j] = gam_t / gam_j for j <= t
  /// (0 above): O = diag(scale gam) Q S0 + M U'. M^T where f.QKt is set.
  Value scores(LinalgBuilder &lb, const DeltaRuleChunk &f) const;
  /// diag(scale gam) Q [C, Dk], a chunk buffer read from the queries (f.Q
  /// is their slice of the time-major input).
  Value scaledQueries(LinalgBuilder &lb, const DeltaRuleChunk &f) const;
  /// Kw = diag(gam_last / gam) K [C, Dk], in place of f.K (the forward's
  /// last use): S = gam_last S0 + Kw^T U'.
  Value keysToEnd(LinalgBuilder &lb, const DeltaRuleChunk &f) const;
  /// The (batch, head)'s state [Dk, Dv] in an init or final state.
  StateSlice stateSlice(OpBuilder &b) const override;

  GatedDeltaRuleOperands ops;
  /// Whether the chunks form K K^T and Q K^T in one product (set where the
  /// chunk is one triangular block and its rows are narrower than a
  /// vector; the backward's recomputed factors keep them apart).
  bool stackScores = false;
  /// Whether chunkFactors forms f.Kb = diag(beta gam) K, for the backward's
  /// chunks, which read it; otherwise the right-hand side scales K S0 by
  /// beta gam in the pass that forms it, one pass over K fewer (forward
  /// scans: 1.01-1.03x as fast, gdr at D = 64, AVX-512 code; 1.00-1.02x
  /// AVX2 code).
  bool keepScaledKeys = false;

private:
  bool withOutput;
};

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_GATEDDELTARULELOWERING_H
