//===- TransportCostBench.cpp - mixer.transport_cost cases ----------------===//
//
// x [N,D], y [M,D], log_u [N], log_v [M], eps tensor<f32> -> [N]:
// out_i = sum_j exp(log_u_i + log_v_j - c(x_i, y_j) / eps) c(x_i, y_j).
//
//===----------------------------------------------------------------------===//

#include "KernelSumBench.h"

#include <cmath>

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
constexpr double kEps = 0.1;

class TransportCostBench : public KernelSumBench {
public:
  std::string op() const override { return "transport_cost"; }

  /// The transport cost at the end of a Sinkhorn solve of sinkhorn's cases:
  /// N = M in {1024, 4096}, points in 3 dimensions, squared Euclidean cost.
  /// (In 16 dimensions at eps 0.1, the f32 rounding of r^2 from the norms,
  /// divided by eps, already costs about 1e-5 of the plan's entries.)
  std::vector<Case> cases(const std::string &suite) const override {
    return casesOf(suite,
                   {/*smoke=*/{make("tcost-smoke", 100, 200, 3)},
                    /*gpu=*/{make("tcost-gpu-N65536-D8", 65536, 65536, 8)},
                    /*gpuSmoke=*/{make("tcost-gpu-smoke", 100, 200, 8)},
                    /*train=*/{},
                    /*cpu=*/
                    {make("tcost-N1024-D3", 1024, 1024, 3),
                     make("tcost-N4096-D3", 4096, 4096, 3)}});
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t N = s["N"], M = s["M"], D = s["D"];
    std::vector<std::pair<std::string, std::string>> ins = {
        {"x", tensorType({N, D})}, {"y", tensorType({M, D})},
        {"lu", tensorType({N})},   {"lv", tensorType({M})},
        {"eps", tensorType({})}};
    std::vector<std::pair<std::string, std::string>> outs = {
        {"o0", tensorType({N})}};
    std::string body = "%o = mixer.transport_cost cost(sqeuclidean) ins(" +
                       operandList(ins) + ") outs(" + operandList(outs) +
                       ") -> " + tensorType({N});
    return funcModule(op(), ins, outs, body, {"o"});
  }

  /// Per pair: the squared distance (3D), the exponent (3), the exp and
  /// the product with the cost (2).
  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    return {double(s["N"]) * s["M"] * (3.0 * s["D"] + 5), 0,
            double(s["N"]) * s["M"]};
  }
  std::string workFormula() const override { return "N*M*(3*D + 5); exps N*M"; }

  /// Points uniform in the unit cube, eps 0.1, log_u and log_v uniform in
  /// [-log(n) - 1, -log(n) + 1) (uniform marginals and potentials of order
  /// eps).
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t N = s["N"], M = s["M"];
    Instance in;
    auto [x, y] = uniformPoints(in, s, rng);
    double logN = std::log(double(N)), logM = std::log(double(M));
    mref::Tensor logU = in.uniform({N}, rng, -logN - 1, -logN + 1);
    mref::Tensor logV = in.uniform({M}, rng, -logM - 1, -logM + 1);
    in.arg({}).f32()[0] = float(kEps);
    Buffer &out = in.arg({N});
    if (in.wantsReference())
      in.expect(out, mref::transportCost(mref::Kernel::SqEuclidean, x, y,
                                         logU, logV, double(float(kEps))));
    return in;
  }

private:
  static Case make(const std::string &name, int64_t N, int64_t M, int64_t D) {
    return {name, {{{"N", N}, {"M", M}, {"D", D}}, {"sqeuclidean"}}};
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createTransportCostBench() {
  return std::make_unique<TransportCostBench>();
}
