//===- TensorTest.cpp - Tests of the reference tensor and helpers ---------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//

#include "TestHelpers.h"

#include <cmath>
#include <limits>

using namespace mixer::ref;
using namespace mixer::ref::test;

namespace {

TEST(TensorTest, ShapeAndFill) {
  Tensor t({2, 3, 4}, 1.5);
  EXPECT_EQ(t.rank(), 3);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.dim(0), 2);
  EXPECT_EQ(t.dim(2), 4);
  for (double v : t.data)
    EXPECT_EQ(v, 1.5);
  Tensor scalar(std::vector<int64_t>{});
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_EQ(Tensor({3, 0}).numel(), 0);
}

TEST(TensorTest, RowMajorIndexing) {
  Tensor t({2, 3});
  for (int64_t i = 0; i < 6; ++i)
    t[i] = i;
  // Row-major: (i, j) is at i * 3 + j.
  EXPECT_EQ(t.at({0, 2}), 2.0);
  EXPECT_EQ(t.at({1, 0}), 3.0);
  EXPECT_EQ(t.offset({1, 2}), 5);
  t.at({1, 1}) = -7.0;
  EXPECT_EQ(t[4], -7.0);
}

TEST(TensorTest, FloatRoundTrip) {
  const float values[] = {1.0f, -2.5f, 0.1f, 3e7f};
  Tensor t = fromFloats({2, 2}, values);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(t[2], static_cast<double>(0.1f));
  std::vector<float> back = toFloats(t);
  ASSERT_EQ(back.size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(back[i], values[i]);
}

TEST(TensorTest, Slice) {
  Tensor t({2, 3, 2});
  for (int64_t i = 0; i < t.numel(); ++i)
    t[i] = i;
  Tensor middle = slice(t, 1, 1, 3);
  EXPECT_EQ(middle.shape, (std::vector<int64_t>{2, 2, 2}));
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t m = 0; m < 2; ++m)
      for (int64_t c = 0; c < 2; ++c)
        EXPECT_EQ(middle.at({a, m, c}), t.at({a, m + 1, c}));
  Tensor first = slice(t, 0, 0, 1);
  EXPECT_EQ(first.shape, (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(first.data, std::vector<double>({0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(slice(t, 2, 1, 1).numel(), 0);
}

TEST(TensorTest, RelativeError) {
  Tensor ref = makeTensor({2}, {1.0, -4.0});
  const float out[] = {1.5f, -4.0f};
  EXPECT_NEAR(relativeError(out, ref), 0.5 / 4.0, 1e-15);
  const float exact[] = {1.0f, -4.0f};
  EXPECT_EQ(relativeError(exact, ref), 0.0);
}

TEST(TensorTest, RelativeErrorOfZeroReferenceIsAbsolute) {
  Tensor ref({2});
  const float out[] = {0.25f, -0.5f};
  EXPECT_EQ(relativeError(out, ref), 0.5);
}

TEST(TensorTest, RelativeErrorOfNaNIsInfinite) {
  Tensor ref = makeTensor({3}, {1.0, 2.0, 3.0});
  const float out[] = {1.0f, std::numeric_limits<float>::quiet_NaN(), 3.0f};
  EXPECT_EQ(relativeError(out, ref), std::numeric_limits<double>::infinity());
  const float inf[] = {std::numeric_limits<float>::infinity(), 2.0f, 3.0f};
  EXPECT_EQ(relativeError(inf, ref), std::numeric_limits<double>::infinity());
}

TEST(RngTest, SameSeedSameNumbers) {
  Rng a(42), b(42), c(43);
  Tensor ta = a.normalTensor({100}, 0.0, 1.0);
  Tensor tb = b.normalTensor({100}, 0.0, 1.0);
  Tensor tc = c.normalTensor({100}, 0.0, 1.0);
  EXPECT_EQ(ta.data, tb.data);
  EXPECT_NE(ta.data, tc.data);
  EXPECT_EQ(a.uniform(0, 1), b.uniform(0, 1));
}

TEST(RngTest, UniformRangeAndMean) {
  Rng rng(7);
  Tensor t = rng.uniformTensor({20000}, -1.0, 3.0);
  EXPECT_EQ(t.shape, std::vector<int64_t>{20000});
  double sum = 0.0;
  for (double v : t.data) {
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 3.0);
    sum += v;
  }
  // Mean 1, standard error 4 / sqrt(12 * 20000) ~ 0.008.
  EXPECT_NEAR(sum / t.numel(), 1.0, 0.05);
}

TEST(RngTest, NormalMoments) {
  Rng rng(11);
  Tensor t = rng.normalTensor({40000}, 2.0, 0.5);
  double sum = 0.0, sumSq = 0.0;
  for (double v : t.data) {
    sum += v;
    sumSq += v * v;
  }
  double mean = sum / t.numel();
  double variance = sumSq / t.numel() - mean * mean;
  EXPECT_NEAR(mean, 2.0, 0.02);
  EXPECT_NEAR(std::sqrt(variance), 0.5, 0.02);
}

TEST(MathTest, SiluAndSoftplus) {
  EXPECT_EQ(silu(0.0), 0.0);
  EXPECT_NEAR(silu(1.0), 1.0 / (1.0 + std::exp(-1.0)), 1e-15);
  EXPECT_NEAR(silu(-2.0), -2.0 / (1.0 + std::exp(2.0)), 1e-15);
  EXPECT_NEAR(softplus(0.0), std::log(2.0), 1e-15);
  EXPECT_NEAR(softplus(1.0), std::log(1.0 + std::exp(1.0)), 1e-15);
  EXPECT_NEAR(softplus(5.0), std::log(1.0 + std::exp(5.0)), 1e-14);
  EXPECT_NEAR(softplus(19.5), 19.5 + std::exp(-19.5), 1e-14);
  EXPECT_EQ(softplus(30.0), 30.0);
  EXPECT_NEAR(softplus(-30.0), std::exp(-30.0), 1e-25);
}

TEST(MathTest, OnlineLogSumExp) {
  OnlineLogSumExp empty;
  EXPECT_EQ(empty.value(), -std::numeric_limits<double>::infinity());

  OnlineLogSumExp small;
  small.add(std::log(1.0));
  small.add(std::log(2.0));
  small.add(-std::numeric_limits<double>::infinity());
  small.add(std::log(3.0));
  EXPECT_NEAR(small.value(), std::log(6.0), 1e-15);

  // exp(1000) overflows a double; the running max keeps the sum finite.
  OnlineLogSumExp large;
  large.add(1000.0);
  large.add(999.0);
  large.add(1000.0);
  EXPECT_NEAR(large.value(), 1000.0 + std::log(2.0 + std::exp(-1.0)), 1e-12);
}

TEST(TensorDeathTest, Misuse) {
  EXPECT_DEATH(Tensor({2, -1}), "negative dimension");
  Tensor t({2, 3});
  EXPECT_DEATH(t.at({2, 0}), "Tensor::at: index 2 out of range");
  EXPECT_DEATH(t.at({0}), "Tensor::at: 1 indices for shape \\[2, 3\\]");
  EXPECT_DEATH(t.dim(2), "dimension 2 out of range");
  EXPECT_DEATH(slice(t, 1, 2, 4), "slice: range");
}

} // namespace
