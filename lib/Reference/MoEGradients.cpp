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

/// The first row of every group, after checking that the sizes are E
/// non-negative counts summing to at most T.
static std::vector<int64_t> offsetsOf(const char *fn,
                                      const std::vector<int64_t> &sizes,
                                      int64_t E, int64_t T) {
  check(static_cast<int64_t>(sizes.size()) == E, fn,
        "argument 'group_sizes' must have E values");
  std::vector<int64_t> offsets(E);
  int64_t sum = 0;
  for (int64_t e = 0; e < E; ++e) {
    check(sizes[e] >= 0, fn, "argument 'group_sizes' has a negative size");
    offsets[e] = sum;
    sum += sizes[e];
  }
  check(sum <= T, fn, "argument 'group_sizes' sums past T");
  return offsets;
}

GroupedMatmulGradients
mixer::ref::groupedMatmulBackward(const Tensor &lhs, const Tensor &rhs,
                                  const std::vector<int64_t> &groupSizes,
                                  const Tensor &dout) {
  const char *fn = "groupedMatmulBackward";
  detail::checkRank(fn, "lhs", lhs, 2);
  detail::checkRank(fn, "rhs", rhs, 3);
  int64_t T = lhs.dim(0), K = lhs.dim(1), E = rhs.dim(0), N = rhs.dim(2);
  detail::checkShape(fn, "rhs", rhs, {E, K, N});
  detail::checkShape(fn, "dout", dout, {T, N});
  std::vector<int64_t> offsets = offsetsOf(fn, groupSizes, E, T);
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
  detail::checkRank(fn, "x", x, 2);
  detail::checkRank(fn, "w_gate", wGate, 3);
  int64_t T = x.dim(0), K = x.dim(1), E = wGate.dim(0), F = wGate.dim(2);
  detail::checkShape(fn, "w_gate", wGate, {E, K, F});
  detail::checkShape(fn, "w_up", wUp, {E, K, F});
  detail::checkShape(fn, "dout", dout, {T, F});
  std::vector<int64_t> offsets = offsetsOf(fn, groupSizes, E, T);
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
