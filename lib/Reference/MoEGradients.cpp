//===- MoEGradients.cpp - fp64 gradients of the MoE ops -------------------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// grouped_matmul, grouped_swiglu and moe_combine backward as plain loops
// over the groups and rows, from the definitions (see the header).
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "mixer/Reference/KernelMoEGradients.h"

#include <cmath>

using namespace mixer::ref;
using detail::check;

GroupedMatmulGradients
mixer::ref::groupedMatmulBackward(const Tensor &lhs, const Tensor &rhs,
                                  const std::vector<int64_t> &groupSizes,
                                  const Tensor &dout) {
  const char *fn = "groupedMatmulBackward";
  auto [T, K, E, N, offsets] =
      detail::checkGroupedOperands(fn, "lhs", lhs, "rhs", rhs, groupSizes);
  detail::checkShape(fn, "dout", dout, {T, N});
  GroupedMatmulGradients grads{Tensor({T, K}), Tensor({E, K, N})};
  for (int64_t e = 0; e < E; ++e)
    for (int64_t r = offsets[e]; r < offsets[e] + groupSizes[e]; ++r)
      for (int64_t k = 0; k < K; ++k)
        for (int64_t n = 0; n < N; ++n) {
          double w = rhs[(e * K + k) * N + n], d = dout[r * N + n];
          grads.dlhs[r * K + k] += d * w;
          grads.drhs[(e * K + k) * N + n] += lhs[r * K + k] * d;
        }
  return grads;
}

GroupedSwigluGradients
mixer::ref::groupedSwigluBackward(const Tensor &x, const Tensor &wGate,
                                  const Tensor &wUp,
                                  const std::vector<int64_t> &groupSizes,
                                  const Tensor &dout) {
  const char *fn = "groupedSwigluBackward";
  auto [T, K, E, F, offsets] =
      detail::checkGroupedOperands(fn, "x", x, "w_gate", wGate, groupSizes);
  detail::checkShape(fn, "w_up", wUp, {E, K, F});
  detail::checkShape(fn, "dout", dout, {T, F});
  GroupedSwigluGradients grads{Tensor({T, K}), Tensor({E, K, F}),
                               Tensor({E, K, F})};
  std::vector<double> dgate(F), dup(F);
  for (int64_t e = 0; e < E; ++e)
    for (int64_t r = offsets[e]; r < offsets[e] + groupSizes[e]; ++r) {
      for (int64_t f = 0; f < F; ++f) {
        double gate = 0.0, up = 0.0;
        for (int64_t k = 0; k < K; ++k) {
          gate += x[r * K + k] * wGate[(e * K + k) * F + f];
          up += x[r * K + k] * wUp[(e * K + k) * F + f];
        }
        // silu(z) = z s(z), silu'(z) = s(z) (1 + z (1 - s(z))).
        double sig = 1.0 / (1.0 + std::exp(-gate));
        double d = dout[r * F + f];
        dgate[f] = d * up * sig * (1.0 + gate * (1.0 - sig));
        dup[f] = d * gate * sig;
      }
      for (int64_t k = 0; k < K; ++k)
        for (int64_t f = 0; f < F; ++f) {
          int64_t w = (e * K + k) * F + f;
          grads.dx[r * K + k] += dgate[f] * wGate[w] + dup[f] * wUp[w];
          grads.dwGate[w] += x[r * K + k] * dgate[f];
          grads.dwUp[w] += x[r * K + k] * dup[f];
        }
    }
  return grads;
}

MoeCombineGradients
mixer::ref::moeCombineBackward(const Tensor &expertOut,
                               const std::vector<int32_t> &permutation,
                               const Tensor &weights, const Tensor &dout) {
  const char *fn = "moeCombineBackward";
  detail::checkRank(fn, "weights", weights, 2);
  detail::checkRank(fn, "expert_out", expertOut, 2);
  int64_t T = weights.dim(0), k = weights.dim(1), N = expertOut.dim(1);
  detail::checkShape(fn, "expert_out", expertOut, {T * k, N});
  detail::checkShape(fn, "dout", dout, {T, N});
  check(static_cast<int64_t>(permutation.size()) == T * k, fn,
        "argument 'permutation' must have T*k values");
  MoeCombineGradients grads{Tensor({T * k, N}), Tensor({T, k})};
  for (int64_t r = 0; r < T * k; ++r) {
    int64_t a = permutation[r];
    check(0 <= a && a < T * k, fn, "argument 'permutation' is out of range");
    int64_t t = a / k;
    for (int64_t n = 0; n < N; ++n) {
      grads.dExpertOut[r * N + n] = weights[a] * dout[t * N + n];
      grads.dWeights[a] += dout[t * N + n] * expertOut[r * N + n];
    }
  }
  return grads;
}
