//===- MoETest.cpp - Tests of the reference mixture-of-experts ops --------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//

#include "TestHelpers.h"

#include <cmath>

using namespace mixer::ref;
using namespace mixer::ref::test;

namespace {

constexpr double kTight = 1e-12;

/// The group of row r under `sizes`, or -1 for rows past the sum.
int64_t groupOfRow(const std::vector<int64_t> &sizes, int64_t r) {
  for (int64_t e = 0; e < static_cast<int64_t>(sizes.size()); ++e) {
    if (r < sizes[e])
      return e;
    r -= sizes[e];
  }
  return -1;
}

/// sum_k a[r, k] w[e, k, n] written out.
double rowTimes(const Tensor &a, int64_t r, const Tensor &w, int64_t e,
                int64_t n) {
  double sum = 0.0;
  for (int64_t k = 0; k < a.dim(1); ++k)
    sum += a.at({r, k}) * w.at({e, k, n});
  return sum;
}

TEST(GroupedMatmulTest, HandComputed) {
  // Group 0 = row 0, group 1 = row 1, row 2 past the sum.
  Tensor lhs = makeTensor({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor rhs = makeTensor({2, 2, 1}, {1, 1, 2, -1});
  Tensor out = groupedMatmul(lhs, rhs, {1, 1});
  expectTensorNear(out, makeTensor({3, 1}, {3, 2, 0}), kTight);
}

TEST(GroupedMatmulTest, OneGroupIsAPlainMatmul) {
  Rng rng(30);
  int64_t T = 5, K = 3, N = 4;
  Tensor lhs = rng.normalTensor({T, K}, 0, 1);
  Tensor rhs = rng.normalTensor({1, K, N}, 0, 1);
  Tensor out = groupedMatmul(lhs, rhs, {T});
  for (int64_t t = 0; t < T; ++t)
    for (int64_t n = 0; n < N; ++n) {
      double sum = 0.0;
      for (int64_t k = 0; k < K; ++k)
        sum += lhs.at({t, k}) * rhs.at({0, k, n});
      EXPECT_NEAR(out.at({t, n}), sum, kTight);
    }
}

TEST(GroupedMatmulTest, EmptyGroupsAndRowsPastTheSum) {
  Rng rng(31);
  int64_t T = 7, K = 3, N = 2;
  std::vector<int64_t> sizes = {0, 2, 0, 3, 0};
  Tensor lhs = rng.normalTensor({T, K}, 0, 1);
  Tensor rhs = rng.normalTensor({5, K, N}, 0, 1);
  Tensor out = groupedMatmul(lhs, rhs, sizes);
  for (int64_t t = 0; t < T; ++t) {
    int64_t e = groupOfRow(sizes, t);
    for (int64_t n = 0; n < N; ++n) {
      if (e < 0)
        EXPECT_EQ(out.at({t, n}), 0.0) << "row " << t;
      else
        EXPECT_NEAR(out.at({t, n}), rowTimes(lhs, t, rhs, e, n), kTight);
    }
  }
  EXPECT_EQ(groupOfRow(sizes, 1), 1);
  EXPECT_EQ(groupOfRow(sizes, 4), 3);
  EXPECT_EQ(groupOfRow(sizes, 5), -1);
  // Every group empty: all zeros.
  expectTensorNear(groupedMatmul(lhs, rhs, {0, 0, 0, 0, 0}), Tensor({T, N}),
                   0.0);
}

TEST(GroupedSwigluTest, MatchesTheExplicitFormula) {
  Rng rng(32);
  int64_t T = 8, K = 4, F = 3, E = 4;
  std::vector<int64_t> sizes = {2, 0, 3, 1};
  Tensor x = rng.normalTensor({T, K}, 0, 1);
  Tensor wGate = rng.normalTensor({E, K, F}, 0, 1);
  Tensor wUp = rng.normalTensor({E, K, F}, 0, 1);
  Tensor out = groupedSwiglu(x, wGate, wUp, sizes);
  ASSERT_EQ(out.shape, (std::vector<int64_t>{T, F}));
  for (int64_t t = 0; t < T; ++t) {
    int64_t e = groupOfRow(sizes, t);
    for (int64_t f = 0; f < F; ++f) {
      double expected = e < 0 ? 0.0
                              : siluOf(rowTimes(x, t, wGate, e, f)) *
                                    rowTimes(x, t, wUp, e, f);
      EXPECT_NEAR(out.at({t, f}), expected, kTight);
    }
  }
}

TEST(TopkRouterTest, HandComputed) {
  Tensor logits = makeTensor({1, 4}, {1, 3, 2, 0});
  double z = std::exp(1) + std::exp(3) + std::exp(2) + std::exp(0);
  Routing r = topkRouter(logits, 2, false);
  EXPECT_EQ(r.expertIds, (std::vector<int32_t>{1, 2}));
  expectTensorNear(r.weights,
                   makeTensor({1, 2}, {std::exp(3) / z, std::exp(2) / z}),
                   kTight);
  // Normalized: e^3 / (e^3 + e^2) and e^2 / (e^3 + e^2).
  Routing n = topkRouter(logits, 2, true);
  EXPECT_EQ(n.expertIds, (std::vector<int32_t>{1, 2}));
  expectTensorNear(
      n.weights,
      makeTensor({1, 2}, {1 / (1 + std::exp(-1.0)), 1 / (1 + std::exp(1.0))}),
      kTight);
  // k = E with normalize: the softmax itself, sorted.
  Routing all = topkRouter(logits, 4, true);
  EXPECT_EQ(all.expertIds, (std::vector<int32_t>{1, 2, 0, 3}));
  EXPECT_NEAR(all.weights[3], 1 / z, kTight);
}

TEST(TopkRouterTest, TiesGoToTheLowerIndex) {
  Tensor logits = makeTensor({3, 5}, {0, 5, 5, 5, 0, //
                                      1, 1, 1, 1, 1, //
                                      -2, 7, -2, 7, 3});
  Routing r = topkRouter(logits, 2, true);
  EXPECT_EQ(r.expertIds, (std::vector<int32_t>{1, 2, 0, 1, 1, 3}));
  expectTensorNear(r.weights, Tensor({3, 2}, 0.5), kTight);
  Routing three = topkRouter(logits, 3, false);
  EXPECT_EQ(three.expertIds, (std::vector<int32_t>{1, 2, 3, 0, 1, 2, 1, 3, 4}));
  EXPECT_NEAR(three.weights.at({1, 2}), 0.2, kTight);

  // Enough experts that a sort could reorder equal keys.
  int64_t E = 40;
  Tensor flat({2, E}, 0.5);
  flat.at({1, 7}) = 2.0;
  Routing many = topkRouter(flat, 5, false);
  EXPECT_EQ(many.expertIds,
            (std::vector<int32_t>{0, 1, 2, 3, 4, 7, 0, 1, 2, 3}));
}

TEST(MoeDispatchTest, HandComputed) {
  // T = 3, k = 2; slots 0..5 go to experts 2, 0, 0, 1, 2, 1, stably sorted:
  // expert 0 <- slots 1, 2; expert 1 <- 3, 5; expert 2 <- 0, 4.
  Tensor x = makeTensor({3, 2}, {10, 11, 20, 21, 30, 31});
  Dispatch d = moeDispatch(x, {2, 0, 0, 1, 2, 1}, 2, 4);
  EXPECT_EQ(d.groupSizes, (std::vector<int64_t>{2, 2, 2, 0}));
  EXPECT_EQ(d.permutation, (std::vector<int32_t>{1, 2, 3, 5, 0, 4}));
  // Row r holds x[permutation[r] / k].
  expectTensorNear(
      d.sorted,
      makeTensor({6, 2}, {10, 11, 20, 21, 20, 21, 30, 31, 10, 11, 30, 31}),
      0.0);
}

TEST(MoeCombineTest, HandComputed) {
  // T = 2, k = 2, permutation [2, 0, 3, 1]: row 0 is slot (1, 0), row 1 is
  // slot (0, 0), row 2 is slot (1, 1), row 3 is slot (0, 1).
  Tensor expertOut = makeTensor({4, 1}, {1, 2, 3, 4});
  Tensor weights = makeTensor({2, 2}, {0.5, 0.25, 2, 3});
  Tensor out = moeCombine(expertOut, {2, 0, 3, 1}, weights);
  // out[0] = 0.5 * 2 + 0.25 * 4, out[1] = 2 * 1 + 3 * 3.
  expectTensorNear(out, makeTensor({2, 1}, {2, 11}), kTight);
}

TEST(MoeCombineTest, IdentityExpertsGiveTheWeightSumTimesX) {
  Rng rng(33);
  int64_t T = 6, K = 3, k = 2, E = 4;
  Tensor x = rng.normalTensor({T, K}, 0, 1);
  Routing routing = topkRouter(rng.normalTensor({T, E}, 0, 1), k, false);
  Dispatch d = moeDispatch(x, routing.expertIds, k, E);
  Tensor out = moeCombine(d.sorted, d.permutation, routing.weights);
  for (int64_t t = 0; t < T; ++t) {
    double weightSum = routing.weights.at({t, 0}) + routing.weights.at({t, 1});
    for (int64_t c = 0; c < K; ++c)
      EXPECT_NEAR(out.at({t, c}), weightSum * x.at({t, c}), kTight);
  }
}

TEST(MoeLayerTest, MatchesPerTokenExperts) {
  Rng rng(34);
  int64_t T = 7, K = 4, F = 5, E = 3, k = 2;
  Tensor x = rng.normalTensor({T, K}, 0, 1);
  Tensor logits = rng.normalTensor({T, E}, 0, 2);
  Tensor wGate = rng.normalTensor({E, K, F}, 0, 0.5);
  Tensor wUp = rng.normalTensor({E, K, F}, 0, 0.5);
  Tensor wDown = rng.normalTensor({E, F, K}, 0, 0.5);
  for (bool normalize : {false, true}) {
    Tensor out = moeLayer(x, logits, k, normalize, wGate, wUp, wDown);
    Routing routing = topkRouter(logits, k, normalize);
    // out[t] = sum_j w_tj * W_down[e]^T (silu(W_gate[e]^T x_t) *
    // W_up[e]^T x_t), e = expert of (t, j).
    for (int64_t t = 0; t < T; ++t)
      for (int64_t c = 0; c < K; ++c) {
        double expected = 0.0;
        for (int64_t j = 0; j < k; ++j) {
          int64_t e = routing.expertIds[t * k + j];
          double y = 0.0;
          for (int64_t f = 0; f < F; ++f)
            y += siluOf(rowTimes(x, t, wGate, e, f)) *
                 rowTimes(x, t, wUp, e, f) * wDown.at({e, f, c});
          expected += routing.weights.at({t, j}) * y;
        }
        EXPECT_NEAR(out.at({t, c}), expected, kTight);
      }
  }
}

TEST(MoEDeathTest, Misuse) {
  Tensor lhs({3, 2}), rhs({2, 2, 1});
  EXPECT_DEATH(groupedMatmul(lhs, rhs, {2, 2}),
               "'group_sizes' sums to 4, more than the 3 rows");
  EXPECT_DEATH(groupedMatmul(lhs, rhs, {1}),
               "'group_sizes' has 1 values, expected 2");
  EXPECT_DEATH(groupedMatmul(lhs, rhs, {-1, 1}), "negative size");
  EXPECT_DEATH(groupedMatmul(lhs, Tensor({2, 3, 1}), {1, 1}),
               "groupedMatmul: argument 'rhs'");
  EXPECT_DEATH(groupedSwiglu(lhs, rhs, Tensor({2, 2, 2}), {1, 1}),
               "groupedSwiglu: argument 'w_up'");
  EXPECT_DEATH(topkRouter(Tensor({2, 3}), 4, false), "k = 4 is not in");
  EXPECT_DEATH(moeDispatch(lhs, {0, 1, 5}, 1, 3),
               "'expert_ids' has id 5 at slot 2");
  EXPECT_DEATH(moeDispatch(lhs, {0, 1}, 1, 3), "'expert_ids' has 2 values");
  EXPECT_DEATH(moeCombine(Tensor({2, 1}), {0, 0}, Tensor({1, 2})),
               "'permutation' is not a permutation");
  EXPECT_DEATH(
      moeLayer(lhs, Tensor({3, 3}), 1, false, rhs, rhs, Tensor({2, 1, 2})),
      "moeLayer: argument 'logits'");
}

} // namespace
