//===- KernelLseBench.cpp - mixer.kernel_lse cases ------------------------===//
//
// x [N,D], y [M,D], eps tensor<f32>, optional g [M] -> [N]:
// out_i = log sum_j exp(-c(x_i, y_j) / eps + g_j).
//
//===----------------------------------------------------------------------===//

#include "KernelSumBench.h"

#include "mixer/Reference/KernelMoEGradients.h"

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
constexpr double kEps = 0.1;

class KernelLseBench : public KernelSumBench {
public:
  std::string op() const override { return "kernel_lse"; }

  /// KeOps' soft-min benchmarks scaled to 2 cores: N = M in {1024, 4096},
  /// points in 3 and 16 dimensions, squared Euclidean cost with a dual
  /// potential g (one Sinkhorn half-step).
  std::vector<Case> cases(const std::string &suite) const override {
    return casesOf(suite,
                   {/*smoke=*/{make("lse-smoke", 100, 200, 3)},
                    // The public GPU shapes: D 8.
                    /*gpu=*/{make("lse-gpu-N65536-D8", 65536, 65536, 8)},
                    /*gpuSmoke=*/{make("lse-gpu-smoke", 100, 200, 8)},
                    // fwd+bwd at the public training shape: D 8.
                    /*train=*/{make("lse-train-N4096-D8", 4096, 4096, 8)},
                    /*cpu=*/
                    {make("lse-N1024-D3", 1024, 1024, 3),
                     make("lse-N1024-D16", 1024, 1024, 16),
                     make("lse-N4096-D3", 4096, 4096, 3),
                     make("lse-N4096-D16", 4096, 4096, 16)}});
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t N = s["N"], M = s["M"], D = s["D"];
    std::vector<std::pair<std::string, std::string>> ins = {
        {"x", tensorType({N, D})},
        {"y", tensorType({M, D})},
        {"eps", tensorType({})}};
    std::string body = "%o = mixer.kernel_lse kernel(sqeuclidean) ins(" +
                       operandList(ins) + ")";
    ins.push_back({"g", tensorType({M})});
    body += " g(%g : " + ins.back().second + ")";
    std::vector<std::pair<std::string, std::string>> outs = {
        {"o0", tensorType({N})}};
    body += " outs(" + operandList(outs) + ") -> " + tensorType({N});
    return funcModule(op(), ins, outs, body, {"o"});
  }

  /// Per pair: the squared distance (3D), the scaling, adding g and the
  /// exp-accumulation (3).
  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    return {double(s["N"]) * s["M"] * (3.0 * s["D"] + 3), 0,
            double(s["N"]) * s["M"]};
  }
  std::string workFormula() const override { return "N*M*(3*D + 3); exps N*M"; }

  /// Points uniform in the unit cube, g in [-1, 1), eps 0.1.
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t N = s["N"], M = s["M"];
    Instance in;
    auto [x, y] = uniformPoints(in, s, rng);
    in.arg({}).f32()[0] = float(kEps);
    mref::Tensor g = in.uniform({M}, rng, -1, 1);
    Buffer &out = in.arg({N});
    if (in.wantsReference())
      in.expect(out, mref::kernelLse(mref::Kernel::SqEuclidean, x, y, &g,
                                     double(float(kEps))));
    return in;
  }

  bool usesTensorCores() const override { return true; }

  bool differentiable() const override { return true; }
  /// dx, dy, none for eps, dg.
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    mref::Tensor g = in.buffers[3]->toTensor();
    mref::KernelLseGradients grads = mref::kernelLseBackward(
        mref::Kernel::SqEuclidean, in.buffers[0]->toTensor(),
        in.buffers[1]->toTensor(), &g, double(float(kEps)), cot[0]);
    return {std::move(grads.dx), std::move(grads.dy), {}, std::move(grads.dg)};
  }

private:
  static Case make(const std::string &name, int64_t N, int64_t M, int64_t D) {
    return {name, {{{"N", N}, {"M", M}, {"D", D}}, {"sqeuclidean", "g"}}};
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createKernelLseBench() {
  return std::make_unique<KernelLseBench>();
}
