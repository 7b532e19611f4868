//===- KernelMoEGradientsTest.cpp - the reference gradients by finite differences ===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// Every gradient of KernelMoEGradients.h against central finite differences
// of the forward reference: for the loss L = <dout, f(inputs)> with a random
// cotangent dout, dL/dp ~ (L(p + h) - L(p - h)) / (2h) for every element p
// of every input, on small random shapes. Prints the largest relative error
// of each gradient.
//
//===----------------------------------------------------------------------===//

#include "TestHelpers.h"
#include "mixer/Reference/KernelMoEGradients.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

using namespace mixer::ref;
using namespace mixer::ref::test;

namespace {

/// Central differences in fp64 leave about h^2 plus 1e-16 / h of error.
constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-6;

double dot(const Tensor &a, const Tensor &b) {
  double sum = 0.0;
  for (int64_t i = 0; i < a.numel(); ++i)
    sum += a[i] * b[i];
  return sum;
}

/// max |fd - analytic| / max |analytic| over the elements of `param`, with
/// fd the central difference of `loss` in each element.
double finiteDifferenceError(Tensor &param, const std::function<double()> &loss,
                             const Tensor &analytic) {
  EXPECT_EQ(param.shape, analytic.shape);
  double maxErr = 0.0, maxRef = 0.0;
  for (int64_t i = 0; i < param.numel(); ++i) {
    double saved = param[i];
    param[i] = saved + kStep;
    double up = loss();
    param[i] = saved - kStep;
    double down = loss();
    param[i] = saved;
    double fd = (up - down) / (2.0 * kStep);
    maxErr = std::max(maxErr, std::abs(fd - analytic[i]));
    maxRef = std::max(maxRef, std::abs(analytic[i]));
  }
  return maxRef > 0.0 ? maxErr / maxRef : maxErr;
}

/// Checks and prints the error of one gradient.
void expectGradient(const std::string &what, Tensor &param,
                    const std::function<double()> &loss,
                    const Tensor &analytic) {
  double err = finiteDifferenceError(param, loss, analytic);
  std::printf("%-40s finite-difference relative error %.3g\n", what.c_str(),
              err);
  EXPECT_LE(err, kTolerance) << what;
}

/// The same for a scalar parameter.
void expectScalarGradient(const std::string &what, double &param,
                          const std::function<double()> &loss,
                          double analytic) {
  Tensor t({1}, param), a({1}, analytic);
  std::function<double()> wrapped = [&] {
    param = t[0];
    return loss();
  };
  expectGradient(what, t, wrapped, a);
  param = t[0];
}

const Kernel kAllKernels[] = {Kernel::Gaussian, Kernel::Laplacian,
                              Kernel::Matern32, Kernel::InverseMultiquadric,
                              Kernel::Linear};
const Kernel kCosts[] = {Kernel::SqEuclidean, Kernel::Gaussian,
                         Kernel::Laplacian};

std::vector<int64_t> shapeOf(bool batched, std::vector<int64_t> dims) {
  if (batched)
    dims.insert(dims.begin(), 2);
  return dims;
}

TEST(KernelMvBackwardTest, MatchesFiniteDifferences) {
  Rng rng(11);
  for (bool batched : {false, true})
    for (Kernel kind : kAllKernels) {
      int64_t N = 3, M = 4, D = 2, C = 2;
      Tensor x = rng.uniformTensor(shapeOf(batched, {N, D}), -1.0, 1.0);
      Tensor y = rng.uniformTensor(shapeOf(batched, {M, D}), -1.0, 1.0);
      Tensor v = rng.uniformTensor(shapeOf(batched, {M, C}), -1.0, 1.0);
      Tensor dout = rng.uniformTensor(shapeOf(batched, {N, C}), -1.0, 1.0);
      double h = 0.8;
      KernelMvGradients grads = kernelMvBackward(kind, x, y, v, h, dout);
      auto loss = [&] { return dot(dout, kernelMv(kind, x, y, v, h)); };
      std::string name = std::string(kernelName(kind)) +
                         (batched ? " batched" : "") + " kernel_mv";
      expectGradient(name + " dx", x, loss, grads.dx);
      expectGradient(name + " dy", y, loss, grads.dy);
      expectGradient(name + " dv", v, loss, grads.dv);
      expectScalarGradient(name + " dbandwidth", h, loss, grads.dBandwidth);
      if (kind == Kernel::Linear)
        EXPECT_EQ(grads.dBandwidth, 0.0);
    }
}

TEST(KernelLseBackwardTest, MatchesFiniteDifferences) {
  Rng rng(12);
  for (bool batched : {false, true})
    for (bool withG : {false, true})
      for (Kernel kind : kCosts) {
        int64_t N = 3, M = 5, D = 3;
        Tensor x = rng.uniformTensor(shapeOf(batched, {N, D}), -1.0, 1.0);
        Tensor y = rng.uniformTensor(shapeOf(batched, {M, D}), -1.0, 1.0);
        Tensor g = rng.uniformTensor(shapeOf(batched, {M}), -1.0, 1.0);
        Tensor dout = rng.uniformTensor(shapeOf(batched, {N}), -1.0, 1.0);
        double eps = 0.3;
        const Tensor *gp = withG ? &g : nullptr;
        KernelLseGradients grads = kernelLseBackward(kind, x, y, gp, eps, dout);
        auto loss = [&] { return dot(dout, kernelLse(kind, x, y, &g, eps)); };
        std::string name = std::string(kernelName(kind)) +
                           (batched ? " batched" : "") +
                           (withG ? " with g" : "") + " kernel_lse";
        if (!withG)
          std::fill(g.data.begin(), g.data.end(), 0.0);
        expectGradient(name + " dx", x, loss, grads.dx);
        expectGradient(name + " dy", y, loss, grads.dy);
        expectGradient(name + " dg", g, loss, grads.dg);
      }
}

TEST(GroupedMatmulBackwardTest, MatchesFiniteDifferencesWithEmptyGroups) {
  Rng rng(13);
  // An empty middle group and one row past the sum.
  std::vector<int64_t> sizes = {2, 0, 3};
  Tensor lhs = rng.uniformTensor({6, 4}, -1.0, 1.0);
  Tensor rhs = rng.uniformTensor({3, 4, 5}, -1.0, 1.0);
  Tensor dout = rng.uniformTensor({6, 5}, -1.0, 1.0);
  GroupedMatmulGradients grads = groupedMatmulBackward(lhs, rhs, sizes, dout);
  auto loss = [&] { return dot(dout, groupedMatmul(lhs, rhs, sizes)); };
  expectGradient("grouped_matmul dlhs", lhs, loss, grads.dlhs);
  expectGradient("grouped_matmul drhs", rhs, loss, grads.drhs);
  // The row past the groups and the empty group get exact zeros.
  for (int64_t k = 0; k < 4; ++k)
    EXPECT_EQ(grads.dlhs.at({5, k}), 0.0);
  for (int64_t i = 0; i < 4 * 5; ++i)
    EXPECT_EQ(grads.drhs[4 * 5 + i], 0.0);
}

TEST(GroupedSwigluBackwardTest, MatchesFiniteDifferencesWithEmptyGroups) {
  Rng rng(14);
  std::vector<int64_t> sizes = {0, 3, 2};
  Tensor x = rng.uniformTensor({6, 4}, -1.0, 1.0);
  Tensor wGate = rng.uniformTensor({3, 4, 5}, -1.5, 1.5);
  Tensor wUp = rng.uniformTensor({3, 4, 5}, -1.0, 1.0);
  Tensor dout = rng.uniformTensor({6, 5}, -1.0, 1.0);
  GroupedSwigluGradients grads =
      groupedSwigluBackward(x, wGate, wUp, sizes, dout);
  auto loss = [&] { return dot(dout, groupedSwiglu(x, wGate, wUp, sizes)); };
  expectGradient("grouped_swiglu dx", x, loss, grads.dx);
  expectGradient("grouped_swiglu dw_gate", wGate, loss, grads.dwGate);
  expectGradient("grouped_swiglu dw_up", wUp, loss, grads.dwUp);
}

TEST(MoeCombineBackwardTest, MatchesFiniteDifferences) {
  Rng rng(15);
  int64_t T = 3, k = 2, N = 4;
  std::vector<int32_t> perm = {3, 0, 5, 1, 4, 2};
  Tensor expertOut = rng.uniformTensor({T * k, N}, -1.0, 1.0);
  Tensor weights = rng.uniformTensor({T, k}, 0.0, 1.0);
  Tensor dout = rng.uniformTensor({T, N}, -1.0, 1.0);
  MoeCombineGradients grads =
      moeCombineBackward(expertOut, perm, weights, dout);
  auto loss = [&] { return dot(dout, moeCombine(expertOut, perm, weights)); };
  expectGradient("moe_combine d_expert_out", expertOut, loss,
                 grads.dExpertOut);
  expectGradient("moe_combine d_weights", weights, loss, grads.dWeights);
}

/// Log-weights of random probability weights (sum exp = 1), so that the
/// transport problem balances.
Tensor randomLogWeights(Rng &rng, int64_t n) {
  Tensor w = rng.uniformTensor({n}, 0.5, 1.5);
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i)
    sum += w[i];
  for (int64_t i = 0; i < n; ++i)
    w[i] = std::log(w[i] / sum);
  return w;
}

/// A random direction v of log-weight changes that keeps sum exp(logW)
/// fixed to first order: sum_i exp(logW_i) v_i = 0.
Tensor massPreservingDirection(Rng &rng, const Tensor &logW) {
  Tensor v = rng.uniformTensor(logW.shape, -1.0, 1.0);
  double av = 0.0, aa = 0.0;
  for (int64_t i = 0; i < v.numel(); ++i) {
    double a = std::exp(logW[i]);
    av += a * v[i];
    aa += a * a;
  }
  for (int64_t i = 0; i < v.numel(); ++i)
    v[i] -= std::exp(logW[i]) * av / aa;
  return v;
}

/// logW + h v, renormalized so that sum exp stays exactly what it was.
Tensor movedLogWeights(const Tensor &logW, const Tensor &v, double h) {
  Tensor moved = logW;
  double before = 0.0, after = 0.0;
  for (int64_t i = 0; i < logW.numel(); ++i) {
    before += std::exp(logW[i]);
    after += std::exp(logW[i] + h * v[i]);
  }
  for (int64_t i = 0; i < logW.numel(); ++i)
    moved[i] = logW[i] + h * v[i] - std::log(after / before);
  return moved;
}

// The envelope gradient of OT = <a, f> + <b, g> at converged potentials
// against central differences of that value (Sinkhorn rerun to convergence
// at every moved input): elementwise for x and y; for the log-weights, on
// which OT depends only along changes that keep the masses balanced, along
// random such directions (the error relative to |grad| |v|).
TEST(SinkhornBackwardTest, MatchesFiniteDifferencesOfTheOTValue) {
  Rng rng(16);
  for (Kernel kind : kCosts)
    for (double eps : {0.5, 2.0}) {
      int64_t N = 4, M = 5, D = 2, iterations = 3000;
      Tensor x = rng.uniformTensor({N, D}, -1.0, 1.0);
      Tensor y = rng.uniformTensor({M, D}, -1.0, 1.0);
      Tensor logA = randomLogWeights(rng, N), logB = randomLogWeights(rng, M);
      double dCost = 1.7;
      auto value = [&](const Tensor &la, const Tensor &lb) {
        SinkhornResult r = sinkhorn(kind, x, y, la, lb, eps, iterations);
        double ot = 0.0;
        for (int64_t i = 0; i < N; ++i)
          ot += std::exp(la[i]) * r.f[i];
        for (int64_t j = 0; j < M; ++j)
          ot += std::exp(lb[j]) * r.g[j];
        return dCost * ot;
      };
      auto loss = [&] { return value(logA, logB); };
      SinkhornResult fwd = sinkhorn(kind, x, y, logA, logB, eps, iterations);
      SinkhornGradients grads = sinkhornBackward(kind, x, y, logA, logB, eps,
                                                 fwd.f, fwd.g, dCost);
      std::string name = std::string(kernelName(kind)) + " eps " +
                         std::to_string(eps).substr(0, 3) + " sinkhorn";
      expectGradient(name + " dx", x, loss, grads.dx);
      expectGradient(name + " dy", y, loss, grads.dy);

      auto directional = [&](const std::string &what, bool onA) {
        const Tensor &logW = onA ? logA : logB;
        const Tensor &grad = onA ? grads.dlogA : grads.dlogB;
        for (int trial = 0; trial < 3; ++trial) {
          Tensor v = massPreservingDirection(rng, logW);
          auto at = [&](double h) {
            Tensor moved = movedLogWeights(logW, v, h);
            return onA ? value(moved, logB) : value(logA, moved);
          };
          double fd = (at(kStep) - at(-kStep)) / (2.0 * kStep);
          double analytic = dot(grad, v);
          double scale = std::sqrt(dot(grad, grad) * dot(v, v));
          double err = std::abs(fd - analytic) / scale;
          std::printf("%-40s finite-difference relative error %.3g\n",
                      (name + " " + what).c_str(), err);
          EXPECT_LE(err, kTolerance) << name << " " << what;
        }
      };
      directional("dlog_a (mass-preserving)", true);
      directional("dlog_b (mass-preserving)", false);
    }
}

// The envelope gradient is that of OT, not of sum_ij P_ij C_ij (the
// forward's transport_cost), which leaves out eps KL(P | a b^T): their x
// gradients differ by far more than the tolerance.
TEST(SinkhornBackwardTest, IsNotTheGradientOfThePlanCost) {
  Rng rng(17);
  int64_t N = 4, M = 5, D = 2, iterations = 3000;
  double eps = 0.5;
  Tensor x = rng.uniformTensor({N, D}, -1.0, 1.0);
  Tensor y = rng.uniformTensor({M, D}, -1.0, 1.0);
  Tensor logA = randomLogWeights(rng, N), logB = randomLogWeights(rng, M);
  SinkhornResult fwd =
      sinkhorn(Kernel::SqEuclidean, x, y, logA, logB, eps, iterations);
  SinkhornGradients grads = sinkhornBackward(Kernel::SqEuclidean, x, y, logA,
                                             logB, eps, fwd.f, fwd.g, 1.0);
  auto planCost = [&] {
    return sinkhorn(Kernel::SqEuclidean, x, y, logA, logB, eps, iterations)
        .cost;
  };
  double err = finiteDifferenceError(x, planCost, grads.dx);
  std::printf("sinkhorn dx against d(sum P C)/dx: relative difference %.3g\n",
              err);
  EXPECT_GT(err, 1e-2);
}

} // namespace
