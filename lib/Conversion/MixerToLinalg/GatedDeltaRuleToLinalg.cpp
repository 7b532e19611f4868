//===- GatedDeltaRuleToLinalg.cpp - gated delta rule in linalg ------------===//
//
// Per (batch, head), with the state S [Dk, Dv] in its natural layout.
//
// Full chunks of C tokens use the WY (UT) form (chunkStep): the effective
// values U' of the chunk solve a unit lower-triangular system (forward
// substitution; on CPUs one static [1, i] x [i, Dv] contraction for row i,
// over the rows solved before it), and the outputs and the next state are
// chunk-level contractions, as in chunked linear attention. C is
// chunk_size, or at most the target's scan_chunk_limit (CPUs: 16 tokens;
// the result does not depend on C), halved down to 8 tokens while the
// chunk's triangular work (K K^T, Q K^T, the solve, the masked scores times
// U': C (2 Dk + 2 Dv) FMAs per token) costs more than a quarter of the
// state's 3 Dk Dv (TargetDescription::scanChunk): the solve's dependent
// rows are latency bound, while state products of 8 rows still fill the
// register tiles. The tail, and sequences of at most recurrent-threshold
// tokens, use the recurrent form (tokenStep). With a = exp(g_t), b = beta_t:
//
//   S_t = a (S - b k (k^T S)) + b k v^T = a S + k w^T,  w = b (v - a S^T k)
//   o_t = scale S_t^T q = scale (a S^T q + (k . q) w)
//
// so that each token reads the old state once for both k^T S and q^T S
// (one [2, Dk] x [Dk, Dv] contraction) and updates it once in place:
//
//   R = [k; q] S                        [2, Dv]
//   w = b (v - a R[0])                  [Dv]
//   o = scale (a R[1] + (k . q) w)      [Dv], written into o
//   S = a S + k w^T                     in place
//
//===----------------------------------------------------------------------===//

#include "ChunkedScanLowering.h"
#include "GatedDeltaRuleLowering.h"
#include "GradientSums.h"
#include "MixerToLinalgPatterns.h"
#include "mixer/Utils/ChunkedScan.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

Value mlir::mixer::buildDeltaRuleWrite(LinalgBuilder &lb, Value vt, Value kS,
                                       Value gate, Value beta) {
  // w = beta (v - gate kS)
  return lb.map({vt, kS}, {lb.dims(1, {0}), lb.dims(1, {0})},
                lb.empty(lb.sizesOf(vt), lb.builder().getF32Type()),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value decayed = arith::MulFOp::create(ib, gate, args[1]);
                  Value diff = arith::SubFOp::create(ib, args[0], decayed);
                  return arith::MulFOp::create(ib, beta, diff).getResult();
                });
}

Value mlir::mixer::buildDeltaRuleUpdate(LinalgBuilder &lb, Value st, Value k,
                                        Value w, Value gate) {
  // S = gate S + k w^T, in place.
  return lb.map({k, w}, {lb.dims(2, {0}), lb.dims(2, {1})}, st,
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value outer = arith::MulFOp::create(ib, args[0], args[1]);
                  Value kept = arith::MulFOp::create(ib, gate, args[2]);
                  return arith::AddFOp::create(ib, kept, outer).getResult();
                });
}

/// The state S [Dk, Dv] of the head, in its natural layout.
StateSlice GatedDeltaRuleHooks::stateSlice(OpBuilder &b) const {
  OpFoldResult zero = b.getIndexAttr(0);
  return {{batch, head, zero, zero}, ops.Dk, ops.Dv};
}

/// Token t.
void GatedDeltaRuleHooks::tokenStep(LinalgBuilder &lb, unsigned, Value t,
                                    ScanCarry &carry) {
  Value st = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  int64_t Dk = ops.Dk, Dv = ops.Dv;
  OpFoldResult one = b.getIndexAttr(1), two = b.getIndexAttr(2),
               zero = b.getIndexAttr(0);
  OpFoldResult dk = b.getIndexAttr(Dk), dv = b.getIndexAttr(Dv);

  Value kt = tokensOf(lb, ops.k, t, 1, {1, Dk});
  Value vt = tokensOf(lb, ops.v, t, 1, {Dv});
  SmallVector<Value> at = {batch, t, head};
  Value gate =
      math::ExpOp::create(b, tensor::ExtractOp::create(b, ops.g, at));
  Value beta = tensor::ExtractOp::create(b, ops.beta, at);
  Value k1 = lb.slice(kt, {zero, zero}, {one, dk}, {Dk});
  if (!withOutput) {
    Value kS = lb.slice(
        lb.contract(kt, st, lb.filled({one, dv}, f32, 0.0), Lhs::RowMajor),
        {zero, zero}, {one, dv}, {Dv});
    carry.states[0] = buildDeltaRuleUpdate(
        lb, st, k1, buildDeltaRuleWrite(lb, vt, kS, gate, beta), gate);
    return;
  }
  Value o = carry.outs[0];
  Value qt = tokensOf(lb, ops.q, t, 1, {1, Dk});

  // R = [k; q] S: both reads of the old state in one contraction.
  Value KQ = lb.empty({two, dk}, f32);
  KQ = lb.insert(kt, KQ, {zero, zero}, {one, dk});
  KQ = lb.insert(qt, KQ, {one, zero}, {one, dk});
  Value R = lb.contract(KQ, st, lb.filled({two, dv}, f32, 0.0), Lhs::RowMajor);
  Value kS = lb.slice(R, {zero, zero}, {one, dv}, {Dv});
  Value qS = lb.slice(R, {one, zero}, {one, dv}, {Dv});

  // k . q
  Value q1 = lb.slice(qt, {zero, zero}, {one, dk}, {Dk});
  Value kqSum =
      lb.sumInto({k1, q1}, {lb.dims(1, {0}), lb.dims(1, {0})},
                 lb.filled({}, f32, 0.0), lb.dims(1, {}), {0}, productOf);
  Value kq = tensor::ExtractOp::create(b, kqSum, ValueRange{});

  Value w = buildDeltaRuleWrite(lb, vt, kS, gate, beta);
  // o = scale (gate qS + (k . q) w), written into its row of o.
  double scaleFactor = ops.scale;
  Value scale = arith::ConstantOp::create(b, b.getF32FloatAttr(scaleFactor));
  Value orow = tokensOf(lb, o, t, 1, {Dv});
  orow = lb.map({qS, w}, {lb.dims(1, {0}), lb.dims(1, {0})}, orow,
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value kept = arith::MulFOp::create(ib, gate, args[0]);
                  Value added = arith::MulFOp::create(ib, kq, args[1]);
                  Value sum = arith::AddFOp::create(ib, kept, added);
                  if (scaleFactor == 1.0)
                    return sum;
                  return Value(arith::MulFOp::create(ib, scale, sum));
                });
  o = insertTokens(lb, orow, o, t, 1);

  st = buildDeltaRuleUpdate(lb, st, k1, w, gate);
  carry.outs[0] = o;
  carry.states[0] = st;
}

/// Solves (I - negA) X = X in place row by row: row i becomes
/// x_i + negA[i, :] X, where only the rows already solved meet nonzeros of
/// negA; each row is a static [1, C] x [C, D] contraction.
static Value substituteByRows(LinalgBuilder &lb, Value negA, Value X,
                              int64_t C, int64_t D, bool lastRowFirst) {
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult c = b.getIndexAttr(C), d = b.getIndexAttr(D);
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value cC = arith::ConstantIndexOp::create(b, C);
  return lb.loop(
      c0, cC, c1, ValueRange{X},
      [&](LinalgBuilder &ilb, Value step,
          ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = ilb.builder();
        Value i = step;
        if (lastRowFirst)
          i = arith::SubIOp::create(
              ib, arith::ConstantIndexOp::create(ib, C - 1), step);
        Value a = ilb.slice(negA, {i, zero}, {one, c}, {1, C});
        Value row =
            ilb.copyToNew(ilb.slice(acc[0], {i, zero}, {one, d}, {1, D}));
        row = ilb.contract(a, acc[0], row, Lhs::RowMajor);
        return {ilb.insert(row, acc[0], {i, zero}, {one, d})};
      })[0];
}

/// The same solve as one static op per row after the first: row i (the
/// step-th solved) becomes x_i + negA[i, solved] X[solved], a [1, step] x
/// [step, D] contraction over just the rows solved before it, read in place.
/// Against the loop's [1, C] x [C, D] rows, the FMA chains are as long as
/// the rows solved (28 steps in all at C = 8, not 64) and the copies go.
static Value substituteByStaticRows(LinalgBuilder &lb, Value negA, Value X,
                                    int64_t C, int64_t D, bool lastRowFirst) {
  ImplicitLocOpBuilder &b = lb.builder();
  auto at = [&](int64_t i) -> OpFoldResult { return b.getIndexAttr(i); };
  for (int64_t step = 1; step < C; ++step) {
    int64_t i = lastRowFirst ? C - 1 - step : step;
    int64_t solved = lastRowFirst ? i + 1 : 0;
    Value a = lb.slice(negA, {at(i), at(solved)}, {at(1), at(step)}, {1, step});
    Value rows = lb.slice(X, {at(solved), at(0)}, {at(step), at(D)}, {step, D});
    Value row = lb.slice(X, {at(i), at(0)}, {at(1), at(D)}, {1, D});
    row = lb.contract(a, rows, row, Lhs::RowMajor);
    X = lb.insert(row, X, {at(i), at(0)}, {at(1), at(D)});
  }
  return X;
}

Value mlir::mixer::substitute(LinalgBuilder &lb, Value A, Value X, int64_t C,
                              int64_t D, int64_t block, bool lastRowFirst) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult c = b.getIndexAttr(C);
  Value negA = lb.map({A}, {lb.dims(2, {0, 1})}, lb.empty({c, c}, f32),
                      [](ImplicitLocOpBuilder &ib, ValueRange args) {
                        return arith::NegFOp::create(ib, args[0]).getResult();
                      });
  // With a block (CPUs) the rows are static ops; without (GPUs, where C
  // may be 64), or with a C past the block that it does not divide, one
  // loop over the rows.
  if (block <= 0 || (C > block && C % block != 0))
    return substituteByRows(lb, negA, X, C, D, lastRowFirst);
  if (C <= block)
    return substituteByStaticRows(lb, negA, X, C, D, lastRowFirst);
  // Block by block in solving order: the block's rows by substitution on
  // its diagonal block of negA, then the rows still unsolved (after it, or
  // before it from the last) take its contribution in one contraction.
  auto at = [&](int64_t i) -> OpFoldResult { return b.getIndexAttr(i); };
  int64_t blocks = C / block;
  for (int64_t step = 0; step < blocks; ++step) {
    int64_t r0 = (lastRowFirst ? blocks - 1 - step : step) * block;
    Value diag =
        lb.slice(negA, {at(r0), at(r0)}, {at(block), at(block)}, {block, block});
    Value rows = lb.slice(X, {at(r0), at(0)}, {at(block), at(D)}, {block, D});
    rows = substituteByStaticRows(lb, diag, rows, block, D, lastRowFirst);
    X = lb.insert(rows, X, {at(r0), at(0)}, {at(block), at(D)});
    int64_t first = lastRowFirst ? 0 : r0 + block;
    int64_t count = lastRowFirst ? r0 : C - r0 - block;
    if (count == 0)
      continue;
    Value coupling = lb.slice(negA, {at(first), at(r0)}, {at(count), at(block)},
                              {count, block});
    Value rest =
        lb.slice(X, {at(first), at(0)}, {at(count), at(D)}, {count, D});
    rest = lb.contract(coupling, rows, rest, Lhs::RowMajor);
    X = lb.insert(rest, X, {at(first), at(0)}, {at(count), at(D)});
  }
  return X;
}

/// exp(x) in f32 of an f64 prefix sum x (or a difference of two).
static Value expOf(ImplicitLocOpBuilder &b, Value x) {
  return math::ExpOp::create(b, arith::TruncFOp::create(b, b.getF32Type(), x));
}

/// gam = exp(cum) (times `factor` when not 1) of one token.
static Value gammaOf(ImplicitLocOpBuilder &b, Value cum, double factor) {
  Value gam = expOf(b, cum);
  if (factor == 1.0)
    return gam;
  return arith::MulFOp::create(
      b, gam, arith::ConstantOp::create(b, b.getF32FloatAttr(factor)));
}

/// exp(cum_last - cum) of one token: its decay to the chunk's end.
static Value decayToEndOf(ImplicitLocOpBuilder &b, Value cumLast, Value cum) {
  return expOf(b, arith::SubFOp::create(b, cumLast, cum));
}

Value GatedDeltaRuleHooks::decays(LinalgBuilder &lb, Value cum) const {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult c = b.getIndexAttr(ops.C);
  return lb.map(
      {cum, cum}, {lb.dims(2, {0}), lb.dims(2, {1})}, lb.empty({c, c}, f32),
      [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        Value t = linalg::IndexOp::create(ib, 0),
              j = linalg::IndexOp::create(ib, 1);
        Value keep =
            arith::CmpIOp::create(ib, arith::CmpIPredicate::ule, j, t);
        Value zeroF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
        return arith::SelectOp::create(
                   ib, keep, expOf(ib, arith::SubFOp::create(ib, args[0], args[1])),
                   zeroF)
            .getResult();
      });
}

Value GatedDeltaRuleHooks::decayMask(LinalgBuilder &lb,
                                     const DeltaRuleChunk &f, Value scores,
                                     bool strict, Value rowFactor,
                                     int64_t block) const {
  using In = LinalgBuilder::TriangleInput;
  SmallVector<In> in;
  if (f.decay)
    in.push_back({f.decay, In::Both});
  else
    in.append({{f.cum, In::Row}, {f.cum, In::Column}});
  if (rowFactor)
    in.push_back({rowFactor, In::Row});
  bool shared = static_cast<bool>(f.decay);
  // The mask of one element; the row and column indices only when needed.
  auto mask = [&](ImplicitLocOpBuilder &ib, ValueRange args,
                  function_ref<std::pair<Value, Value>()> indices) {
    Value decay = args[0];
    if (!shared)
      decay = expOf(ib, arith::SubFOp::create(ib, args[0], args[1]));
    Value x = arith::MulFOp::create(ib, args.back(), decay);
    if (rowFactor)
      x = arith::MulFOp::create(ib, x, args[args.size() - 2]);
    // The shared decays already hold 0 above the diagonal.
    if (shared && !strict)
      return Value(x);
    auto [t, j] = indices();
    Value keep = arith::CmpIOp::create(ib,
                                       strict ? arith::CmpIPredicate::ult
                                              : arith::CmpIPredicate::ule,
                                       j, t);
    Value zeroF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
    return Value(arith::SelectOp::create(ib, keep, x, zeroF));
  };
  if (block > 0)
    return lb.mapLowerBlocks(
        in, scores, block,
        [&](ImplicitLocOpBuilder &ib, Value t, Value j, ValueRange args) {
          return mask(ib, args, [&] { return std::make_pair(t, j); });
        });
  SmallVector<Value> values;
  SmallVector<AffineMap> maps;
  for (const In &input : in) {
    values.push_back(input.value);
    maps.push_back(input.kind == In::Both  ? lb.dims(2, {0, 1})
                   : input.kind == In::Row ? lb.dims(2, {0})
                                           : lb.dims(2, {1}));
  }
  return lb.map(values, maps, scores,
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  return mask(ib, args, [&] {
                    return std::make_pair(
                        Value(linalg::IndexOp::create(ib, 0)),
                        Value(linalg::IndexOp::create(ib, 1)));
                  });
                });
}

Value GatedDeltaRuleHooks::gammas(LinalgBuilder &lb, Value cum,
                                  double factor) const {
  return lb.map({cum}, {lb.dims(1, {0})},
                lb.empty(lb.sizesOf(cum), lb.builder().getF32Type()),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  return gammaOf(ib, args[0], factor);
                });
}

Value GatedDeltaRuleHooks::decaysToEnd(LinalgBuilder &lb, Value cum,
                                       Value cumLast) const {
  return lb.map({cum}, {lb.dims(1, {0})},
                lb.empty(lb.sizesOf(cum), lb.builder().getF32Type()),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  return decayToEndOf(ib, cumLast, args[0]);
                });
}

/// K [K; Q]^T [C, 2C]: both causal scores of the chunk in one product, whose
/// rows fill twice the lanes of either alone (at C = 8, one 16-lane vector
/// where each product's row would be half of one). The left half is K K^T
/// (symmetric), the right half (Q K^T)^T.
static Value stackedScores(LinalgBuilder &lb, Value K, Value Q, int64_t C,
                           int64_t Dk) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult zero = b.getIndexAttr(0), c = b.getIndexAttr(C),
               twoC = b.getIndexAttr(2 * C), dk = b.getIndexAttr(Dk);
  Value KQt = lb.empty({dk, twoC}, f32);
  KQt = lb.insert(lb.transpose(K), KQt, {zero, zero}, {dk, c});
  KQt = lb.insert(lb.transpose(Q), KQt, {zero, c}, {dk, c});
  return lb.contract(K, KQt, lb.filled({c, twoC}, f32, 0.0), Lhs::RowMajor);
}

DeltaRuleChunk GatedDeltaRuleHooks::chunkFactors(LinalgBuilder &lb, Value t0,
                                                 Value S0,
                                                 bool shareDecays) const {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  int64_t C = ops.C, Dk = ops.Dk, Dv = ops.Dv;
  OpFoldResult c = b.getIndexAttr(C), dk = b.getIndexAttr(Dk),
               dv = b.getIndexAttr(Dv);
  DeltaRuleChunk f;
  // The keys' copy in (and the passes over v and q: the right-hand side,
  // the scaled queries) also fetch the next chunk's rows, which the heads'
  // stride hides from the hardware prefetchers. The queries are read in
  // place: their one pass writes the scaled queries' buffer.
  f.K = copyChunkTokens(lb, ops.k, t0, C, {C, Dk});
  if (withOutput)
    f.Q = tokensOf(lb, ops.q, t0, C, {C, Dk});
  f.V = tokensOf(lb, ops.v, t0, C, {C, Dv});
  f.beta = tokensOf(lb, ops.beta, t0, C, {C});
  std::tie(f.cumLast, f.cum) = lb.prefixSumF64(tokensOf(lb, ops.g, t0, C, {C}));
  bool stacked = stackScores && withOutput;
  if (!stacked)
    f.Kt = lb.transpose(f.K);
  if (shareDecays)
    f.decay = decays(lb, f.cum);

  // A = beta_t (K K^T) * decay, strictly lower.
  if (stacked) {
    OpFoldResult zero = b.getIndexAttr(0);
    Value KQ = stackedScores(lb, f.K, f.Q, C, Dk);
    f.KK = lb.slice(KQ, {zero, zero}, {c, c}, {C, C});
    f.QKt = lb.slice(KQ, {zero, c}, {c, c}, {C, C});
  } else {
    f.KK = lb.contractLowerPart(f.K, f.Kt, lb.filled({c, c}, f32, 0.0),
                                ops.triangularBlock);
  }
  f.A = decayMask(lb, f, f.KK, /*strict=*/true, f.beta, ops.triangularBlock);

  // Right-hand side: diag(beta) V - diag(beta gam) K S0.
  f.betaGam = lb.map({f.beta, f.cum}, {lb.dims(1, {0}), lb.dims(1, {0})},
                     lb.empty({c}, f32),
                     [](ImplicitLocOpBuilder &ib, ValueRange args) {
                       return arith::MulFOp::create(
                                  ib, args[0], gammaOf(ib, args[1], 1.0))
                           .getResult();
                     });
  // Right-hand side: diag(beta) V - diag(beta gam) K S0, in the buffer of
  // K S0. The row scale diag(beta gam) goes to K first where the backward
  // reads diag(beta gam) K, else into this pass.
  Value keys = f.K;
  if (keepScaledKeys)
    keys = f.Kb = lb.scaleRows(f.K, f.betaGam);
  Value KS = lb.contract(keys, S0, lb.filled({c, dv}, f32, 0.0), Lhs::RowMajor);
  SmallVector<Value> inputs = {f.V, f.beta};
  if (!keepScaledKeys)
    inputs.push_back(f.betaGam);
  SmallVector<AffineMap> maps(inputs.size(), lb.dims(2, {0}));
  maps[0] = lb.dims(2, {0, 1});
  Value rhs =
      lb.map(inputs, maps, KS, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        Value bv = arith::MulFOp::create(ib, args[0], args[1]);
        Value ks = args.back();
        if (!keepScaledKeys)
          ks = arith::MulFOp::create(ib, args[2], ks);
        return arith::SubFOp::create(ib, bv, ks).getResult();
      });
  LinalgBuilder::prefetchingRowsAhead(rhs, nextChunkRows(C));
  f.U = substitute(lb, f.A, rhs, C, Dv, ops.triangularBlock);
  return f;
}

Value GatedDeltaRuleHooks::scores(LinalgBuilder &lb,
                                  const DeltaRuleChunk &f) const {
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult c = b.getIndexAttr(ops.C);
  Value scale = arith::ConstantOp::create(b, b.getF32FloatAttr(ops.scale));
  if (f.QKt) {
    // M^T = (Q K^T)^T times the decays' transpose (0 below the diagonal).
    Value decayT = lb.transpose(f.decay ? f.decay : decays(lb, f.cum));
    return lb.map({decayT}, {lb.dims(2, {0, 1})}, f.QKt,
                  [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                    Value x = arith::MulFOp::create(ib, args[1], args[0]);
                    return arith::MulFOp::create(ib, x, scale).getResult();
                  });
  }
  Value M = decayMask(lb, f,
                      lb.contractLowerPart(
                          f.Q, f.Kt, lb.filled({c, c}, b.getF32Type(), 0.0),
                          ops.triangularBlock),
                      /*strict=*/false, Value(), ops.triangularBlock);
  return lb.map({}, {}, M, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
    return arith::MulFOp::create(ib, args[0], scale).getResult();
  });
}

Value GatedDeltaRuleHooks::scaledQueries(LinalgBuilder &lb,
                                         const DeltaRuleChunk &f) const {
  // Read from the time-major queries into a chunk buffer of its own in one
  // pass, which also fetches the next chunk's rows (as the keys' copy does).
  return LinalgBuilder::prefetchingRowsAhead(
      lb.scaleRows(f.Q, gammas(lb, f.cum, ops.scale)), nextChunkRows(ops.C));
}

Value GatedDeltaRuleHooks::keysToEnd(LinalgBuilder &lb,
                                     const DeltaRuleChunk &f) const {
  // In place: one exp per token (in the factors), not one per element.
  return lb.scaleRows(f.K, decaysToEnd(lb, f.cum, f.cumLast), f.K);
}

/// One full chunk of C tokens starting at t0 in the WY (UT) form: with the
/// chunk's factors (chunkFactors) and S0 the state entering the chunk,
///   O = scale (diag(gam) Q S0 + ((Q K^T) * Gam) U'),  Gam[t, j] = gam_t /
///   gam_j for j <= t, 0 above,
///   S = gam_last S0 + (diag(gam_last / gam) K)^T U'.
void GatedDeltaRuleHooks::chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                                    ScanCarry &carry) {
  Value st = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  int64_t C = ops.C, Dv = ops.Dv;
  OpFoldResult c = b.getIndexAttr(C), dv = b.getIndexAttr(Dv);
  // Where the target blocks the triangular work (CPUs), both masks share
  // one decay matrix: one exp per pair of tokens, not two.
  DeltaRuleChunk f =
      chunkFactors(lb, t0, st, /*shareDecays=*/ops.triangularBlock > 0);

  if (withOutput) {
    // Outputs: diag(gam) Q S0 + ((Q K^T) * Gam) U', times scale.
    Value M = scores(lb, f);
    Value O = lb.contract(scaledQueries(lb, f), st,
                          lb.filled({c, dv}, f32, 0.0), Lhs::RowMajor);
    O = f.QKt ? lb.contract(M, f.U, O, Lhs::Transposed)
              : lb.contractLowerLhs(M, f.U, O, ops.triangularBlock);
    carry.outs[0] = writeChunkTokens(lb, O, carry.outs[0], t0, C);
  }

  // State: gam_last S0 + (diag(gam_last / gam) K)^T U'.
  Value Kw = keysToEnd(lb, f);
  Value chunkDecay = expOf(b, f.cumLast);
  st = lb.map({}, {}, st, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
    return arith::MulFOp::create(ib, args[0], chunkDecay).getResult();
  });
  carry.states[0] = lb.contract(Kw, f.U, st, Lhs::Transposed);
}

namespace {

/// mixer.gated_delta_rule through the driver.
class GatedDeltaRuleScan final : public GatedDeltaRuleHooks {
public:
  using Op = GatedDeltaRuleOp;
  static FailureOr<GatedDeltaRuleScan> match(GatedDeltaRuleOp op,
                                             PatternRewriter &) {
    GatedDeltaRuleOperands ops{op.getQ(),
                               op.getK(),
                               op.getV(),
                               op.getG(),
                               op.getBeta(),
                               op.getInit(),
                               dimSize(op.getQ(), 2),
                               dimSize(op.getQ(), 3),
                               dimSize(op.getV(), 3),
                               static_cast<int64_t>(op.getChunkSize()),
                               static_cast<double>(
                                   op.getScale().convertToFloat())};
    const TargetDescription &target = lookupTargetDescription(op);
    ops.triangularBlock = target.triangularBlockRows();
    // Per token and head, the chunk's K K^T, Q K^T, solve and masked scores
    // times U' take C (2 Dk + 2 Dv) FMAs, its three state products 3 Dk Dv:
    // a third at C = 16 and Dk = Dv = 64, where 8-token chunks win.
    ops.C = target.scanChunk(ops.C, /*returnsChunkStates=*/false,
                             {2 * (ops.Dk + ops.Dv), 3 * ops.Dk * ops.Dv});
    GatedDeltaRuleScan scan(ops);
    // A tile's heads (the target's block) take each chunk in turn: a
    // token's rows of those heads are adjacent, so each chunk reads them
    // together.
    scan.headsInner = headsStepTogether(target, ops.H);
    // Where the chunk is one triangular block (none of its upper triangle
    // skipped) and a chunk's row of scores fills less than a vector (C = 8
    // with 16 lanes), both scores come from one product of rows twice as
    // wide. With 8 lanes the separate products already fill their vectors,
    // and the stacked one took 1.03x as long (gdr at D = 64, AVX2 code).
    scan.stackScores =
        ops.triangularBlock >= ops.C && target.vectorWidth > ops.C;
    return scan;
  }
  void configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec) {
    spec.heads = arith::ConstantIndexOp::create(b, ops.H);
    spec.chunkSize = ops.C;
    spec.headsInner = headsInner;
  }

private:
  explicit GatedDeltaRuleScan(const GatedDeltaRuleOperands &ops)
      : GatedDeltaRuleHooks(ops, /*withOutput=*/true) {}
  bool headsInner = false;
};

} // namespace

void mlir::mixer::populateGatedDeltaRuleToLinalgPatterns(
    RewritePatternSet &patterns, int64_t recurrentThreshold) {
  patterns.add<ChunkedScanLowering<GatedDeltaRuleScan>>(patterns.getContext(),
                                                        recurrentThreshold);
}
