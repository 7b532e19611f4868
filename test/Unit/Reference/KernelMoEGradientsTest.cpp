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

} // namespace
