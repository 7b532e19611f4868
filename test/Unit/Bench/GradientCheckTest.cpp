//===- GradientCheckTest.cpp - the finite-difference gradient check -------===//
//
// The check of --grad-check fd on grouped_swiglu at the bench's input
// scales (x in [-1, 1), weights in +-1/sqrt(K)), with the fp64 reference
// as the forward: the reference gradient must pass to well below the
// tolerance (a plain central difference with a step of 0.01 along a
// direction in [-1, 1) is 4e-2 off here) and a gradient 5% wrong must not.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "mixer/Reference/KernelMoEGradients.h"
#include "mixer/Reference/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>

using namespace mixer::bench;
namespace ref = ::mixer::ref;

namespace {
std::vector<float> toFloat(const ref::Tensor &t) {
  return std::vector<float>(t.data.begin(), t.data.end());
}

ref::Tensor toTensor(const std::vector<float> &v,
                     const std::vector<int64_t> &shape) {
  ref::Tensor t(shape);
  std::copy(v.begin(), v.end(), t.data.begin());
  return t;
}

struct SwigluProblem {
  int64_t T = 96, K = 256, F = 64, E = 4;
  std::vector<int64_t> sizes = {40, 0, 31, 25};
  std::vector<float> x, wg, wu;
  ref::Tensor dout;
  ref::GroupedSwigluGradients grads;

  /// `gateScale` scales x: 4 drives the gates far into silu's tails.
  explicit SwigluProblem(double gateScale) {
    ref::Rng rng(5);
    double w = 1.0 / std::sqrt(double(K));
    x = toFloat(rng.uniformTensor({T, K}, -gateScale, gateScale));
    wg = toFloat(rng.uniformTensor({E, K, F}, -w, w));
    wu = toFloat(rng.uniformTensor({E, K, F}, -w, w));
    dout = rng.uniformTensor({T, F}, -1, 1);
    grads = ref::groupedSwigluBackward(toTensor(x, {T, K}),
                                       toTensor(wg, {E, K, F}),
                                       toTensor(wu, {E, K, F}), sizes, dout);
  }

  /// sum(dout * grouped_swiglu(x, wg, wu)) at the current inputs.
  llvm::Expected<double> loss() const {
    ref::Tensor out =
        ref::groupedSwiglu(toTensor(x, {T, K}), toTensor(wg, {E, K, F}),
                           toTensor(wu, {E, K, F}), sizes);
    double sum = 0;
    for (int64_t i = 0; i < out.numel(); ++i)
      sum += dout[i] * out[i];
    return sum;
  }

  DirectionalCheck check(const std::vector<float> &dx,
                         const std::vector<float> &dwg,
                         const std::vector<float> &dwu) {
    std::vector<CheckedInput> inputs = {{x, dx}, {wg, dwg}, {wu, dwu}};
    llvm::Expected<DirectionalCheck> result =
        checkDirectionalDerivative(inputs, [&] { return loss(); }, 11);
    EXPECT_TRUE(bool(result));
    return result ? *result : DirectionalCheck{INFINITY, INFINITY};
  }
};

class GradientCheckOfSwiglu : public ::testing::TestWithParam<double> {};

TEST_P(GradientCheckOfSwiglu, PassesTheExactGradient) {
  SwigluProblem p(GetParam());
  std::vector<float> x0 = p.x;
  DirectionalCheck check = p.check(toFloat(p.grads.dx), toFloat(p.grads.dwGate),
                                   toFloat(p.grads.dwUp));
  std::printf("grouped_swiglu gates x%g: check of the reference gradient "
              "rel_error %.2e (differences converged to %.2e)\n",
              GetParam(), check.relError, check.differenceError);
  EXPECT_LT(check.relError, 1e-4);
  EXPECT_EQ(p.x, x0) << "the inputs are restored";
}

TEST_P(GradientCheckOfSwiglu, FlagsAGradientFivePercentOff) {
  SwigluProblem p(GetParam());
  std::vector<float> dx = toFloat(p.grads.dx);
  for (float &g : dx)
    g *= 1.05f;
  DirectionalCheck check =
      p.check(dx, toFloat(p.grads.dwGate), toFloat(p.grads.dwUp));
  std::printf("grouped_swiglu gates x%g: check of dx * 1.05 rel_error %.2e\n",
              GetParam(), check.relError);
  EXPECT_GT(check.relError, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Bench, GradientCheckOfSwiglu,
                         ::testing::Values(1.0, 4.0));
} // namespace
