//===- GroupedSwigluBench.cpp - mixer.grouped_swiglu cases ----------------===//
//
// x [T,K] (rows sorted by expert), w_gate, w_up [E,K,F], group_sizes [E]
// i64 -> [T,F]: silu(x W_gate[e]) * (x W_up[e]) on each group's rows.
//
//===----------------------------------------------------------------------===//

#include "OpBench.h"

#include "mixer/Reference/KernelMoEGradients.h"

#include <cmath>

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
class GroupedSwigluBench : public OpBench {
public:
  std::string op() const override { return "grouped_swiglu"; }

  /// An MoE layer's gate and up projections scaled to 2 cores: 4096 routed
  /// rows, K = F = 512, 8 experts of uneven sizes.
  std::vector<Case> cases(const std::string &suite) const override {
    if (suite == "smoke")
      return {make("swiglu-smoke", 64, 32, 48, 4)};
    // The public MoE shapes: 32768 tokens of d_model 512, 8 experts of
    // d_hidden 1024 top-2, and 64 of 256 top-4 (tokens times top-k rows).
    if (suite == "gpu")
      return {make("swiglu-gpu-T65536-E8", 65536, 512, 1024, 8),
              make("swiglu-gpu-T131072-E64", 131072, 512, 256, 64)};
    // fwd+bwd of the MoE training step's up projection: 8192 tokens top-2
    // (16384 rows), d_model 512, 8 experts of 1024.
    if (suite == "train")
      return {make("swiglu-train-T16384", 16384, 512, 1024, 8)};
    if (suite != "cpu" && suite != "moe" && suite != op())
      return {};
    return {make("swiglu-T4096-E8", 4096, 512, 512, 8)};
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], K = s["K"], F = s["F"], E = s["E"];
    std::string W = tensorType({E, K, F});
    std::vector<std::pair<std::string, std::string>> ins = {
        {"x", tensorType({T, K})},
        {"wg", W},
        {"wu", W},
        {"sizes", tensorType({E}, "i64")}};
    std::vector<std::pair<std::string, std::string>> outs = {
        {"out0", tensorType({T, F})}};
    std::string body = "%out = mixer.grouped_swiglu ins(" + operandList(ins) +
                       ") outs(" + operandList(outs) + ") -> " +
                       tensorType({T, F});
    return funcModule(op(), ins, outs, body, {"out"});
  }

  /// Two GEMMs; silu and the product are not counted.
  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    // The sigmoid of silu per output element.
    return {4.0 * s["T"] * s["K"] * s["F"], 0, double(s["T"]) * s["F"]};
  }
  std::string workFormula() const override {
    return "4*T*K*F (two GEMMs; the group sizes sum to T); exps T*F";
  }

  /// x uniform in [-1, 1), the weights in [-1, 1) / sqrt(K).
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], K = s["K"], F = s["F"], E = s["E"];
    Instance in;
    double w = 1.0 / std::sqrt(double(K));
    mref::Tensor x = in.uniform({T, K}, rng, -1, 1);
    mref::Tensor wg = in.uniform({E, K, F}, rng, -w, w);
    mref::Tensor wu = in.uniform({E, K, F}, rng, -w, w);
    std::vector<int64_t> sizes = groupSizesArg(in, T, E);
    Buffer &out = in.arg({T, F});
    if (in.wantsReference())
      in.expect(out, mref::groupedSwiglu(x, wg, wu, sizes));
    return in;
  }
  double tolerance() const override { return 1e-5; }
  std::string toleranceName() const override { return "grouped GEMM"; }

  /// The gate and up projections of every group (the SwiGLU itself is
  /// not a GEMM).
  std::vector<Gemm> gemms(const Case &c) const override {
    const Shape &s = c.shape;
    std::vector<Gemm> out;
    for (int64_t rows : moeGroupSizes(s["T"], s["E"]))
      for (int i = 0; i < 2; ++i)
        out.push_back({rows, s["F"], s["K"]});
    return out;
  }
  bool usesTensorCores() const override { return true; }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return 2.0 * s["T"] * s["K"] * s["F"];
  }

  TorchBaseline torch() const override {
    return {"bench/torch_moe.py", {op()}, "torch-loop", /*blasThreads=*/true};
  }

  bool differentiable() const override { return true; }
  /// dx, dw_gate, dw_up (the group sizes get none).
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    mref::GroupedSwigluGradients grads = mref::groupedSwigluBackward(
        in.buffers[0]->toTensor(), in.buffers[1]->toTensor(),
        in.buffers[2]->toTensor(), groupSizesOf(*in.buffers[3]), cot[0]);
    return {std::move(grads.dx), std::move(grads.dwGate),
            std::move(grads.dwUp)};
  }

private:
  static Case make(const std::string &name, int64_t T, int64_t K, int64_t F,
                   int64_t E) {
    return {name, {{{"T", T}, {"K", K}, {"F", F}, {"E", E}}, {}}};
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createGroupedSwigluBench() {
  return std::make_unique<GroupedSwigluBench>();
}
