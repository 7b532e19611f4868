//===- RecurrentGradientsTest.cpp - reference gradients by finite differences -===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// The reference gradients of selective_scan and gated_delta_rule against
// central finite differences of the reference forward, on small random
// shapes. The loss is <dy, y> + <dFinal, final state> for random cotangents;
// every element of every input is perturbed. Each case prints the largest
// relative error max|analytic - fd| / max|fd| over each input.
//
//===----------------------------------------------------------------------===//

#include "mixer/Reference/RecurrentGradients.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

using namespace mixer::ref;

namespace {

/// <a, b> over all elements.
double dot(const Tensor &a, const Tensor &b) {
  double sum = 0.0;
  for (int64_t i = 0; i < a.numel(); ++i)
    sum += a[i] * b[i];
  return sum;
}

/// Compares `analytic` with the central difference of `loss` in every
/// element of `input`; prints and returns the relative error.
double checkGradient(const std::string &what, Tensor &input,
                     const Tensor &analytic,
                     const std::function<double()> &loss) {
  EXPECT_EQ(analytic.shape, input.shape) << what;
  const double h = 1e-6;
  double maxDiff = 0.0, maxRef = 0.0;
  for (int64_t i = 0; i < input.numel(); ++i) {
    double saved = input[i];
    input[i] = saved + h;
    double up = loss();
    input[i] = saved - h;
    double down = loss();
    input[i] = saved;
    double fd = (up - down) / (2 * h);
    maxDiff = std::max(maxDiff, std::fabs(fd - analytic[i]));
    maxRef = std::max(maxRef, std::fabs(fd));
  }
  double err = maxRef > 0 ? maxDiff / maxRef : maxDiff;
  std::printf("  d%-10s relative error %.3g (max |grad| %.3g)\n", what.c_str(),
              err, maxRef);
  // A gradient that is identically zero would make the check vacuous.
  EXPECT_GT(maxRef, 0.0) << what;
  EXPECT_LE(err, 1e-6) << what;
  return err;
}

struct SsCase {
  int64_t B, L, D, G, N;
  bool dSkip, z, bias, init, softplus, dy, dFinal;
  /// delta over [-25, 25]: both softplus branches.
  bool wideDelta = false;
};

class SelectiveScanGradient : public ::testing::TestWithParam<SsCase> {};

TEST_P(SelectiveScanGradient, MatchesFiniteDifferences) {
  const SsCase &c = GetParam();
  Rng rng(7);
  Tensor u = rng.uniformTensor({c.B, c.L, c.D}, -1.0, 1.0);
  Tensor delta = c.wideDelta
                     ? rng.uniformTensor({c.B, c.L, c.D}, -25.0, 25.0)
                     : rng.uniformTensor({c.B, c.L, c.D}, c.softplus ? -3 : 0.01,
                                         c.softplus ? 1.0 : 0.3);
  Tensor A = rng.uniformTensor({c.D, c.N}, -2.0, -0.1);
  Tensor b = rng.uniformTensor({c.B, c.L, c.G, c.N}, -1.0, 1.0);
  Tensor cc = rng.uniformTensor({c.B, c.L, c.G, c.N}, -1.0, 1.0);
  Tensor dSkip = rng.uniformTensor({c.D}, -1.0, 1.0);
  Tensor z = rng.uniformTensor({c.B, c.L, c.D}, -3.0, 3.0);
  Tensor bias = rng.uniformTensor({c.D}, -0.3, 0.3);
  Tensor init = rng.uniformTensor({c.B, c.D, c.N}, -1.0, 1.0);
  Tensor dy = rng.uniformTensor({c.B, c.L, c.D}, -1.0, 1.0);
  Tensor dFinal = rng.uniformTensor({c.B, c.D, c.N}, -1.0, 1.0);
  if (c.wideDelta) // Keep the deltas away from the softplus switch at 20.
    for (double &x : delta.data)
      if (std::fabs(x - 20.0) < 1e-3)
        x = 19.0;

  SelectiveScanOptions opts;
  opts.dSkip = c.dSkip ? &dSkip : nullptr;
  opts.z = c.z ? &z : nullptr;
  opts.deltaBias = c.bias ? &bias : nullptr;
  opts.init = c.init ? &init : nullptr;
  opts.deltaSoftplus = c.softplus;
  const Tensor *dyP = c.dy ? &dy : nullptr;
  const Tensor *dFinalP = c.dFinal ? &dFinal : nullptr;
  auto loss = [&] {
    ScanResult r = selectiveScan(u, delta, A, b, cc, opts);
    return (dyP ? dot(*dyP, r.out) : 0.0) +
           (dFinalP ? dot(*dFinalP, r.finalState) : 0.0);
  };
  SelectiveScanGrads grads =
      selectiveScanVjp(u, delta, A, b, cc, opts, dyP, dFinalP);
  std::printf("selective_scan B%lld L%lld D%lld G%lld N%lld:\n",
              (long long)c.B, (long long)c.L, (long long)c.D, (long long)c.G,
              (long long)c.N);
  checkGradient("u", u, grads.u, loss);
  checkGradient("delta", delta, grads.delta, loss);
  checkGradient("A", A, grads.A, loss);
  checkGradient("b", b, grads.b, loss);
  // Without dy the output, hence c and z, gets no gradient.
  if (c.dy)
    checkGradient("c", cc, grads.c, loss);
  if (c.dSkip)
    checkGradient("D_skip", dSkip, grads.dSkip, loss);
  if (c.z && c.dy)
    checkGradient("z", z, grads.z, loss);
  if (c.bias)
    checkGradient("delta_bias", bias, grads.deltaBias, loss);
  if (c.init)
    checkGradient("init", init, grads.init, loss);
}

INSTANTIATE_TEST_SUITE_P(
    Reference, SelectiveScanGradient,
    ::testing::Values(
        // Everything, G < D.
        SsCase{2, 5, 4, 2, 3, true, true, true, true, true, true, true},
        // Nothing optional, no softplus, only the output cotangent.
        SsCase{1, 6, 3, 1, 2, false, false, false, false, false, true, false},
        // Only the final-state cotangent (no dy: c and z get no gradient).
        SsCase{1, 4, 2, 1, 3, false, false, true, true, true, false, true},
        // One token.
        SsCase{2, 1, 2, 2, 2, true, true, true, true, true, true, true},
        // Both softplus branches.
        SsCase{1, 6, 3, 1, 2, true, true, true, true, true, true, true,
               true}));

struct GdrCase {
  int64_t B, L, H, Dk, Dv;
  bool init, dO, dFinal;
  double scale;
};

class GatedDeltaRuleGradient : public ::testing::TestWithParam<GdrCase> {};

TEST_P(GatedDeltaRuleGradient, MatchesFiniteDifferences) {
  const GdrCase &c = GetParam();
  Rng rng(11);
  Tensor q = rng.uniformTensor({c.B, c.L, c.H, c.Dk}, -1.0, 1.0);
  Tensor k = rng.uniformTensor({c.B, c.L, c.H, c.Dk}, -0.6, 0.6);
  Tensor v = rng.uniformTensor({c.B, c.L, c.H, c.Dv}, -1.0, 1.0);
  Tensor g = rng.uniformTensor({c.B, c.L, c.H}, -1.0, -0.01);
  Tensor beta = rng.uniformTensor({c.B, c.L, c.H}, 0.1, 1.0);
  Tensor init = rng.uniformTensor({c.B, c.H, c.Dk, c.Dv}, -1.0, 1.0);
  Tensor dO = rng.uniformTensor({c.B, c.L, c.H, c.Dv}, -1.0, 1.0);
  Tensor dFinal = rng.uniformTensor({c.B, c.H, c.Dk, c.Dv}, -1.0, 1.0);
  const Tensor *initP = c.init ? &init : nullptr;
  const Tensor *dOP = c.dO ? &dO : nullptr;
  const Tensor *dFinalP = c.dFinal ? &dFinal : nullptr;
  auto loss = [&] {
    ScanResult r = gatedDeltaRule(q, k, v, g, beta, initP, c.scale);
    return (dOP ? dot(*dOP, r.out) : 0.0) +
           (dFinalP ? dot(*dFinalP, r.finalState) : 0.0);
  };
  GatedDeltaRuleGrads grads =
      gatedDeltaRuleVjp(q, k, v, g, beta, initP, c.scale, dOP, dFinalP);
  std::printf("gated_delta_rule B%lld L%lld H%lld Dk%lld Dv%lld:\n",
              (long long)c.B, (long long)c.L, (long long)c.H, (long long)c.Dk,
              (long long)c.Dv);
  if (c.dO)
    checkGradient("q", q, grads.q, loss);
  checkGradient("k", k, grads.k, loss);
  checkGradient("v", v, grads.v, loss);
  checkGradient("g", g, grads.g, loss);
  checkGradient("beta", beta, grads.beta, loss);
  if (c.init)
    checkGradient("init", init, grads.init, loss);
}

INSTANTIATE_TEST_SUITE_P(
    Reference, GatedDeltaRuleGradient,
    ::testing::Values(GdrCase{2, 5, 2, 3, 4, true, true, true, 0.5},
                      GdrCase{1, 6, 1, 4, 2, false, true, false, 1.0},
                      GdrCase{1, 4, 2, 2, 3, true, false, true, 1.0},
                      GdrCase{1, 1, 1, 3, 3, true, true, true, 0.7}));

} // namespace
