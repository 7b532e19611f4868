//===- GradientsTest.cpp - reference gradients by finite differences ------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// Each reference gradient is checked against central finite differences of
// the reference forward: for a loss <dy, y> + <dS, S_final> with random
// cotangents, every element of every input is perturbed by +-h. Each case
// prints the largest relative error max|fd - grad| / max|grad| per input
// (max|grad| at least 1e-3).
//
//===----------------------------------------------------------------------===//

#include "TestHelpers.h"

#include "mixer/Reference/Gradients.h"

#include <cstdio>
#include <functional>

using namespace mixer::ref;

namespace {

constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-7;

double dot(const Tensor &a, const Tensor &b) {
  double sum = 0.0;
  for (int64_t i = 0; i < a.numel(); ++i)
    sum += a[i] * b[i];
  return sum;
}

/// max|fd - grad| / max(max|grad|, 1e-3) over the elements of `input`, where
/// fd is the central difference of `loss` as `input` moves. The floor keeps
/// gradients that decays have made tiny (e^-30) from dividing the
/// differences' rounding noise (~1e-10) by ~0.
double finiteDifferenceError(Tensor &input, const Tensor &grad,
                             const std::function<double()> &loss) {
  EXPECT_EQ(input.shape, grad.shape);
  double maxDiff = 0.0, maxGrad = 0.0;
  for (int64_t i = 0; i < input.numel(); ++i) {
    double saved = input[i];
    input[i] = saved + kStep;
    double up = loss();
    input[i] = saved - kStep;
    double down = loss();
    input[i] = saved;
    double fd = (up - down) / (2 * kStep);
    maxDiff = std::max(maxDiff, std::abs(fd - grad[i]));
    maxGrad = std::max(maxGrad, std::abs(grad[i]));
  }
  return maxDiff / std::max(maxGrad, 1e-3);
}

struct SsdCase {
  int64_t B, L, H, P, G, N;
  bool withInit, withDy, withDFinal;
  double minLogA;
};

class SsdGradientsTest : public ::testing::TestWithParam<SsdCase> {};

TEST_P(SsdGradientsTest, MatchesFiniteDifferences) {
  const SsdCase &s = GetParam();
  Rng rng(42);
  Tensor x = rng.uniformTensor({s.B, s.L, s.H, s.P}, -1, 1);
  Tensor logA = rng.uniformTensor({s.B, s.L, s.H}, s.minLogA, -0.01);
  Tensor b = rng.uniformTensor({s.B, s.L, s.G, s.N}, -1, 1);
  Tensor c = rng.uniformTensor({s.B, s.L, s.G, s.N}, -1, 1);
  Tensor init = rng.uniformTensor({s.B, s.H, s.P, s.N}, -1, 1);
  Tensor dy = rng.uniformTensor({s.B, s.L, s.H, s.P}, -1, 1);
  Tensor dS = rng.uniformTensor({s.B, s.H, s.P, s.N}, -1, 1);
  const Tensor *initP = s.withInit ? &init : nullptr;
  const Tensor *dyP = s.withDy ? &dy : nullptr;
  const Tensor *dSP = s.withDFinal ? &dS : nullptr;

  auto loss = [&] {
    ScanResult r = ssd(x, logA, b, c, initP);
    return (dyP ? dot(r.out, dy) : 0.0) + (dSP ? dot(r.finalState, dS) : 0.0);
  };
  SsdGradients g = ssdGradients(x, logA, b, c, initP, dyP, dSP);
  double errs[5] = {finiteDifferenceError(x, g.dx, loss),
                    finiteDifferenceError(logA, g.dlogA, loss),
                    finiteDifferenceError(b, g.db, loss),
                    finiteDifferenceError(c, g.dc, loss),
                    s.withInit ? finiteDifferenceError(init, g.dinit, loss)
                               : 0.0};
  std::printf("ssd gradients L=%lld H=%lld G=%lld init=%d dy=%d dS=%d: "
              "relative error dx %.2g dlog_a %.2g db %.2g dc %.2g dinit %.2g\n",
              (long long)s.L, (long long)s.H, (long long)s.G, s.withInit,
              s.withDy, s.withDFinal, errs[0], errs[1], errs[2], errs[3],
              errs[4]);
  for (double e : errs)
    EXPECT_LE(e, kTolerance);
  if (!s.withInit)
    EXPECT_EQ(g.dinit.numel(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SsdGradientsTest,
    ::testing::Values(SsdCase{1, 5, 2, 3, 1, 2, true, true, true, -1.0},
                      SsdCase{2, 4, 4, 2, 2, 3, false, true, false, -1.0},
                      SsdCase{1, 1, 2, 2, 2, 2, true, true, true, -1.0},
                      SsdCase{1, 6, 2, 2, 1, 3, true, false, true, -10.0},
                      SsdCase{1, 6, 3, 2, 3, 2, false, true, true, -10.0}));

/// The identity the compiled backward computes dlog_a with (G = H, so the
/// per-head dc and db are dc and db):
/// dlog_a_k = sum_{t>=k} (<dc_t, c_t> - <db_t, b_t>) + <dS, S_{L-1}>.
TEST(SsdGradientsIdentity, DecayGradientFromDbDc) {
  int64_t B = 1, L = 9, H = 2, P = 3, N = 4;
  Rng rng(5);
  Tensor x = rng.uniformTensor({B, L, H, P}, -1, 1);
  Tensor logA = rng.uniformTensor({B, L, H}, -2, 0);
  Tensor b = rng.uniformTensor({B, L, H, N}, -1, 1);
  Tensor c = rng.uniformTensor({B, L, H, N}, -1, 1);
  Tensor init = rng.uniformTensor({B, H, P, N}, -1, 1);
  Tensor dy = rng.uniformTensor({B, L, H, P}, -1, 1);
  Tensor dS = rng.uniformTensor({B, H, P, N}, -1, 1);
  ScanResult fwd = ssd(x, logA, b, c, &init);
  SsdGradients g = ssdGradients(x, logA, b, c, &init, &dy, &dS);
  double maxErr = 0.0;
  for (int64_t h = 0; h < H; ++h) {
    double finalTerm = 0.0;
    for (int64_t i = 0; i < P * N; ++i)
      finalTerm += dS[h * P * N + i] * fwd.finalState[h * P * N + i];
    double suffix = 0.0;
    for (int64_t k = L - 1; k >= 0; --k) {
      for (int64_t n = 0; n < N; ++n)
        suffix += g.dc.at({0, k, h, n}) * c.at({0, k, h, n}) -
                  g.db.at({0, k, h, n}) * b.at({0, k, h, n});
      maxErr = std::max(maxErr,
                        std::abs(suffix + finalTerm - g.dlogA.at({0, k, h})));
    }
  }
  std::printf("ssd dlog_a identity: max abs error %.2g\n", maxErr);
  EXPECT_LE(maxErr, 1e-12);
}

struct LinearAttentionCase {
  int64_t B, L, H, Dk, Dv, window;
  bool withDecay, withInit, withDFinal;
};

class LinearAttentionGradientsTest
    : public ::testing::TestWithParam<LinearAttentionCase> {};

TEST_P(LinearAttentionGradientsTest, MatchesFiniteDifferences) {
  const LinearAttentionCase &s = GetParam();
  const double scale = 0.7;
  Rng rng(11);
  Tensor q = rng.uniformTensor({s.B, s.L, s.H, s.Dk}, -1, 1);
  Tensor k = rng.uniformTensor({s.B, s.L, s.H, s.Dk}, -1, 1);
  Tensor v = rng.uniformTensor({s.B, s.L, s.H, s.Dv}, -1, 1);
  Tensor ld = rng.uniformTensor({s.B, s.L, s.H}, -2, -0.01);
  Tensor init = rng.uniformTensor({s.B, s.H, s.Dk, s.Dv}, -1, 1);
  Tensor dout = rng.uniformTensor({s.B, s.L, s.H, s.Dv}, -1, 1);
  Tensor dS = rng.uniformTensor({s.B, s.H, s.Dk, s.Dv}, -1, 1);
  const Tensor *ldP = s.withDecay ? &ld : nullptr;
  const Tensor *initP = s.withInit ? &init : nullptr;
  const Tensor *dSP = s.withDFinal ? &dS : nullptr;

  auto loss = [&] {
    ScanResult r = linearAttention(q, k, v, ldP, initP, s.window, scale);
    return dot(r.out, dout) + (dSP ? dot(r.finalState, dS) : 0.0);
  };
  LinearAttentionGradients g = linearAttentionGradients(
      q, k, v, ldP, initP, s.window, scale, &dout, dSP);
  double errs[5] = {
      finiteDifferenceError(q, g.dq, loss), finiteDifferenceError(k, g.dk, loss),
      finiteDifferenceError(v, g.dv, loss),
      s.withDecay ? finiteDifferenceError(ld, g.dlogDecay, loss) : 0.0,
      s.withInit ? finiteDifferenceError(init, g.dinit, loss) : 0.0};
  std::printf("linear_attention gradients L=%lld window=%lld decay=%d "
              "init=%d dS=%d: relative error dq %.2g dk %.2g dv %.2g "
              "dlog_decay %.2g dinit %.2g\n",
              (long long)s.L, (long long)s.window, s.withDecay, s.withInit,
              s.withDFinal, errs[0], errs[1], errs[2], errs[3], errs[4]);
  for (double e : errs)
    EXPECT_LE(e, kTolerance);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LinearAttentionGradientsTest,
    ::testing::Values(
        LinearAttentionCase{1, 6, 2, 3, 2, 0, true, true, true},
        LinearAttentionCase{2, 5, 1, 2, 3, 0, false, false, false},
        LinearAttentionCase{1, 7, 2, 2, 3, 2, true, true, true},
        LinearAttentionCase{1, 3, 1, 2, 2, 4, true, true, false},
        LinearAttentionCase{1, 1, 2, 2, 2, 0, true, true, true}));

} // namespace
