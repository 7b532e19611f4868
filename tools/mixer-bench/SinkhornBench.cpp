//===- SinkhornBench.cpp - mixer.sinkhorn cases ---------------------------===//
//
// x [N,D], y [M,D], log_a [N], log_b [M], eps tensor<f32>; iterations, cost
// -> f [N], g [M], cost tensor<f32> (log-domain Sinkhorn).
//
//===----------------------------------------------------------------------===//

#include "KernelSumBench.h"

#include "mixer/Reference/KernelMoEGradients.h"

#include <algorithm>
#include <cmath>

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
constexpr double kEps = 0.1;

class SinkhornBench : public KernelSumBench {
public:
  std::string op() const override { return "sinkhorn"; }
  /// Its fwd+bwd rows differentiate the transport cost (the entropic OT
  /// value <a, f> + <b, g>, by the envelope theorem); f and g get zero
  /// cotangents (they have no gradient).
  bool differentiable() const override { return true; }
  bool outputHasCotangent(size_t k) const override { return k == 2; }
  bool gradientOfOutputs() const override { return false; }
  /// The tolerance of the implicit gradient.
  double gradientTolerance() const override { return 1e-3; }

  /// Entropic optimal transport between two clouds of points in 3
  /// dimensions with uniform weights (GeomLoss-style), squared Euclidean
  /// cost, eps 0.1, 20 iterations; N = M = 1024, and 4096 outside the cpu
  /// suite (its PyTorch and fp64 runs alone take minutes on 2 cores).
  std::vector<Case> cases(const std::string &suite) const override {
    return casesOf(
        suite,
        {/*smoke=*/{make("sinkhorn-smoke", 100, 200, 3, 5)},
         // The public GPU shapes: D 8.
         /*gpu=*/{make("sinkhorn-gpu-N16384-D8-I20", 16384, 16384, 8, 20)},
         /*gpuSmoke=*/{make("sinkhorn-gpu-smoke", 256, 512, 8, 5)},
         /*train=*/{make("sinkhorn-train-N4096-I20", 4096, 4096, 3, 20)},
         /*cpu=*/{make("sinkhorn-N1024-I20", 1024, 1024, 3, 20)},
         /*beyondCpu=*/{make("sinkhorn-N4096-I20", 4096, 4096, 3, 20)}});
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t N = s["N"], M = s["M"], D = s["D"];
    std::vector<std::pair<std::string, std::string>> ins = {
        {"x", tensorType({N, D})}, {"y", tensorType({M, D})},
        {"la", tensorType({N})},   {"lb", tensorType({M})},
        {"eps", tensorType({})}};
    std::vector<std::pair<std::string, std::string>> outs = {
        {"f0", tensorType({N})},
        {"g0", tensorType({M})},
        {"c0", tensorType({})}};
    std::string body = "%f, %g, %c = mixer.sinkhorn cost(sqeuclidean) "
                       "iterations(" +
                       std::to_string(s["I"]) + ") ins(" + operandList(ins) +
                       ") outs(" + operandList(outs) + ") -> " +
                       tensorType({N}) + ", " + tensorType({M}) + ", " +
                       tensorType({});
    return funcModule(op(), ins, outs, body, {"f", "g", "c"});
  }

  /// Per pair: the cost (3D); per iteration two log-sum-exp passes of
  /// about 5 operations each; the transport cost at the end (6).
  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    // Two log-sum-exps over the N x M kernel per iteration.
    return {double(s["N"]) * s["M"] * (3.0 * s["D"] + 10.0 * s["I"] + 6), 0,
            2.0 * s["I"] * s["N"] * s["M"]};
  }
  std::string workFormula() const override {
    return "N*M*(3*D + 10*I + 6), I iterations; exps 2*I*N*M";
  }

  /// Points uniform in the unit cube, uniform weights (log_a = -log N),
  /// eps 0.1.
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t N = s["N"], M = s["M"];
    Instance in;
    auto [x, y] = uniformPoints(in, s, rng);
    Buffer &la = in.arg({N});
    Buffer &lb = in.arg({M});
    std::fill(la.f32(), la.f32() + N, float(-std::log(double(N))));
    std::fill(lb.f32(), lb.f32() + M, float(-std::log(double(M))));
    in.arg({}).f32()[0] = float(kEps);
    Buffer &f = in.arg({N});
    Buffer &g = in.arg({M});
    Buffer &cost = in.arg({});
    if (!in.wantsReference())
      return in;
    mref::SinkhornResult ref =
        mref::sinkhorn(mref::Kernel::SqEuclidean, x, y, la.toTensor(),
                       lb.toTensor(), double(float(kEps)), s["I"]);
    in.expect(f, std::move(ref.f));
    in.expect(g, std::move(ref.g));
    mref::Tensor costRef(std::vector<int64_t>{}, ref.cost);
    in.expect(cost, std::move(costRef));
    return in;
  }

  /// The envelope gradient at the fp64 potentials of the same iterations,
  /// for the transport cost's cotangent (eps gets none).
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    const Shape &s = c.shape;
    mref::Tensor x = in.buffers[0]->toTensor(), y = in.buffers[1]->toTensor(),
                 la = in.buffers[2]->toTensor(), lb = in.buffers[3]->toTensor();
    double eps = double(float(kEps));
    mref::SinkhornResult fwd =
        mref::sinkhorn(mref::Kernel::SqEuclidean, x, y, la, lb, eps, s["I"]);
    mref::SinkhornGradients grads =
        mref::sinkhornBackward(mref::Kernel::SqEuclidean, x, y, la, lb, eps,
                               fwd.f, fwd.g, cot[2][0]);
    return {std::move(grads.dx), std::move(grads.dy), std::move(grads.dlogA),
            std::move(grads.dlogB), mref::Tensor()};
  }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["N"]) * s["M"] * (2.0 * s["I"] + s["D"]);
  }

private:
  static Case make(const std::string &name, int64_t N, int64_t M, int64_t D,
                   int64_t I) {
    return {name,
            {{{"N", N}, {"M", M}, {"D", D}, {"I", I}}, {"sqeuclidean"}}};
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createSinkhornBench() {
  return std::make_unique<SinkhornBench>();
}
