//===- KernelGradients.cpp - fp64 gradients of the kernel sums ------------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// kernel_mv, kernel_lse and sinkhorn backward as dense double sums over every (i, j)
// pair, with the derivatives of each kernel and cost written out from their
// formulas (r = ||x - y||, h the bandwidth):
//
//   gaussian   k = exp(-r^2/(2h^2))      grad_x k = -k (x - y) / h^2
//                                        dk/dh = k r^2 / h^3
//   laplacian  k = exp(-r/h)             grad_x k = -k (x - y) / (r h)
//                                        dk/dh = k r / h^2
//   matern32   k = (1 + s) exp(-s),      grad_x k = -(3/h^2) exp(-s) (x - y)
//              s = sqrt(3) r / h         dk/dh = s^2 exp(-s) / h
//   inverse_multiquadric                 grad_x k = -k^3 (x - y) / h^2
//              k = (1 + r^2/h^2)^-1/2    dk/dh = k^3 r^2 / h^3
//   linear     k = <x, y>                grad_x k = y, no bandwidth
//
//   cost c:    sqeuclidean r^2 -> grad_x c = 2 (x - y); gaussian r^2/2 ->
//              (x - y); laplacian r -> (x - y) / r
//
// grad_y = -grad_x for every kernel and cost but the linear kernel
// (grad_y <x, y> = x). Gradients of r at r = 0 are taken as 0.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "mixer/Reference/KernelMoEGradients.h"

#include <cmath>

using namespace mixer::ref;
using detail::check;

namespace {

/// The factor a of grad_x k = a (x - y) and dk/dh of a radial kernel at
/// squared distance r2.
struct RadialDerivative {
  double gradFactor, dBandwidth;
};

RadialDerivative radialDerivative(Kernel kind, double r2, double h) {
  double r = std::sqrt(r2);
  switch (kind) {
  case Kernel::Gaussian: {
    double k = std::exp(-r2 / (2.0 * h * h));
    return {-k / (h * h), k * r2 / (h * h * h)};
  }
  case Kernel::Laplacian: {
    double k = std::exp(-r / h);
    return {r > 0.0 ? -k / (r * h) : 0.0, k * r / (h * h)};
  }
  case Kernel::Matern32: {
    double s = std::sqrt(3.0) * r / h;
    return {-3.0 / (h * h) * std::exp(-s), s * s * std::exp(-s) / h};
  }
  case Kernel::InverseMultiquadric: {
    double k = 1.0 / std::sqrt(1.0 + r2 / (h * h));
    return {-k * k * k / (h * h), k * k * k * r2 / (h * h * h)};
  }
  case Kernel::Linear:
  case Kernel::SqEuclidean:
    break;
  }
  detail::fail("kernelMvBackward", std::string("kernel '") + kernelName(kind) +
                                       "' is not radial");
}

/// The factor a of grad_x c = a (x - y) of a cost at squared distance r2.
double costGradFactor(Kernel kind, double r2) {
  switch (kind) {
  case Kernel::SqEuclidean:
    return 2.0;
  case Kernel::Gaussian:
    return 1.0;
  case Kernel::Laplacian:
    return r2 > 0.0 ? 1.0 / std::sqrt(r2) : 0.0;
  default:
    break;
  }
  detail::fail("kernelLseBackward", std::string("kernel '") +
                                        kernelName(kind) + "' has no cost");
}

double squaredDistance(const double *x, const double *y, int64_t d) {
  double sum = 0.0;
  for (int64_t i = 0; i < d; ++i)
    sum += (x[i] - y[i]) * (x[i] - y[i]);
  return sum;
}

/// Shapes of the point sets: batch Bt (1 when unbatched), N, M, D.
struct PointShape {
  bool batched;
  int64_t Bt, N, M, D;
};

PointShape pointShape(const char *fn, const Tensor &x, const Tensor &y) {
  check(x.rank() == 2 || x.rank() == 3, fn, "argument 'x' must have rank 2 or 3");
  check(y.rank() == x.rank(), fn, "argument 'y' must have the rank of 'x'");
  bool batched = x.rank() == 3;
  PointShape s{batched, batched ? x.dim(0) : 1, x.dim(x.rank() - 2),
               y.dim(y.rank() - 2), x.shape.back()};
  check(y.shape.back() == s.D, fn, "arguments 'x' and 'y' differ in D");
  check(!batched || y.dim(0) == s.Bt, fn, "arguments 'x' and 'y' differ in Bt");
  return s;
}

std::vector<int64_t> withBatch(const PointShape &s,
                               std::vector<int64_t> shape) {
  if (s.batched)
    shape.insert(shape.begin(), s.Bt);
  return shape;
}

} // namespace

KernelMvGradients mixer::ref::kernelMvBackward(Kernel kind, const Tensor &x,
                                               const Tensor &y, const Tensor &v,
                                               double bandwidth,
                                               const Tensor &dout) {
  const char *fn = "kernelMvBackward";
  PointShape s = pointShape(fn, x, y);
  int64_t C = v.shape.back();
  detail::checkShape(fn, "v", v, withBatch(s, {s.M, C}));
  detail::checkShape(fn, "dout", dout, withBatch(s, {s.N, C}));
  check(kind != Kernel::SqEuclidean, fn, "'sqeuclidean' is not a kernel");
  check(kind == Kernel::Linear || bandwidth > 0.0, fn,
        "bandwidth is not positive");
  int64_t D = s.D;
  KernelMvGradients grads{Tensor(withBatch(s, {s.N, D})),
                          Tensor(withBatch(s, {s.M, D})),
                          Tensor(withBatch(s, {s.M, C})), 0.0};
  for (int64_t bt = 0; bt < s.Bt; ++bt)
    for (int64_t i = 0; i < s.N; ++i)
      for (int64_t j = 0; j < s.M; ++j) {
        const double *xi = &x.data[(bt * s.N + i) * D];
        const double *yj = &y.data[(bt * s.M + j) * D];
        const double *di = &dout.data[(bt * s.N + i) * C];
        const double *vj = &v.data[(bt * s.M + j) * C];
        double *dxi = &grads.dx.data[(bt * s.N + i) * D];
        double *dyj = &grads.dy.data[(bt * s.M + j) * D];
        double *dvj = &grads.dv.data[(bt * s.M + j) * C];
        double kij = kernelValue(kind, xi, yj, D, bandwidth);
        double dot = 0.0;
        for (int64_t c = 0; c < C; ++c) {
          dot += di[c] * vj[c];
          dvj[c] += kij * di[c];
        }
        if (kind == Kernel::Linear) {
          for (int64_t d = 0; d < D; ++d) {
            dxi[d] += dot * yj[d];
            dyj[d] += dot * xi[d];
          }
          continue;
        }
        RadialDerivative der =
            radialDerivative(kind, squaredDistance(xi, yj, D), bandwidth);
        for (int64_t d = 0; d < D; ++d) {
          double g = dot * der.gradFactor * (xi[d] - yj[d]);
          dxi[d] += g;
          dyj[d] -= g;
        }
        grads.dBandwidth += dot * der.dBandwidth;
      }
  return grads;
}

KernelLseGradients mixer::ref::kernelLseBackward(Kernel kind, const Tensor &x,
                                                 const Tensor &y,
                                                 const Tensor *g, double eps,
                                                 const Tensor &dout) {
  const char *fn = "kernelLseBackward";
  PointShape s = pointShape(fn, x, y);
  if (g)
    detail::checkShape(fn, "g", *g, withBatch(s, {s.M}));
  detail::checkShape(fn, "dout", dout, withBatch(s, {s.N}));
  check(eps > 0.0, fn, "eps is not positive");
  Tensor out = kernelLse(kind, x, y, g, eps);
  int64_t D = s.D;
  KernelLseGradients grads{Tensor(withBatch(s, {s.N, D})),
                           Tensor(withBatch(s, {s.M, D})),
                           Tensor(withBatch(s, {s.M}))};
  for (int64_t bt = 0; bt < s.Bt; ++bt)
    for (int64_t i = 0; i < s.N; ++i)
      for (int64_t j = 0; j < s.M; ++j) {
        const double *xi = &x.data[(bt * s.N + i) * D];
        const double *yj = &y.data[(bt * s.M + j) * D];
        double gj = g ? (*g)[bt * s.M + j] : 0.0;
        double r2 = squaredDistance(xi, yj, D);
        double sij = -cost(kind, xi, yj, D) / eps + gj;
        double weight = dout[bt * s.N + i] * std::exp(sij - out[bt * s.N + i]);
        grads.dg[bt * s.M + j] += weight;
        double a = -weight / eps * costGradFactor(kind, r2);
        for (int64_t d = 0; d < D; ++d) {
          grads.dx[(bt * s.N + i) * D + d] += a * (xi[d] - yj[d]);
          grads.dy[(bt * s.M + j) * D + d] -= a * (xi[d] - yj[d]);
        }
      }
  return grads;
}

SinkhornGradients mixer::ref::sinkhornBackward(
    Kernel costKind, const Tensor &x, const Tensor &y, const Tensor &logA,
    const Tensor &logB, double eps, const Tensor &f, const Tensor &g,
    double dCost) {
  const char *fn = "sinkhornBackward";
  detail::checkRank(fn, "x", x, 2);
  PointShape s = pointShape(fn, x, y);
  detail::checkShape(fn, "logA", logA, {s.N});
  detail::checkShape(fn, "logB", logB, {s.M});
  detail::checkShape(fn, "f", f, {s.N});
  detail::checkShape(fn, "g", g, {s.M});
  check(eps > 0.0, fn, "eps is not positive");
  int64_t D = s.D;
  SinkhornGradients grads{Tensor({s.N, D}), Tensor({s.M, D}), Tensor({s.N}),
                          Tensor({s.M})};
  for (int64_t i = 0; i < s.N; ++i)
    for (int64_t j = 0; j < s.M; ++j) {
      const double *xi = &x.data[i * D];
      const double *yj = &y.data[j * D];
      double c = cost(costKind, xi, yj, D);
      double plan =
          std::exp((f[i] + g[j] - c) / eps + logA[i] + logB[j]);
      double a = dCost * plan * costGradFactor(costKind, squaredDistance(xi, yj, D));
      for (int64_t d = 0; d < D; ++d) {
        grads.dx[i * D + d] += a * (xi[d] - yj[d]);
        grads.dy[j * D + d] -= a * (xi[d] - yj[d]);
      }
    }
  for (int64_t i = 0; i < s.N; ++i)
    grads.dlogA[i] = dCost * std::exp(logA[i]) * f[i];
  for (int64_t j = 0; j < s.M; ++j)
    grads.dlogB[j] = dCost * std::exp(logB[j]) * g[j];
  return grads;
}
