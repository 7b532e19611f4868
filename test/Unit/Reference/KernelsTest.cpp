//===- KernelsTest.cpp - Tests of the reference kernel reductions ---------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//

#include "TestHelpers.h"

#include <algorithm>
#include <cmath>

using namespace mixer::ref;
using namespace mixer::ref::test;

namespace {

constexpr double kTight = 1e-12;

const Kernel kRadialKernels[] = {Kernel::Gaussian, Kernel::Laplacian,
                                 Kernel::Matern32, Kernel::InverseMultiquadric};
const Kernel kCostKinds[] = {Kernel::SqEuclidean, Kernel::Gaussian,
                             Kernel::Laplacian};

TEST(KernelValueTest, RadialKernelsAreOneAtZeroDistance) {
  const double x[] = {0.3, -1.2, 4.0};
  for (Kernel kind : kRadialKernels)
    for (double h : {0.1, 1.0, 7.5})
      EXPECT_NEAR(kernelValue(kind, x, x, 3, h), 1.0, kTight);
}

TEST(KernelValueTest, HandComputed) {
  // r = ||(3, 4)|| = 5, h = 2.
  const double x[] = {0.0, 0.0}, y[] = {3.0, 4.0};
  double s = std::sqrt(3.0) * 5.0 / 2.0;
  EXPECT_NEAR(kernelValue(Kernel::Gaussian, x, y, 2, 2.0),
              std::exp(-25.0 / 8.0), kTight);
  EXPECT_NEAR(kernelValue(Kernel::Laplacian, x, y, 2, 2.0), std::exp(-2.5),
              kTight);
  EXPECT_NEAR(kernelValue(Kernel::Matern32, x, y, 2, 2.0),
              (1.0 + s) * std::exp(-s), kTight);
  EXPECT_NEAR(kernelValue(Kernel::InverseMultiquadric, x, y, 2, 2.0),
              1.0 / std::sqrt(7.25), kTight);
  // Symmetric in x and y.
  EXPECT_NEAR(kernelValue(Kernel::Matern32, y, x, 2, 2.0),
              (1.0 + s) * std::exp(-s), kTight);
}

TEST(KernelValueTest, LinearIsTheDotProductAndIgnoresTheBandwidth) {
  const double x[] = {1.0, 2.0}, y[] = {3.0, 4.0};
  EXPECT_EQ(kernelValue(Kernel::Linear, x, y, 2, 1.0), 11.0);
  EXPECT_EQ(kernelValue(Kernel::Linear, x, y, 2, 0.0), 11.0);
}

TEST(CostTest, HandComputed) {
  const double x[] = {1.0, 1.0}, y[] = {4.0, 5.0};
  EXPECT_NEAR(cost(Kernel::SqEuclidean, x, y, 2), 25.0, kTight);
  EXPECT_NEAR(cost(Kernel::Gaussian, x, y, 2), 12.5, kTight);
  EXPECT_NEAR(cost(Kernel::Laplacian, x, y, 2), 5.0, kTight);
  for (Kernel kind : kCostKinds)
    EXPECT_EQ(cost(kind, x, x, 2), 0.0);
}

TEST(KernelMvTest, HandComputed) {
  // Points on a line: x = {0, 1}, y = {0, 2}; gaussian with h = 1:
  // K = [[1, e^-2], [e^-0.5, e^-0.5]].
  Tensor x = makeTensor({2, 1}, {0, 1});
  Tensor y = makeTensor({2, 1}, {0, 2});
  Tensor v = makeTensor({2, 2}, {1, 2, 3, 4});
  double e2 = std::exp(-2.0), e05 = std::exp(-0.5);
  Tensor expected =
      makeTensor({2, 2}, {1 + 3 * e2, 2 + 4 * e2, 4 * e05, 6 * e05});
  expectTensorNear(kernelMv(Kernel::Gaussian, x, y, v, 1.0), expected, kTight);
}

TEST(KernelMvTest, LinearKernelIsAMatrixProduct) {
  Rng rng(20);
  int64_t N = 4, M = 5, D = 3, C = 2;
  Tensor x = rng.normalTensor({N, D}, 0, 1);
  Tensor y = rng.normalTensor({M, D}, 0, 1);
  Tensor v = rng.normalTensor({M, C}, 0, 1);
  Tensor out = kernelMv(Kernel::Linear, x, y, v, 1.0);
  for (int64_t i = 0; i < N; ++i)
    for (int64_t c = 0; c < C; ++c) {
      double sum = 0.0;
      for (int64_t j = 0; j < M; ++j)
        for (int64_t d = 0; d < D; ++d)
          sum += x.at({i, d}) * y.at({j, d}) * v.at({j, c});
      EXPECT_NEAR(out.at({i, c}), sum, kTight);
    }
}

TEST(KernelMvTest, BatchedEqualsEachBatchAlone) {
  Rng rng(21);
  int64_t Bt = 3, N = 4, M = 5, D = 2, C = 3;
  Tensor x = rng.normalTensor({Bt, N, D}, 0, 1);
  Tensor y = rng.normalTensor({Bt, M, D}, 0, 1);
  Tensor v = rng.normalTensor({Bt, M, C}, 0, 1);
  for (Kernel kind : kRadialKernels) {
    Tensor batched = kernelMv(kind, x, y, v, 0.8);
    ASSERT_EQ(batched.shape, (std::vector<int64_t>{Bt, N, C}));
    for (int64_t b = 0; b < Bt; ++b) {
      auto one = [&](const Tensor &t) {
        Tensor s = slice(t, 0, b, b + 1);
        s.shape.erase(s.shape.begin());
        return s;
      };
      Tensor alone = kernelMv(kind, one(x), one(y), one(v), 0.8);
      expectTensorNear(one(batched), alone, kTight);
    }
  }
}

TEST(KernelMvTest, SinglePointAndEmptySet) {
  Tensor x = makeTensor({1, 2}, {1, 2});
  Tensor v = makeTensor({1, 1}, {3});
  expectTensorNear(kernelMv(Kernel::Laplacian, x, x, v, 1.0),
                   makeTensor({1, 1}, {3}), kTight);
  // M = 0: the empty sum is zero.
  expectTensorNear(
      kernelMv(Kernel::Gaussian, x, Tensor({0, 2}), Tensor({0, 1}), 1.0),
      makeTensor({1, 1}, {0}), 0.0);
}

TEST(KernelLseTest, HandComputedWithPotential) {
  // x = 0, y = {0, 1}, g = {0.5, -1}, sqeuclidean, eps = 0.5:
  // log(exp(0 + 0.5) + exp(-1 / 0.5 - 1)).
  Tensor x = makeTensor({1, 1}, {0});
  Tensor y = makeTensor({2, 1}, {0, 1});
  Tensor g = makeTensor({2}, {0.5, -1.0});
  Tensor out = kernelLse(Kernel::SqEuclidean, x, y, &g, 0.5);
  expectTensorNear(
      out, makeTensor({1}, {std::log(std::exp(0.5) + std::exp(-3.0))}), kTight);
}

TEST(KernelLseTest, IsTheLogOfAKernelSum) {
  // exp(-c / eps) is a kernel: gaussian cost r^2/2 with eps = h^2 and
  // sqeuclidean cost r^2 with eps = 2 h^2 both give exp(-r^2 / (2 h^2)),
  // laplacian cost r with eps = h gives exp(-r / h). With g = 0,
  // kernel_lse = log kernel_mv(v = 1).
  Rng rng(22);
  int64_t Bt = 2, N = 5, M = 7, D = 3;
  double h = 0.9;
  Tensor x = rng.normalTensor({Bt, N, D}, 0, 1);
  Tensor y = rng.normalTensor({Bt, M, D}, 0, 1);
  Tensor ones({Bt, M, 1}, 1.0);
  struct Case {
    Kernel costKind;
    double eps;
    Kernel kernel;
  } cases[] = {{Kernel::Gaussian, h * h, Kernel::Gaussian},
               {Kernel::SqEuclidean, 2 * h * h, Kernel::Gaussian},
               {Kernel::Laplacian, h, Kernel::Laplacian}};
  for (const Case &c : cases) {
    Tensor lse = kernelLse(c.costKind, x, y, nullptr, c.eps);
    Tensor zeroG({Bt, M});
    Tensor lseZeroG = kernelLse(c.costKind, x, y, &zeroG, c.eps);
    Tensor sums = kernelMv(c.kernel, x, y, ones, h);
    ASSERT_EQ(lse.shape, (std::vector<int64_t>{Bt, N}));
    for (int64_t i = 0; i < Bt * N; ++i) {
      EXPECT_NEAR(lse[i], std::log(sums[i]), kTight);
      EXPECT_EQ(lse[i], lseZeroG[i]);
    }
  }
}

TEST(KernelLseTest, PotentialsWeighTheTerms) {
  // exp(g_j) multiplies term j: log sum_j exp(g_j) k_ij = kernel_lse with g.
  Rng rng(23);
  int64_t N = 4, M = 6, D = 2;
  Tensor x = rng.normalTensor({N, D}, 0, 1);
  Tensor y = rng.normalTensor({M, D}, 0, 1);
  Tensor g = rng.normalTensor({M}, 0, 2);
  Tensor w({M, 1});
  for (int64_t j = 0; j < M; ++j)
    w[j] = std::exp(g[j]);
  Tensor lse = kernelLse(Kernel::Gaussian, x, y, &g, 0.25);
  Tensor sums = kernelMv(Kernel::Gaussian, x, y, w, 0.5);
  for (int64_t i = 0; i < N; ++i)
    EXPECT_NEAR(lse[i], std::log(sums[i]), kTight);
}

TEST(KernelLseTest, StableWhereEveryTermUnderflows) {
  // exp(-10000) is 0 in double; the running max keeps the exact value.
  Tensor x = makeTensor({1, 1}, {0});
  Tensor y = makeTensor({2, 1}, {100, 101});
  Tensor out = kernelLse(Kernel::SqEuclidean, x, y, nullptr, 1.0);
  EXPECT_NEAR(out[0], -10000.0 + std::log1p(std::exp(-201.0)), 1e-9);
  Tensor g = makeTensor({2}, {800.0, 800.0});
  Tensor shifted = kernelLse(Kernel::SqEuclidean, makeTensor({1, 1}, {100}),
                             makeTensor({2, 1}, {100, 100}), &g, 1.0);
  EXPECT_NEAR(shifted[0], 800.0 + std::log(2.0), 1e-12);
}

/// P_ij = exp((f_i + g_j - C_ij) / eps + log_a_i + log_b_j).
Tensor transportPlan(Kernel kind, const Tensor &x, const Tensor &y,
                     const SinkhornResult &r, const Tensor &logA,
                     const Tensor &logB, double eps) {
  int64_t N = x.dim(0), M = y.dim(0), D = x.dim(1);
  Tensor P({N, M});
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) {
      double c = cost(kind, &x.data[i * D], &y.data[j * D], D);
      P.at({i, j}) = std::exp((r.f[i] + r.g[j] - c) / eps + logA[i] + logB[j]);
    }
  return P;
}

/// log of positive weights normalized to sum 1.
Tensor logProbabilities(Rng &rng, int64_t n) {
  Tensor w = rng.uniformTensor({n}, 0.5, 2.0);
  double sum = 0.0;
  for (double v : w.data)
    sum += v;
  for (double &v : w.data)
    v = std::log(v / sum);
  return w;
}

TEST(SinkhornTest, OnePointEachHandComputed) {
  // N = M = 1, a = b = 1: f = -eps log exp(-C / eps) = C, then
  // g = -eps log exp((C - C) / eps) = 0, P = 1, cost = C.
  Tensor x = makeTensor({1, 2}, {0, 0});
  Tensor y = makeTensor({1, 2}, {1, 2});
  Tensor zero = makeTensor({1}, {0});
  SinkhornResult r = sinkhorn(Kernel::SqEuclidean, x, y, zero, zero, 0.1, 3);
  EXPECT_NEAR(r.f[0], 5.0, kTight);
  EXPECT_NEAR(r.g[0], 0.0, kTight);
  EXPECT_NEAR(r.cost, 5.0, kTight);
}

TEST(SinkhornTest, MarginalsMatchAfterManyIterations) {
  Rng rng(24);
  int64_t N = 6, M = 9, D = 2;
  Tensor x = rng.uniformTensor({N, D}, 0, 1);
  Tensor y = rng.uniformTensor({M, D}, 0, 1);
  Tensor logA = logProbabilities(rng, N);
  Tensor logB = logProbabilities(rng, M);
  for (Kernel kind : kCostKinds) {
    double eps = 0.1;
    SinkhornResult r = sinkhorn(kind, x, y, logA, logB, eps, 2000);
    Tensor P = transportPlan(kind, x, y, r, logA, logB, eps);
    for (int64_t i = 0; i < N; ++i) {
      double row = 0.0;
      for (int64_t j = 0; j < M; ++j)
        row += P.at({i, j});
      EXPECT_NEAR(row, std::exp(logA[i]), 1e-6);
    }
    // The g update ends every iteration: the column sums are exact.
    double total = 0.0;
    for (int64_t j = 0; j < M; ++j) {
      double column = 0.0;
      for (int64_t i = 0; i < N; ++i)
        column += P.at({i, j});
      EXPECT_NEAR(column, std::exp(logB[j]), 1e-12);
    }
    for (int64_t i = 0; i < N; ++i)
      for (int64_t j = 0; j < M; ++j)
        total += P.at({i, j}) * cost(kind, &x.data[i * D], &y.data[j * D], D);
    EXPECT_NEAR(r.cost, total, 1e-12);
  }
}

TEST(SinkhornTest, FirstIterationIsTheFormula) {
  Rng rng(25);
  int64_t N = 3, M = 4, D = 2;
  double eps = 0.3;
  Tensor x = rng.normalTensor({N, D}, 0, 1);
  Tensor y = rng.normalTensor({M, D}, 0, 1);
  Tensor logA = logProbabilities(rng, N);
  Tensor logB = logProbabilities(rng, M);
  SinkhornResult r = sinkhorn(Kernel::Gaussian, x, y, logA, logB, eps, 1);
  // With g = 0: f_i = -eps log sum_j b_j exp(-C_ij / eps), then g from f.
  auto C = [&](int64_t i, int64_t j) {
    double r2 = 0.0;
    for (int64_t d = 0; d < D; ++d)
      r2 += (x.at({i, d}) - y.at({j, d})) * (x.at({i, d}) - y.at({j, d}));
    return r2 / 2.0;
  };
  std::vector<double> f(N);
  for (int64_t i = 0; i < N; ++i) {
    double sum = 0.0;
    for (int64_t j = 0; j < M; ++j)
      sum += std::exp(logB[j]) * std::exp(-C(i, j) / eps);
    f[i] = -eps * std::log(sum);
    EXPECT_NEAR(r.f[i], f[i], 1e-12);
  }
  for (int64_t j = 0; j < M; ++j) {
    double sum = 0.0;
    for (int64_t i = 0; i < N; ++i)
      sum += std::exp(logA[i]) * std::exp((f[i] - C(i, j)) / eps);
    EXPECT_NEAR(r.g[j], -eps * std::log(sum), 1e-12);
  }
}

TEST(TransportCostTest, RowsSumToTheSinkhornCost) {
  Rng rng(26);
  int64_t N = 5, M = 7, D = 3;
  double eps = 0.2;
  Tensor x = rng.uniformTensor({N, D}, -1, 1);
  Tensor y = rng.uniformTensor({M, D}, -1, 1);
  Tensor logA = logProbabilities(rng, N);
  Tensor logB = logProbabilities(rng, M);
  for (Kernel kind : kCostKinds) {
    SinkhornResult r = sinkhorn(kind, x, y, logA, logB, eps, 4);
    // log_u = f / eps + log_a, log_v = g / eps + log_b.
    Tensor logU({N}), logV({M});
    for (int64_t i = 0; i < N; ++i)
      logU[i] = r.f[i] / eps + logA[i];
    for (int64_t j = 0; j < M; ++j)
      logV[j] = r.g[j] / eps + logB[j];
    Tensor rows = transportCost(kind, x, y, logU, logV, eps);
    double total = 0.0;
    for (int64_t i = 0; i < N; ++i)
      total += rows[i];
    EXPECT_NEAR(total, r.cost, 1e-12 * std::max(1.0, std::abs(r.cost)));
  }
}

TEST(TransportCostTest, BatchedEqualsEachBatchAlone) {
  Rng rng(27);
  int64_t Bt = 2, N = 3, M = 4, D = 2;
  Tensor x = rng.uniformTensor({Bt, N, D}, -1, 1);
  Tensor y = rng.uniformTensor({Bt, M, D}, -1, 1);
  Tensor logU = rng.uniformTensor({Bt, N}, -1, 1);
  Tensor logV = rng.uniformTensor({Bt, M}, -1, 1);
  Tensor all = transportCost(Kernel::Laplacian, x, y, logU, logV, 0.5);
  for (int64_t bt = 0; bt < Bt; ++bt) {
    Tensor xb({N, D}), yb({M, D}), ub({N}), vb({M});
    for (int64_t k = 0; k < N * D; ++k)
      xb[k] = x[bt * N * D + k];
    for (int64_t k = 0; k < M * D; ++k)
      yb[k] = y[bt * M * D + k];
    for (int64_t i = 0; i < N; ++i)
      ub[i] = logU[bt * N + i];
    for (int64_t j = 0; j < M; ++j)
      vb[j] = logV[bt * M + j];
    Tensor one = transportCost(Kernel::Laplacian, xb, yb, ub, vb, 0.5);
    for (int64_t i = 0; i < N; ++i)
      EXPECT_NEAR(all[bt * N + i], one[i], kTight);
  }
}

TEST(KernelsDeathTest, Misuse) {
  Tensor x({3, 2}), y({4, 2}), v({4, 1});
  EXPECT_DEATH(kernelMv(Kernel::SqEuclidean, x, y, v, 1.0),
               "'sqeuclidean' is a cost, not a kernel");
  EXPECT_DEATH(kernelMv(Kernel::Gaussian, x, Tensor({4, 3}), v, 1.0),
               "kernelMv: argument 'y'");
  EXPECT_DEATH(kernelMv(Kernel::Gaussian, x, y, Tensor({5, 1}), 1.0),
               "kernelMv: argument 'v'");
  EXPECT_DEATH(kernelMv(Kernel::Gaussian, x, y, v, 0.0),
               "bandwidth .* is not positive");
  EXPECT_DEATH(kernelLse(Kernel::Matern32, x, y, nullptr, 1.0),
               "kernel 'matern32' has no cost");
  Tensor badG({3});
  EXPECT_DEATH(kernelLse(Kernel::Gaussian, x, y, &badG, 1.0),
               "kernelLse: argument 'g'");
  EXPECT_DEATH(kernelLse(Kernel::Gaussian, Tensor({1, 3, 2}), y, nullptr, 1.0),
               "kernelLse: argument 'y'");
  Tensor logA({3}), logB({4});
  EXPECT_DEATH(sinkhorn(Kernel::Gaussian, x, y, logB, logB, 1.0, 1),
               "sinkhorn: argument 'log_a'");
  EXPECT_DEATH(sinkhorn(Kernel::Gaussian, x, y, logA, logB, 1.0, 0),
               "iterations 0 is not positive");
}

} // namespace
