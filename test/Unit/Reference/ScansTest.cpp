//===- ScansTest.cpp - Tests of the reference scans -----------------------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// Hand-computed small cases, then properties that tie the scans to each other
// and to their recurrences: splitting a sequence at any token, ssd as linear
// attention, the sliding window, and the delta rule's erasure.
//
//===----------------------------------------------------------------------===//

#include "TestHelpers.h"

#include <cmath>

using namespace mixer::ref;
using namespace mixer::ref::test;

namespace {

constexpr double kTight = 1e-12;

//===----------------------------------------------------------------------===//
// ssd
//===----------------------------------------------------------------------===//

TEST(SsdTest, HandComputedScalarState) {
  // L = 2, H = P = N = G = 1.
  Tensor x = makeTensor({1, 2, 1, 1}, {2.0, 3.0});
  Tensor logA = makeTensor({1, 2, 1}, {std::log(0.5), std::log(0.25)});
  Tensor b = makeTensor({1, 2, 1, 1}, {1.0, 2.0});
  Tensor c = makeTensor({1, 2, 1, 1}, {3.0, -1.0});

  // S_0 = 0.5 * 0 + 2 * 1 = 2, y_0 = 2 * 3 = 6;
  // S_1 = 0.25 * 2 + 3 * 2 = 6.5, y_1 = 6.5 * -1 = -6.5.
  ScanResult r = ssd(x, logA, b, c, nullptr);
  expectTensorNear(r.out, makeTensor({1, 2, 1, 1}, {6.0, -6.5}), kTight);
  expectTensorNear(r.finalState, makeTensor({1, 1, 1, 1}, {6.5}), kTight);

  // From S_{-1} = 4: S_0 = 2 + 2 = 4, y_0 = 12; S_1 = 1 + 6 = 7, y_1 = -7.
  Tensor init = makeTensor({1, 1, 1, 1}, {4.0});
  ScanResult ri = ssd(x, logA, b, c, &init);
  expectTensorNear(ri.out, makeTensor({1, 2, 1, 1}, {12.0, -7.0}), kTight);
  expectTensorNear(ri.finalState, makeTensor({1, 1, 1, 1}, {7.0}), kTight);
}

TEST(SsdTest, HandComputedOuterProduct) {
  // One token, P = N = 2: S = x b^T = [[3, 4], [6, 8]], y = S c.
  Tensor x = makeTensor({1, 1, 1, 2}, {1.0, 2.0});
  Tensor logA = makeTensor({1, 1, 1}, {0.0});
  Tensor b = makeTensor({1, 1, 1, 2}, {3.0, 4.0});
  Tensor c = makeTensor({1, 1, 1, 2}, {5.0, 6.0});
  ScanResult r = ssd(x, logA, b, c, nullptr);
  expectTensorNear(r.out, makeTensor({1, 1, 1, 2}, {39.0, 78.0}), kTight);
  expectTensorNear(r.finalState, makeTensor({1, 1, 2, 2}, {3, 4, 6, 8}),
                   kTight);
}

/// b [B,L,G,N] repeated so that each of the H heads has its own group:
/// head h takes group h / (H/G).
Tensor expandGroups(const Tensor &b, int64_t H) {
  int64_t B = b.dim(0), L = b.dim(1), G = b.dim(2), N = b.dim(3);
  Tensor out({B, L, H, N});
  for (int64_t bi = 0; bi < B; ++bi)
    for (int64_t t = 0; t < L; ++t)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t n = 0; n < N; ++n)
          out.at({bi, t, h, n}) = b.at({bi, t, h / (H / G), n});
  return out;
}

TEST(SsdTest, HeadsShareTheirGroup) {
  Rng rng(1);
  int64_t B = 2, L = 5, H = 4, G = 2, P = 3, N = 2;
  Tensor x = rng.normalTensor({B, L, H, P}, 0, 1);
  Tensor logA = rng.uniformTensor({B, L, H}, -1, 0);
  Tensor b = rng.normalTensor({B, L, G, N}, 0, 1);
  Tensor c = rng.normalTensor({B, L, G, N}, 0, 1);
  ScanResult grouped = ssd(x, logA, b, c, nullptr);
  ScanResult perHead =
      ssd(x, logA, expandGroups(b, H), expandGroups(c, H), nullptr);
  expectTensorNear(grouped.out, perHead.out, kTight);
  expectTensorNear(grouped.finalState, perHead.finalState, kTight);
}

TEST(SsdTest, SplitAtAnyTokenResumesFromTheFinalState) {
  Rng rng(2);
  int64_t B = 2, L1 = 3, L2 = 4, L = L1 + L2, H = 2, G = 1, P = 3, N = 4;
  Tensor x = rng.normalTensor({B, L, H, P}, 0, 1);
  Tensor logA = rng.uniformTensor({B, L, H}, -1, 0);
  Tensor b = rng.normalTensor({B, L, G, N}, 0, 1);
  Tensor c = rng.normalTensor({B, L, G, N}, 0, 1);
  Tensor init = rng.normalTensor({B, H, P, N}, 0, 1);

  ScanResult whole = ssd(x, logA, b, c, &init);
  ScanResult first = ssd(slice(x, 1, 0, L1), slice(logA, 1, 0, L1),
                         slice(b, 1, 0, L1), slice(c, 1, 0, L1), &init);
  ScanResult second =
      ssd(slice(x, 1, L1, L), slice(logA, 1, L1, L), slice(b, 1, L1, L),
          slice(c, 1, L1, L), &first.finalState);
  expectTensorNear(slice(whole.out, 1, 0, L1), first.out, kTight);
  expectTensorNear(slice(whole.out, 1, L1, L), second.out, kTight);
  expectTensorNear(whole.finalState, second.finalState, kTight);
}

TEST(SsdTest, EmptySequenceReturnsTheInitialState) {
  Tensor init = makeTensor({1, 1, 1, 2}, {1.0, -2.0});
  ScanResult r = ssd(Tensor({1, 0, 1, 1}), Tensor({1, 0, 1}),
                     Tensor({1, 0, 1, 2}), Tensor({1, 0, 1, 2}), &init);
  EXPECT_EQ(r.out.shape, (std::vector<int64_t>{1, 0, 1, 1}));
  expectTensorNear(r.finalState, init, 0.0);
}

//===----------------------------------------------------------------------===//
// selective_scan
//===----------------------------------------------------------------------===//

TEST(SelectiveScanTest, HandComputedPlain) {
  // One channel, N = 1, two tokens.
  Tensor u = makeTensor({1, 2, 1}, {1.0, 2.0});
  Tensor delta = makeTensor({1, 2, 1}, {0.5, 1.0});
  Tensor A = makeTensor({1, 1}, {-2.0});
  Tensor b = makeTensor({1, 2, 1, 1}, {3.0, 1.0});
  Tensor c = makeTensor({1, 2, 1, 1}, {2.0, 4.0});
  // h_0 = 0.5 * 1 * 3 = 1.5, y_0 = 3;
  // h_1 = exp(-2) * 1.5 + 1 * 2 * 1, y_1 = 4 h_1.
  double h1 = std::exp(-2.0) * 1.5 + 2.0;
  ScanResult r = selectiveScan(u, delta, A, b, c, {});
  expectTensorNear(r.out, makeTensor({1, 2, 1}, {3.0, 4.0 * h1}), kTight);
  expectTensorNear(r.finalState, makeTensor({1, 1, 1}, {h1}), kTight);
}

TEST(SelectiveScanTest, HandComputedWithEveryOption) {
  Tensor u = makeTensor({1, 2, 1}, {1.0, 2.0});
  Tensor delta = makeTensor({1, 2, 1}, {0.5, -1.0});
  Tensor A = makeTensor({1, 1}, {-2.0});
  Tensor b = makeTensor({1, 2, 1, 1}, {3.0, 1.0});
  Tensor c = makeTensor({1, 2, 1, 1}, {2.0, 4.0});
  Tensor dSkip = makeTensor({1}, {0.5});
  Tensor z = makeTensor({1, 2, 1}, {1.0, -1.0});
  Tensor deltaBias = makeTensor({1}, {0.25});
  Tensor init = makeTensor({1, 1, 1}, {10.0});
  SelectiveScanOptions opts;
  opts.dSkip = &dSkip;
  opts.z = &z;
  opts.deltaBias = &deltaBias;
  opts.init = &init;
  opts.deltaSoftplus = true;

  double dt0 = std::log(1.0 + std::exp(0.75));  // softplus(0.5 + 0.25)
  double dt1 = std::log(1.0 + std::exp(-0.75)); // softplus(-1 + 0.25)
  double h0 = std::exp(-2.0 * dt0) * 10.0 + dt0 * 1.0 * 3.0;
  double h1 = std::exp(-2.0 * dt1) * h0 + dt1 * 2.0 * 1.0;
  double y0 = (h0 * 2.0 + 0.5 * 1.0) * siluOf(1.0);
  double y1 = (h1 * 4.0 + 0.5 * 2.0) * siluOf(-1.0);
  ScanResult r = selectiveScan(u, delta, A, b, c, opts);
  expectTensorNear(r.out, makeTensor({1, 2, 1}, {y0, y1}), kTight);
  expectTensorNear(r.finalState, makeTensor({1, 1, 1}, {h1}), kTight);
}

TEST(SelectiveScanTest, SoftplusIsTheIdentityAboveTwenty) {
  Tensor u = makeTensor({1, 1, 1}, {1.0});
  Tensor delta = makeTensor({1, 1, 1}, {25.0});
  Tensor A = makeTensor({1, 1}, {-0.01});
  Tensor b = makeTensor({1, 1, 1, 1}, {1.0});
  Tensor c = makeTensor({1, 1, 1, 1}, {1.0});
  SelectiveScanOptions opts;
  opts.deltaSoftplus = true;
  // dt = 25: h = dt * u * b = 25.
  ScanResult r = selectiveScan(u, delta, A, b, c, opts);
  EXPECT_NEAR(r.out[0], 25.0, kTight);
}

TEST(SelectiveScanTest, ChannelsShareTheirGroupAndStatesStayDiagonal) {
  Rng rng(3);
  int64_t B = 2, L = 4, D = 4, G = 2, N = 3;
  Tensor u = rng.normalTensor({B, L, D}, 0, 1);
  Tensor delta = rng.uniformTensor({B, L, D}, 0.1, 1);
  Tensor A = rng.uniformTensor({D, N}, -2, -0.1);
  Tensor b = rng.normalTensor({B, L, G, N}, 0, 1);
  Tensor c = rng.normalTensor({B, L, G, N}, 0, 1);
  ScanResult r = selectiveScan(u, delta, A, b, c, {});

  // Each (channel, state) pair is an independent scalar recurrence.
  for (int64_t bi = 0; bi < B; ++bi)
    for (int64_t d = 0; d < D; ++d) {
      int64_t g = d / (D / G);
      std::vector<double> h(N, 0.0);
      for (int64_t t = 0; t < L; ++t) {
        double dt = delta.at({bi, t, d}), y = 0.0;
        for (int64_t n = 0; n < N; ++n) {
          h[n] = std::exp(dt * A.at({d, n})) * h[n] +
                 dt * u.at({bi, t, d}) * b.at({bi, t, g, n});
          y += h[n] * c.at({bi, t, g, n});
        }
        EXPECT_NEAR(r.out.at({bi, t, d}), y, kTight);
      }
      for (int64_t n = 0; n < N; ++n)
        EXPECT_NEAR(r.finalState.at({bi, d, n}), h[n], kTight);
    }
}

TEST(SelectiveScanTest, SplitAtAnyTokenResumesFromTheFinalState) {
  Rng rng(4);
  int64_t B = 2, L1 = 2, L2 = 5, L = L1 + L2, D = 4, G = 2, N = 3;
  Tensor u = rng.normalTensor({B, L, D}, 0, 1);
  Tensor delta = rng.normalTensor({B, L, D}, 0, 1);
  Tensor A = rng.uniformTensor({D, N}, -2, -0.1);
  Tensor b = rng.normalTensor({B, L, G, N}, 0, 1);
  Tensor c = rng.normalTensor({B, L, G, N}, 0, 1);
  Tensor z = rng.normalTensor({B, L, D}, 0, 1);
  Tensor dSkip = rng.normalTensor({D}, 0, 1);
  Tensor deltaBias = rng.normalTensor({D}, 0, 1);
  Tensor init = rng.normalTensor({B, D, N}, 0, 1);

  auto run = [&](int64_t begin, int64_t end, const Tensor *start) {
    Tensor zPart = slice(z, 1, begin, end);
    SelectiveScanOptions opts;
    opts.dSkip = &dSkip;
    opts.z = &zPart;
    opts.deltaBias = &deltaBias;
    opts.init = start;
    opts.deltaSoftplus = true;
    return selectiveScan(slice(u, 1, begin, end), slice(delta, 1, begin, end),
                         A, slice(b, 1, begin, end), slice(c, 1, begin, end),
                         opts);
  };
  ScanResult whole = run(0, L, &init);
  ScanResult first = run(0, L1, &init);
  ScanResult second = run(L1, L, &first.finalState);
  expectTensorNear(slice(whole.out, 1, 0, L1), first.out, kTight);
  expectTensorNear(slice(whole.out, 1, L1, L), second.out, kTight);
  expectTensorNear(whole.finalState, second.finalState, kTight);
}

//===----------------------------------------------------------------------===//
// linear_attention
//===----------------------------------------------------------------------===//

/// Three tokens, H = 1, Dk = 2, Dv = 1.
struct SmallAttention {
  Tensor q = makeTensor({1, 3, 1, 2}, {1, 1, 1, 2, 1, 0});
  Tensor k = makeTensor({1, 3, 1, 2}, {1, 0, 0, 1, 1, 1});
  Tensor v = makeTensor({1, 3, 1, 1}, {2, 3, 1});
  Tensor logDecay = makeTensor({1, 3, 1}, {0.0, std::log(0.5), 0.0});
};

TEST(LinearAttentionTest, HandComputed) {
  SmallAttention s;
  // S_0 = [[2], [0]], o_0 = 2 * (2) = 4;
  // S_1 = 0.5 S_0 + [[0], [3]] = [[1], [3]], o_1 = 2 * (1 + 6) = 14;
  // S_2 = S_1 + [[1], [1]] = [[2], [4]], o_2 = 2 * 2 = 4.
  ScanResult r = linearAttention(s.q, s.k, s.v, &s.logDecay, nullptr, 0, 2.0);
  expectTensorNear(r.out, makeTensor({1, 3, 1, 1}, {4, 14, 4}), kTight);
  expectTensorNear(r.finalState, makeTensor({1, 1, 2, 1}, {2, 4}), kTight);

  // Without log_decay every decay is 1: S_1 = [[2], [3]], o_1 = 2 * 8 = 16.
  ScanResult flat = linearAttention(s.q, s.k, s.v, nullptr, nullptr, 0, 2.0);
  expectTensorNear(flat.out, makeTensor({1, 3, 1, 1}, {4, 16, 6}), kTight);
}

TEST(LinearAttentionTest, HandComputedWindow) {
  SmallAttention s;
  // w = 1: o_t reads S_{t-2}; S_{-2} = S_{-1} = 0, S_0 = [[2], [0]].
  ScanResult r = linearAttention(s.q, s.k, s.v, &s.logDecay, nullptr, 1, 2.0);
  expectTensorNear(r.out, makeTensor({1, 3, 1, 1}, {0, 0, 4}), kTight);
  // The final state is S_{L-1} whatever the window.
  expectTensorNear(r.finalState, makeTensor({1, 1, 2, 1}, {2, 4}), kTight);

  // From init [[1], [1]]: o_0 = 2 * 2 = 4, o_1 = 2 * 3 = 6, and
  // S_0 = init + [[2], [0]] = [[3], [1]], o_2 = 2 * 3 = 6.
  Tensor init = makeTensor({1, 1, 2, 1}, {1, 1});
  ScanResult ri = linearAttention(s.q, s.k, s.v, &s.logDecay, &init, 1, 2.0);
  expectTensorNear(ri.out, makeTensor({1, 3, 1, 1}, {4, 6, 6}), kTight);
}

TEST(LinearAttentionTest, EqualsSsdWithQueriesAsC) {
  Rng rng(5);
  int64_t B = 2, L = 6, H = 3, P = 2, N = 4;
  Tensor x = rng.normalTensor({B, L, H, P}, 0, 1);
  Tensor logA = rng.uniformTensor({B, L, H}, -1, 0);
  Tensor b = rng.normalTensor({B, L, H, N}, 0, 1);
  Tensor c = rng.normalTensor({B, L, H, N}, 0, 1);
  Tensor init = rng.normalTensor({B, H, P, N}, 0, 1);
  // The attention state [Dk, Dv] = [N, P] is the ssd state transposed.
  Tensor initT({B, H, N, P});
  for (int64_t bi = 0; bi < B; ++bi)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t p = 0; p < P; ++p)
        for (int64_t n = 0; n < N; ++n)
          initT.at({bi, h, n, p}) = init.at({bi, h, p, n});

  ScanResult s = ssd(x, logA, b, c, &init);
  ScanResult a = linearAttention(c, b, x, &logA, &initT, 0, 1.0);
  expectTensorNear(a.out, s.out, kTight);
  for (int64_t bi = 0; bi < B; ++bi)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t p = 0; p < P; ++p)
        for (int64_t n = 0; n < N; ++n)
          EXPECT_NEAR(a.finalState.at({bi, h, n, p}),
                      s.finalState.at({bi, h, p, n}), kTight);
}

TEST(LinearAttentionTest, WindowReadsTheStateAfterTokenTMinusWMinus1) {
  Rng rng(6);
  int64_t B = 2, L = 9, H = 2, Dk = 3, Dv = 2;
  double scale = 0.7;
  Tensor q = rng.normalTensor({B, L, H, Dk}, 0, 1);
  Tensor k = rng.normalTensor({B, L, H, Dk}, 0, 1);
  Tensor v = rng.normalTensor({B, L, H, Dv}, 0, 1);
  Tensor logDecay = rng.uniformTensor({B, L, H}, -1, 0);
  Tensor init = rng.normalTensor({B, H, Dk, Dv}, 0, 1);

  for (int64_t w : {1, 2, 4, 8, 12}) {
    ScanResult r = linearAttention(q, k, v, &logDecay, &init, w, scale);
    for (int64_t t = 0; t < L; ++t) {
      // S_{t-w-1}: the final state of a window-0 run over tokens
      // 0 .. t-w-1, or the initial state before any token.
      int64_t prefix = t - w;
      Tensor state = init;
      if (prefix > 0) {
        Tensor decayPrefix = slice(logDecay, 1, 0, prefix);
        state = linearAttention(slice(q, 1, 0, prefix), slice(k, 1, 0, prefix),
                                slice(v, 1, 0, prefix), &decayPrefix, &init, 0,
                                scale)
                    .finalState;
      }
      for (int64_t bi = 0; bi < B; ++bi)
        for (int64_t h = 0; h < H; ++h)
          for (int64_t j = 0; j < Dv; ++j) {
            double o = 0.0;
            for (int64_t i = 0; i < Dk; ++i)
              o += state.at({bi, h, i, j}) * q.at({bi, t, h, i});
            EXPECT_NEAR(r.out.at({bi, t, h, j}), scale * o, kTight)
                << "w = " << w << ", t = " << t;
          }
    }
    ScanResult plain = linearAttention(q, k, v, &logDecay, &init, 0, scale);
    expectTensorNear(r.finalState, plain.finalState, kTight);
  }
}

TEST(LinearAttentionTest, SplitAtAnyTokenResumesFromTheFinalState) {
  Rng rng(7);
  int64_t B = 2, L1 = 4, L2 = 3, L = L1 + L2, H = 2, Dk = 3, Dv = 2;
  Tensor q = rng.normalTensor({B, L, H, Dk}, 0, 1);
  Tensor k = rng.normalTensor({B, L, H, Dk}, 0, 1);
  Tensor v = rng.normalTensor({B, L, H, Dv}, 0, 1);
  Tensor logDecay = rng.uniformTensor({B, L, H}, -1, 0);
  Tensor init = rng.normalTensor({B, H, Dk, Dv}, 0, 1);
  auto run = [&](int64_t begin, int64_t end, const Tensor *start) {
    Tensor decayPart = slice(logDecay, 1, begin, end);
    return linearAttention(slice(q, 1, begin, end), slice(k, 1, begin, end),
                           slice(v, 1, begin, end), &decayPart, start, 0, 0.5);
  };
  ScanResult whole = run(0, L, &init);
  ScanResult first = run(0, L1, &init);
  ScanResult second = run(L1, L, &first.finalState);
  expectTensorNear(slice(whole.out, 1, 0, L1), first.out, kTight);
  expectTensorNear(slice(whole.out, 1, L1, L), second.out, kTight);
  expectTensorNear(whole.finalState, second.finalState, kTight);
}

//===----------------------------------------------------------------------===//
// gated_delta_rule
//===----------------------------------------------------------------------===//

TEST(GatedDeltaRuleTest, HandComputed) {
  // One token, Dk = 2, Dv = 1, S_{-1} = [[1], [2]], k = [1, 0], v = 5,
  // beta = 0.5, exp(g) = 0.5:
  // (I - 0.5 k k^T) S = [[0.5], [2]]; times 0.5: [[0.25], [1]];
  // plus 0.5 k v^T = [[2.5], [0]]: S_0 = [[2.75], [1]]; o = q^T S_0.
  Tensor q = makeTensor({1, 1, 1, 2}, {1, 1});
  Tensor k = makeTensor({1, 1, 1, 2}, {1, 0});
  Tensor v = makeTensor({1, 1, 1, 1}, {5});
  Tensor g = makeTensor({1, 1, 1}, {std::log(0.5)});
  Tensor beta = makeTensor({1, 1, 1}, {0.5});
  Tensor init = makeTensor({1, 1, 2, 1}, {1, 2});
  ScanResult r = gatedDeltaRule(q, k, v, g, beta, &init, 2.0);
  expectTensorNear(r.out, makeTensor({1, 1, 1, 1}, {2.0 * 3.75}), kTight);
  expectTensorNear(r.finalState, makeTensor({1, 1, 2, 1}, {2.75, 1.0}), kTight);
}

TEST(GatedDeltaRuleTest, BetaZeroOnlyDecays) {
  Rng rng(8);
  int64_t B = 2, L = 5, H = 2, Dk = 3, Dv = 4;
  Tensor q = rng.normalTensor({B, L, H, Dk}, 0, 1);
  Tensor k = rng.normalTensor({B, L, H, Dk}, 0, 1);
  Tensor v = rng.normalTensor({B, L, H, Dv}, 0, 1);
  Tensor g = rng.uniformTensor({B, L, H}, -1, 0);
  Tensor init = rng.normalTensor({B, H, Dk, Dv}, 0, 1);
  ScanResult r = gatedDeltaRule(q, k, v, g, Tensor({B, L, H}), &init, 0.5);
  // Linear attention with no k v^T contribution (v = 0) only decays too.
  ScanResult decayOnly =
      linearAttention(q, k, Tensor({B, L, H, Dv}), &g, &init, 0, 0.5);
  expectTensorNear(r.out, decayOnly.out, kTight);
  expectTensorNear(r.finalState, decayOnly.finalState, kTight);
}

TEST(GatedDeltaRuleTest, BetaOneWithAUnitKeyOverwritesItsRow) {
  Rng rng(9);
  int64_t Dk = 3, Dv = 2;
  Tensor init = rng.normalTensor({1, 1, Dk, Dv}, 0, 1);
  Tensor k = makeTensor({1, 1, 1, Dk}, {0, 1, 0});
  Tensor v = makeTensor({1, 1, 1, Dv}, {7, -3});
  Tensor q = rng.normalTensor({1, 1, 1, Dk}, 0, 1);
  ScanResult r = gatedDeltaRule(q, k, v, Tensor({1, 1, 1}),
                                Tensor({1, 1, 1}, 1.0), &init, 1.0);
  // Row 1 (the key's) is erased and replaced by v; the others are kept.
  Tensor expected = init;
  expected.at({0, 0, 1, 0}) = 7;
  expected.at({0, 0, 1, 1}) = -3;
  expectTensorNear(r.finalState, expected, kTight);
}

TEST(GatedDeltaRuleTest, BetaOneMakesTheKeyRetrieveItsValue) {
  Rng rng(10);
  int64_t L = 4, Dk = 4, Dv = 3;
  Tensor q = rng.normalTensor({1, L, 1, Dk}, 0, 1);
  Tensor k = rng.normalTensor({1, L, 1, Dk}, 0, 1);
  for (int64_t t = 0; t < L; ++t) {
    double norm = 0.0;
    for (int64_t i = 0; i < Dk; ++i)
      norm += k.at({0, t, 0, i}) * k.at({0, t, 0, i});
    for (int64_t i = 0; i < Dk; ++i)
      k.at({0, t, 0, i}) /= std::sqrt(norm);
  }
  Tensor v = rng.normalTensor({1, L, 1, Dv}, 0, 1);
  Tensor init = rng.normalTensor({1, 1, Dk, Dv}, 0, 1);
  // With g = 0, beta = 1 and ||k_t|| = 1: k_t^T S_t = v_t^T. Querying with
  // q = k_t at every token therefore returns v_t.
  ScanResult r = gatedDeltaRule(k, k, v, Tensor({1, L, 1}),
                                Tensor({1, L, 1}, 1.0), &init, 1.0);
  expectTensorNear(r.out, v, 1e-12);
}

TEST(GatedDeltaRuleTest, SplitAtAnyTokenResumesFromTheFinalState) {
  Rng rng(11);
  int64_t B = 2, L1 = 3, L2 = 3, L = L1 + L2, H = 2, Dk = 3, Dv = 2;
  Tensor q = rng.normalTensor({B, L, H, Dk}, 0, 1);
  Tensor k = rng.normalTensor({B, L, H, Dk}, 0, 0.5);
  Tensor v = rng.normalTensor({B, L, H, Dv}, 0, 1);
  Tensor g = rng.uniformTensor({B, L, H}, -1, 0);
  Tensor beta = rng.uniformTensor({B, L, H}, 0, 1);
  Tensor init = rng.normalTensor({B, H, Dk, Dv}, 0, 1);
  auto run = [&](int64_t begin, int64_t end, const Tensor *start) {
    return gatedDeltaRule(slice(q, 1, begin, end), slice(k, 1, begin, end),
                          slice(v, 1, begin, end), slice(g, 1, begin, end),
                          slice(beta, 1, begin, end), start, 0.25);
  };
  ScanResult whole = run(0, L, &init);
  ScanResult first = run(0, L1, &init);
  ScanResult second = run(L1, L, &first.finalState);
  expectTensorNear(slice(whole.out, 1, 0, L1), first.out, kTight);
  expectTensorNear(slice(whole.out, 1, L1, L), second.out, kTight);
  expectTensorNear(whole.finalState, second.finalState, kTight);
}

//===----------------------------------------------------------------------===//
// Misuse
//===----------------------------------------------------------------------===//

TEST(ScansDeathTest, ShapeMismatchNamesTheArgument) {
  Tensor x({1, 2, 2, 3}), logA({1, 2, 2}), b({1, 2, 1, 4}), c({1, 2, 1, 4});
  Tensor badC({1, 2, 1, 5}), badInit({1, 2, 3, 3});
  EXPECT_DEATH(ssd(x, logA, b, badC, nullptr),
               "ssd: argument 'c' has shape \\[1, 2, 1, 5\\], expected "
               "\\[1, 2, 1, 4\\]");
  EXPECT_DEATH(ssd(x, logA, b, c, &badInit), "ssd: argument 'init'");
  EXPECT_DEATH(ssd(x, Tensor({1, 2, 3}), b, c, nullptr),
               "ssd: argument 'log_a'");
  Tensor b3({1, 2, 3, 4});
  EXPECT_DEATH(ssd(x, logA, b3, b3, nullptr), "not a multiple of groups");

  Tensor u({1, 2, 4}), A({4, 3}), sb({1, 2, 2, 3});
  SelectiveScanOptions opts;
  Tensor badZ({1, 3, 4});
  opts.z = &badZ;
  EXPECT_DEATH(selectiveScan(u, u, A, sb, sb, opts),
               "selectiveScan: argument 'z'");
  EXPECT_DEATH(selectiveScan(u, u, Tensor({4, 2}), sb, sb, {}),
               "selectiveScan: argument 'b'");

  Tensor q({1, 2, 2, 3}), v({1, 2, 2, 5});
  EXPECT_DEATH(
      linearAttention(q, Tensor({1, 2, 2, 4}), v, nullptr, nullptr, 0, 1.0),
      "linearAttention: argument 'k'");
  EXPECT_DEATH(linearAttention(q, q, v, nullptr, nullptr, -1, 1.0),
               "window -1 is negative");
  EXPECT_DEATH(
      gatedDeltaRule(q, q, v, Tensor({1, 2, 2}), Tensor({1, 2}), nullptr, 1.0),
      "gatedDeltaRule: argument 'beta'");
}

} // namespace
