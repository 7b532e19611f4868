//===- MoE.cpp - Reference of the mixture-of-experts ops ------------------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// Grouped matmul, the fused SwiGLU front half, top-k routing, dispatch and
// combine, and a whole dropless MoE layer composed of them.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace mixer::ref;
using detail::check;
using detail::checkRank;
using detail::checkShape;

detail::GroupedSizes
detail::checkGroupedOperands(const char *fn, const char *xName,
                             const Tensor &x, const char *wName,
                             const Tensor &w,
                             const std::vector<int64_t> &groupSizes) {
  checkRank(fn, xName, x, 2);
  checkRank(fn, wName, w, 3);
  int64_t T = x.dim(0), K = x.dim(1), E = w.dim(0), N = w.dim(2);
  checkShape(fn, wName, w, {E, K, N});
  check(static_cast<int64_t>(groupSizes.size()) == E, fn,
        "argument 'group_sizes' has " + std::to_string(groupSizes.size()) +
            " values, expected " + std::to_string(E));
  std::vector<int64_t> offsets(E);
  int64_t sum = 0;
  for (int64_t e = 0; e < E; ++e) {
    check(groupSizes[e] >= 0, fn,
          "argument 'group_sizes' has negative size " +
              std::to_string(groupSizes[e]) + " for group " +
              std::to_string(e));
    offsets[e] = sum;
    sum += groupSizes[e];
  }
  check(sum <= T, fn,
        "argument 'group_sizes' sums to " + std::to_string(sum) +
            ", more than the " + std::to_string(T) + " rows");
  return {T, K, E, N, offsets};
}

/// out[r, :] = sum_k lhs[r, k] w[e, k, :] for the rows r of group e, with
/// lhs [T,K], w [E,K,N], out [T,N].
static void groupRowsTimes(const Tensor &lhs, const Tensor &w, int64_t e,
                           int64_t firstRow, int64_t rows, Tensor &out) {
  int64_t K = lhs.dim(1), N = w.dim(2);
  for (int64_t r = firstRow; r < firstRow + rows; ++r)
    for (int64_t n = 0; n < N; ++n) {
      double sum = 0.0;
      for (int64_t kk = 0; kk < K; ++kk)
        sum += lhs[r * K + kk] * w[(e * K + kk) * N + n];
      out[r * N + n] = sum;
    }
}

Tensor mixer::ref::groupedMatmul(const Tensor &lhs, const Tensor &rhs,
                                 const std::vector<int64_t> &groupSizes) {
  auto [T, K, E, N, offsets] = detail::checkGroupedOperands(
      "groupedMatmul", "lhs", lhs, "rhs", rhs, groupSizes);

  // Rows past the last group keep their zeros.
  Tensor out({T, N});
  for (int64_t e = 0; e < E; ++e)
    groupRowsTimes(lhs, rhs, e, offsets[e], groupSizes[e], out);
  return out;
}

Tensor mixer::ref::groupedSwiglu(const Tensor &x, const Tensor &wGate,
                                 const Tensor &wUp,
                                 const std::vector<int64_t> &groupSizes) {
  const char *fn = "groupedSwiglu";
  auto [T, K, E, F, offsets] =
      detail::checkGroupedOperands(fn, "x", x, "w_gate", wGate, groupSizes);
  checkShape(fn, "w_up", wUp, {E, K, F});

  Tensor gate({T, F}), up({T, F});
  for (int64_t e = 0; e < E; ++e) {
    groupRowsTimes(x, wGate, e, offsets[e], groupSizes[e], gate);
    groupRowsTimes(x, wUp, e, offsets[e], groupSizes[e], up);
  }
  // Rows past the sum have gate = up = 0, and silu(0) * 0 = 0.
  Tensor out({T, F});
  for (int64_t i = 0; i < T * F; ++i)
    out[i] = silu(gate[i]) * up[i];
  return out;
}

Routing mixer::ref::topkRouter(const Tensor &logits, int64_t k,
                               bool normalize) {
  const char *fn = "topkRouter";
  checkRank(fn, "logits", logits, 2);
  int64_t T = logits.dim(0), E = logits.dim(1);
  check(1 <= k && k <= E, fn,
        "k = " + std::to_string(k) + " is not in [1, " + std::to_string(E) +
            "]");

  Routing routing{Tensor({T, k}), std::vector<int32_t>(T * k)};
  std::vector<double> probs(E);
  std::vector<int64_t> order(E);
  for (int64_t t = 0; t < T; ++t) {
    // Softmax over E, shifted by the max so that no exp overflows.
    const double *row = logits.data.data() + t * E;
    double max = *std::max_element(row, row + E), sum = 0.0;
    for (int64_t e = 0; e < E; ++e)
      sum += probs[e] = std::exp(row[e] - max);
    for (int64_t e = 0; e < E; ++e)
      probs[e] /= sum;
    // Descending probability, ties to the lower expert index.
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return probs[a] != probs[b] ? probs[a] > probs[b] : a < b;
    });
    double picked = 0.0;
    for (int64_t j = 0; j < k; ++j)
      picked += probs[order[j]];
    for (int64_t j = 0; j < k; ++j) {
      routing.weights[t * k + j] =
          normalize ? probs[order[j]] / picked : probs[order[j]];
      routing.expertIds[t * k + j] = static_cast<int32_t>(order[j]);
    }
  }
  return routing;
}

Dispatch mixer::ref::moeDispatch(const Tensor &x,
                                 const std::vector<int32_t> &expertIds,
                                 int64_t k, int64_t numExperts) {
  const char *fn = "moeDispatch";
  checkRank(fn, "x", x, 2);
  int64_t T = x.dim(0), K = x.dim(1);
  check(k >= 1, fn, "k = " + std::to_string(k) + " is not positive");
  check(numExperts >= 1, fn,
        "num_experts = " + std::to_string(numExperts) + " is not positive");
  int64_t slots = T * k;
  check(static_cast<int64_t>(expertIds.size()) == slots, fn,
        "argument 'expert_ids' has " + std::to_string(expertIds.size()) +
            " values, expected T*k = " + std::to_string(slots));
  check(slots <= std::numeric_limits<int32_t>::max(), fn,
        "T*k = " + std::to_string(slots) + " does not fit the i32 permutation");

  Dispatch dispatch{Tensor({slots, K}), std::vector<int64_t>(numExperts, 0),
                    std::vector<int32_t>(slots)};
  for (int64_t a = 0; a < slots; ++a) {
    int32_t e = expertIds[a];
    check(0 <= e && e < numExperts, fn,
          "argument 'expert_ids' has id " + std::to_string(e) + " at slot " +
              std::to_string(a) + ", not in [0, " + std::to_string(numExperts) +
              ")");
    ++dispatch.groupSizes[e];
  }
  // A stable counting sort: slots go to their expert's rows in slot order.
  std::vector<int64_t> next(numExperts, 0);
  for (int64_t e = 1; e < numExperts; ++e)
    next[e] = next[e - 1] + dispatch.groupSizes[e - 1];
  for (int64_t a = 0; a < slots; ++a)
    dispatch.permutation[next[expertIds[a]]++] = static_cast<int32_t>(a);
  for (int64_t r = 0; r < slots; ++r) {
    int64_t t = dispatch.permutation[r] / k;
    for (int64_t kk = 0; kk < K; ++kk)
      dispatch.sorted[r * K + kk] = x[t * K + kk];
  }
  return dispatch;
}

Tensor mixer::ref::moeCombine(const Tensor &expertOut,
                              const std::vector<int32_t> &permutation,
                              const Tensor &weights) {
  const char *fn = "moeCombine";
  checkRank(fn, "weights", weights, 2);
  checkRank(fn, "expert_out", expertOut, 2);
  int64_t T = weights.dim(0), k = weights.dim(1), N = expertOut.dim(1);
  int64_t slots = T * k;
  checkShape(fn, "expert_out", expertOut, {slots, N});
  check(static_cast<int64_t>(permutation.size()) == slots, fn,
        "argument 'permutation' has " + std::to_string(permutation.size()) +
            " values, expected T*k = " + std::to_string(slots));

  Tensor out({T, N});
  std::vector<bool> seen(slots, false);
  for (int64_t r = 0; r < slots; ++r) {
    int64_t a = permutation[r];
    check(0 <= a && a < slots && !seen[a], fn,
          "argument 'permutation' is not a permutation of the " +
              std::to_string(slots) + " slots (row " + std::to_string(r) +
              " holds " + std::to_string(a) + ")");
    seen[a] = true;
    int64_t t = a / k;
    for (int64_t n = 0; n < N; ++n)
      out[t * N + n] += weights[a] * expertOut[r * N + n];
  }
  return out;
}

Tensor mixer::ref::moeLayer(const Tensor &x, const Tensor &logits, int64_t k,
                            bool normalize, const Tensor &wGate,
                            const Tensor &wUp, const Tensor &wDown) {
  const char *fn = "moeLayer";
  checkRank(fn, "x", x, 2);
  checkRank(fn, "w_gate", wGate, 3);
  int64_t T = x.dim(0), K = x.dim(1), E = wGate.dim(0), F = wGate.dim(2);
  checkShape(fn, "logits", logits, {T, E});
  checkShape(fn, "w_gate", wGate, {E, K, F});
  checkShape(fn, "w_up", wUp, {E, K, F});
  checkShape(fn, "w_down", wDown, {E, F, K});

  Routing routing = topkRouter(logits, k, normalize);
  Dispatch dispatch = moeDispatch(x, routing.expertIds, k, E);
  Tensor hidden =
      groupedSwiglu(dispatch.sorted, wGate, wUp, dispatch.groupSizes);
  Tensor expertOut = groupedMatmul(hidden, wDown, dispatch.groupSizes);
  return moeCombine(expertOut, dispatch.permutation, routing.weights);
}
