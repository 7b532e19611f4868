//===- KernelMvBench.cpp - mixer.kernel_mv cases --------------------------===//
//
// x [N,D], y [M,D], v [M,C], bandwidth tensor<f32> -> [N,C]:
// out_i = sum_j k(x_i, y_j) v_j.
//
//===----------------------------------------------------------------------===//

#include "KernelSumBench.h"

#include "mixer/Reference/KernelMoEGradients.h"

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
constexpr double kBandwidth = 0.5;

class KernelMvBench : public KernelSumBench {
public:
  std::string op() const override { return "kernel_mv"; }

  /// KeOps' Gaussian convolution benchmark scaled to 2 cores: N = M in
  /// {1024, 4096} points in 3 dimensions, 16 channels.
  std::vector<Case> cases(const std::string &suite) const override {
    return casesOf(suite,
                   {/*smoke=*/{make("kmv-smoke", 100, 200, 3, 4)},
                    // The public GPU shapes: D 8, 16 columns, N = M up to 1M.
                    /*gpu=*/
                    {make("kmv-gpu-N65536-D8", 65536, 65536, 8, 16),
                     make("kmv-gpu-N1M-D8", 1 << 20, 1 << 20, 8, 16)},
                    /*gpuSmoke=*/{make("kmv-gpu-smoke", 100, 200, 8, 4)},
                    // fwd+bwd at the public training shape: D 8, 16 columns.
                    /*train=*/{make("kmv-train-N4096-D8", 4096, 4096, 8, 16)},
                    /*cpu=*/
                    {make("kmv-N1024-D3", 1024, 1024, 3, 16),
                     make("kmv-N4096-D3", 4096, 4096, 3, 16)}});
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t N = s["N"], M = s["M"], D = s["D"], C = s["C"];
    std::vector<std::pair<std::string, std::string>> ins = {
        {"x", tensorType({N, D})},
        {"y", tensorType({M, D})},
        {"v", tensorType({M, C})},
        {"h", tensorType({})}};
    std::vector<std::pair<std::string, std::string>> outs = {
        {"o0", tensorType({N, C})}};
    std::string body = "%o = mixer.kernel_mv kernel(gaussian) ins(" +
                       operandList(ins) + ") outs(" + operandList(outs) +
                       ") -> " + tensorType({N, C});
    return funcModule(op(), ins, outs, body, {"o"});
  }

  /// Per pair: the squared distance (3D), the scaling and exp (2), and the
  /// multiply-add into every channel (2C).
  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    return {double(s["N"]) * s["M"] * (3.0 * s["D"] + 2 + 2.0 * s["C"]), 0,
            double(s["N"]) * s["M"]};
  }
  std::string workFormula() const override { return "N*M*(3*D + 2 + 2*C); exps N*M"; }

  /// Points uniform in the unit cube, v in [-1, 1), bandwidth 0.5.
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t N = s["N"], M = s["M"], C = s["C"];
    Instance in;
    auto [x, y] = uniformPoints(in, s, rng);
    mref::Tensor v = in.uniform({M, C}, rng, -1, 1);
    in.arg({}).f32()[0] = float(kBandwidth);
    Buffer &out = in.arg({N, C});
    if (in.wantsReference())
      in.expect(out, mref::kernelMv(mref::Kernel::Gaussian, x, y, v,
                                    double(float(kBandwidth))));
    return in;
  }

  bool usesTensorCores() const override { return true; }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["N"]) * s["M"] * (s["D"] + s["C"]);
  }

  bool differentiable() const override { return true; }
  /// dx, dy, dv and the bandwidth's.
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    mref::KernelMvGradients grads = mref::kernelMvBackward(
        mref::Kernel::Gaussian, in.buffers[0]->toTensor(),
        in.buffers[1]->toTensor(), in.buffers[2]->toTensor(),
        double(float(kBandwidth)), cot[0]);
    return {std::move(grads.dx), std::move(grads.dy), std::move(grads.dv),
            mref::Tensor({}, grads.dBandwidth)};
  }

private:
  static Case make(const std::string &name, int64_t N, int64_t M, int64_t D,
                   int64_t C) {
    return {name, {{{"N", N}, {"M", M}, {"D", D}, {"C", C}}, {"gaussian"}}};
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createKernelMvBench() {
  return std::make_unique<KernelMvBench>();
}
