//===- Kernels.cpp - Dense reference of the kernel reductions -------------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// kernel_mv, kernel_lse, transport_cost and sinkhorn as plain double sums over
// every (i, j) pair; only kernel_lse's running-max accumulation is more than
// the formula.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include <cmath>

using namespace mixer::ref;
using detail::check;
using detail::checkRank;
using detail::checkShape;

static double squaredDistance(const double *x, const double *y, int64_t d) {
  double sum = 0.0;
  for (int64_t i = 0; i < d; ++i)
    sum += (x[i] - y[i]) * (x[i] - y[i]);
  return sum;
}

const char *mixer::ref::kernelName(Kernel kind) {
  switch (kind) {
  case Kernel::Gaussian:
    return "gaussian";
  case Kernel::Laplacian:
    return "laplacian";
  case Kernel::Matern32:
    return "matern32";
  case Kernel::InverseMultiquadric:
    return "inverse_multiquadric";
  case Kernel::Linear:
    return "linear";
  case Kernel::SqEuclidean:
    return "sqeuclidean";
  }
  return "unknown";
}

double mixer::ref::kernelValue(Kernel kind, const double *x, const double *y,
                               int64_t d, double bandwidth) {
  const char *fn = "kernelValue";
  check(kind != Kernel::SqEuclidean, fn,
        "'sqeuclidean' is a cost, not a kernel");
  if (kind == Kernel::Linear) {
    double dot = 0.0;
    for (int64_t i = 0; i < d; ++i)
      dot += x[i] * y[i];
    return dot;
  }
  check(bandwidth > 0.0, fn,
        "bandwidth " + std::to_string(bandwidth) + " is not positive");
  double r2 = squaredDistance(x, y, d), h = bandwidth;
  double r = std::sqrt(r2);
  switch (kind) {
  case Kernel::Gaussian:
    return std::exp(-r2 / (2.0 * h * h));
  case Kernel::Laplacian:
    return std::exp(-r / h);
  case Kernel::Matern32: {
    double s = std::sqrt(3.0) * r / h;
    return (1.0 + s) * std::exp(-s);
  }
  case Kernel::InverseMultiquadric:
    return 1.0 / std::sqrt(1.0 + r2 / (h * h));
  case Kernel::Linear:
  case Kernel::SqEuclidean:
    break;
  }
  detail::fail(fn, std::string("unhandled kernel '") + kernelName(kind) + "'");
}

double mixer::ref::cost(Kernel kind, const double *x, const double *y,
                        int64_t d) {
  double r2 = squaredDistance(x, y, d);
  switch (kind) {
  case Kernel::SqEuclidean:
    return r2;
  case Kernel::Gaussian:
    return r2 / 2.0;
  case Kernel::Laplacian:
    return std::sqrt(r2);
  case Kernel::Matern32:
  case Kernel::InverseMultiquadric:
  case Kernel::Linear:
    break;
  }
  detail::fail("cost", std::string("kernel '") + kernelName(kind) +
                           "' has no cost (use sqeuclidean, gaussian or "
                           "laplacian)");
}

/// The sizes of the point sets x [(Bt,) N, D] and y [(Bt,) M, D] (Bt = 1
/// unbatched).
struct PointSizes {
  bool batched;
  int64_t Bt, N, M, D;
  /// [Bt, rows] when batched, else [rows]: a per-point vector's shape.
  std::vector<int64_t> perPoint(int64_t rows) const {
    return batched ? std::vector<int64_t>{Bt, rows}
                   : std::vector<int64_t>{rows};
  }
};

/// The sizes of x and y, after checking that both have rank 2 or both
/// rank 3 and the same batch and point dimension D.
static PointSizes checkPoints(const char *fn, const Tensor &x,
                              const Tensor &y) {
  check(x.rank() == 2 || x.rank() == 3, fn,
        "argument 'x' has shape " + detail::shapeToString(x.shape) +
            ", expected rank 2 or 3");
  checkRank(fn, "y", y, x.rank());
  bool batched = x.rank() == 3;
  int64_t Bt = batched ? x.dim(0) : 1;
  int64_t D = x.shape.back(), M = y.dim(x.rank() - 2);
  if (batched)
    checkShape(fn, "y", y, {Bt, M, D});
  else
    checkShape(fn, "y", y, {M, D});
  return {batched, Bt, x.dim(x.rank() - 2), M, D};
}

Tensor mixer::ref::kernelMv(Kernel kind, const Tensor &x, const Tensor &y,
                            const Tensor &v, double bandwidth) {
  const char *fn = "kernelMv";
  PointSizes sizes = checkPoints(fn, x, y);
  auto [batched, Bt, N, M, D] = sizes;
  checkRank(fn, "v", v, x.rank());
  int64_t C = v.shape.back();
  if (batched)
    checkShape(fn, "v", v, {Bt, M, C});
  else
    checkShape(fn, "v", v, {M, C});
  check(kind != Kernel::SqEuclidean, fn,
        "'sqeuclidean' is a cost, not a kernel");
  check(kind == Kernel::Linear || bandwidth > 0.0, fn,
        "bandwidth " + std::to_string(bandwidth) + " is not positive");

  Tensor out(batched ? std::vector<int64_t>{Bt, N, C}
                     : std::vector<int64_t>{N, C});
  for (int64_t bt = 0; bt < Bt; ++bt) {
    for (int64_t i = 0; i < N; ++i) {
      const double *xi = x.data.data() + (bt * N + i) * D;
      double *outI = out.data.data() + (bt * N + i) * C;
      for (int64_t j = 0; j < M; ++j) {
        double kij = kernelValue(kind, xi, y.data.data() + (bt * M + j) * D, D,
                                 bandwidth);
        for (int64_t ch = 0; ch < C; ++ch)
          outI[ch] += kij * v[(bt * M + j) * C + ch];
      }
    }
  }
  return out;
}

Tensor mixer::ref::kernelLse(Kernel kind, const Tensor &x, const Tensor &y,
                             const Tensor *g, double eps) {
  const char *fn = "kernelLse";
  PointSizes sizes = checkPoints(fn, x, y);
  auto [batched, Bt, N, M, D] = sizes;
  if (g)
    checkShape(fn, "g", *g, sizes.perPoint(M));
  check(eps > 0.0, fn, "eps " + std::to_string(eps) + " is not positive");

  Tensor out(sizes.perPoint(N));
  for (int64_t bt = 0; bt < Bt; ++bt) {
    for (int64_t i = 0; i < N; ++i) {
      const double *xi = x.data.data() + (bt * N + i) * D;
      OnlineLogSumExp lse;
      for (int64_t j = 0; j < M; ++j) {
        double cij = cost(kind, xi, y.data.data() + (bt * M + j) * D, D);
        lse.add(-cij / eps + (g ? (*g)[bt * M + j] : 0.0));
      }
      out[bt * N + i] = lse.value();
    }
  }
  return out;
}

Tensor mixer::ref::transportCost(Kernel kind, const Tensor &x, const Tensor &y,
                                 const Tensor &logU, const Tensor &logV,
                                 double eps) {
  const char *fn = "transportCost";
  PointSizes sizes = checkPoints(fn, x, y);
  auto [batched, Bt, N, M, D] = sizes;
  checkShape(fn, "log_u", logU, sizes.perPoint(N));
  checkShape(fn, "log_v", logV, sizes.perPoint(M));
  check(eps > 0.0, fn, "eps " + std::to_string(eps) + " is not positive");

  Tensor out(sizes.perPoint(N));
  for (int64_t bt = 0; bt < Bt; ++bt)
    for (int64_t i = 0; i < N; ++i)
      for (int64_t j = 0; j < M; ++j) {
        double cij = cost(kind, x.data.data() + (bt * N + i) * D,
                          y.data.data() + (bt * M + j) * D, D);
        out[bt * N + i] +=
            std::exp(logU[bt * N + i] + logV[bt * M + j] - cij / eps) * cij;
      }
  return out;
}

SinkhornResult mixer::ref::sinkhorn(Kernel costKind, const Tensor &x,
                                    const Tensor &y, const Tensor &logA,
                                    const Tensor &logB, double eps,
                                    int64_t iterations) {
  const char *fn = "sinkhorn";
  checkRank(fn, "x", x, 2);
  checkRank(fn, "y", y, 2);
  int64_t N = x.dim(0), D = x.dim(1), M = y.dim(0);
  checkShape(fn, "y", y, {M, D});
  checkShape(fn, "log_a", logA, {N});
  checkShape(fn, "log_b", logB, {M});
  check(eps > 0.0, fn, "eps " + std::to_string(eps) + " is not positive");
  check(iterations > 0, fn,
        "iterations " + std::to_string(iterations) + " is not positive");

  // C_ij is recomputed where needed rather than stored, as the op does.
  auto C = [&](int64_t i, int64_t j) {
    return cost(costKind, x.data.data() + i * D, y.data.data() + j * D, D);
  };
  SinkhornResult result{Tensor({N}), Tensor({M}), 0.0};
  Tensor &f = result.f, &g = result.g;
  for (int64_t it = 0; it < iterations; ++it) {
    for (int64_t i = 0; i < N; ++i) {
      OnlineLogSumExp lse;
      for (int64_t j = 0; j < M; ++j)
        lse.add((g[j] - C(i, j)) / eps + logB[j]);
      f[i] = -eps * lse.value();
    }
    for (int64_t j = 0; j < M; ++j) {
      OnlineLogSumExp lse;
      for (int64_t i = 0; i < N; ++i)
        lse.add((f[i] - C(i, j)) / eps + logA[i]);
      g[j] = -eps * lse.value();
    }
  }
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) {
      double cij = C(i, j);
      result.cost +=
          std::exp((f[i] + g[j] - cij) / eps + logA[i] + logB[j]) * cij;
    }
  return result;
}
