//===- GroupedMatmulBench.cpp - mixer.grouped_matmul cases ----------------===//
//
// lhs [T,K] (rows sorted by expert), rhs [E,K,N], group_sizes [E] i64
// -> [T,N]: each group's rows times its expert's matrix.
//
//===----------------------------------------------------------------------===//

#include "CodeTarget.h"
#include "OpBench.h"

#include "mixer/Reference/KernelMoEGradients.h"

#include <cmath>

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
class GroupedMatmulBench : public OpBench {
public:
  std::string op() const override { return "grouped_matmul"; }

  /// An MoE layer's down projection scaled to 2 cores: 4096 routed rows,
  /// 512 x 512 experts, 8 experts of uneven sizes; and 64 small experts
  /// (groups of 2 to 126 rows).
  std::vector<Case> cases(const std::string &suite) const override {
    if (suite == "smoke")
      return {make("gmm-smoke", 64, 32, 16, 4)};
    // The public MoE shapes: 32768 tokens of d_model 512, 8 experts of
    // d_hidden 1024 top-2, and 64 of 256 top-4 (the down projections).
    if (suite == "gpu")
      return {make("gmm-gpu-T65536-E8", 65536, 1024, 512, 8),
              make("gmm-gpu-T131072-E64", 131072, 256, 512, 64)};
    // fwd+bwd of the MoE training step's down projection: 8192 tokens
    // top-2 (16384 rows), 8 experts of 1024 -> d_model 512.
    if (suite == "train")
      return {make("gmm-train-T16384", 16384, 1024, 512, 8)};
    if (suite != "cpu" && suite != "moe" && suite != op())
      return {};
    // Both again with their weights packed once beforehand
    // (mixer.pack_weights, in the panels of this machine's micro-kernel),
    // as an inference model's reused weights are: each call only multiplies.
    return {make("gmm-T4096-E8", 4096, 512, 512, 8),
            make("gmm-T4096-E64", 4096, 256, 256, 64),
            make("gmm-packed-T4096-E8", 4096, 512, 512, 8, /*packed=*/true),
            make("gmm-packed-T4096-E64", 4096, 256, 256, 64, /*packed=*/true)};
  }

  /// The weights as the call takes them: [E, K, N], or with the "packed"
  /// flag [E, P, K, W] in panels of W = the micro-kernel width of the CPU
  /// the code is for.
  static std::vector<int64_t> weightsShape(const Shape &s) {
    int64_t K = s["K"], N = s["N"], E = s["E"];
    if (!s.has("packed"))
      return {E, K, N};
    int64_t W = s["W"];
    return {E, (N + W - 1) / W, K, W};
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], K = s["K"], N = s["N"], E = s["E"];
    std::vector<std::pair<std::string, std::string>> ins = {
        {"lhs", tensorType({T, K})},
        {"rhs", tensorType(weightsShape(s))},
        {"sizes", tensorType({E}, "i64")}};
    std::vector<std::pair<std::string, std::string>> outs = {
        {"out0", tensorType({T, N})}};
    std::string body = "%out = mixer.grouped_matmul ins(" + operandList(ins) +
                       ") outs(" + operandList(outs) + ") -> " +
                       tensorType({T, N});
    return funcModule(op(), ins, outs, body, {"out"});
  }

  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    return {2.0 * s["T"] * s["K"] * s["N"], 0};
  }
  std::string workFormula() const override {
    return "2*T*K*N (the group sizes sum to T)";
  }

  /// lhs uniform in [-1, 1), rhs in [-1, 1) / sqrt(K).
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], K = s["K"], N = s["N"], E = s["E"];
    Instance in;
    double w = 1.0 / std::sqrt(double(K));
    mref::Tensor lhs = in.uniform({T, K}, rng, -1, 1);
    mref::Tensor rhs = c.shape.has("packed")
                           ? packedArg(in, weightsShape(c.shape), N, rng, w)
                           : in.uniform({E, K, N}, rng, -w, w);
    std::vector<int64_t> sizes = groupSizesArg(in, T, E);
    Buffer &out = in.arg({T, N});
    if (in.wantsReference())
      in.expect(out, mref::groupedMatmul(lhs, rhs, sizes));
    return in;
  }
  double tolerance() const override { return 1e-5; }
  std::string toleranceName() const override { return "grouped GEMM"; }

  std::vector<Gemm> gemms(const Case &c) const override {
    const Shape &s = c.shape;
    std::vector<Gemm> out;
    for (int64_t rows : moeGroupSizes(s["T"], s["E"]))
      out.push_back({rows, s["N"], s["K"]});
    return out;
  }
  bool usesTensorCores() const override { return true; }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["T"]) * s["K"] * s["N"];
  }

  TorchBaseline torch() const override {
    return {"bench/torch_moe.py", {op()}, "torch-loop", /*blasThreads=*/true};
  }

  /// Packed weights are mixer's layout: the bench venv's libraries take
  /// [E, K, N] (PyTorch's loop makes its own).
  bool inputsPortable(const Case &c) const override {
    return !c.shape.has("packed");
  }

  bool differentiable() const override { return true; }
  /// dlhs, drhs (the group sizes get none).
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    mref::GroupedMatmulGradients grads = mref::groupedMatmulBackward(
        in.buffers[0]->toTensor(), in.buffers[1]->toTensor(),
        groupSizesOf(*in.buffers[2]), cot[0]);
    return {std::move(grads.dlhs), std::move(grads.drhs)};
  }

private:
  static Case make(const std::string &name, int64_t T, int64_t K, int64_t N,
                   int64_t E, bool packed = false) {
    // Packed weights come in panels of W columns (the "W" dim, printed).
    std::vector<std::pair<std::string, int64_t>> dims = {
        {"T", T}, {"K", K}, {"N", N}, {"E", E}};
    if (packed)
      dims.push_back(
          {"W", currentCodeTarget().description.registerTileColumns()});
    return makeCase(name, dims, {{"packed", packed}});
  }

  /// Weights [E, K, N] uniform in [-w, w), passed packed as `packed`
  /// [E, P, K, W] describes (what mixer.pack_weights writes, zero past N);
  /// returns the unpacked weights for the reference.
  static mref::Tensor packedArg(Instance &in, std::vector<int64_t> packed,
                                int64_t N, mref::Rng &rng, double w) {
    int64_t E = packed[0], P = packed[1], K = packed[2], W = packed[3];
    mref::Tensor rhs = rng.uniformTensor({E, K, N}, -w, w);
    Buffer &buf = in.arg(packed);
    for (int64_t e = 0; e < E; ++e)
      for (int64_t k = 0; k < K; ++k)
        for (int64_t n = 0; n < N; ++n) {
          float v = float(rhs.data[(e * K + k) * N + n]);
          rhs.data[(e * K + k) * N + n] = v;
          buf.f32()[((e * P + n / W) * K + k) * W + n % W] = v;
        }
    return rhs;
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createGroupedMatmulBench() {
  return std::make_unique<GroupedMatmulBench>();
}
