//===- GatedDeltaRuleBench.cpp - mixer.gated_delta_rule cases -------------===//
//
// q, k [B,L,H,Dk], v [B,L,H,Dv], g, beta [B,L,H], optional init
// [B,H,Dk,Dv] -> o [B,L,H,Dv], state [B,H,Dk,Dv].
//
//===----------------------------------------------------------------------===//

#include "OpBench.h"

#include "mixer/Reference/RecurrentGradients.h"

#include <cmath>

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
class GatedDeltaRuleBench : public ScanBench {
public:
  std::string op() const override { return "gated_delta_rule"; }

  /// Gated DeltaNet's benchmark shapes (batch 1) scaled to 2 cores: 8 heads
  /// of 64 x 64 state, chunk 64, prefills of growing length; and a batch of
  /// 2 with an initial state and a ragged last chunk.
  std::vector<Case> cases(const std::string &suite) const override {
    if (suite == "smoke")
      return {make("gdr-smoke", 1, 100, 2, 16, 32, 32, true)};
    // The public GPU shapes: batch 4, 8 heads of 64 and of 128.
    if (suite == "gpu")
      return {make("gdr-gpu-L2048-d64", 4, 2048, 8, 64, 64, 64, false),
              make("gdr-gpu-L2048-d128", 4, 2048, 8, 128, 128, 64, false)};
    // fwd+bwd at the public training shapes: batch 2, 8 heads, d 64.
    if (suite == "train")
      return {make("gdr-train-L1024", 2, 1024, 8, 64, 64, 64, false),
              make("gdr-train-L2048", 2, 2048, 8, 64, 64, 64, false),
              make("gdr-train-L4096", 2, 4096, 8, 64, 64, 64, false),
              make("gdr-train-L8192", 2, 8192, 8, 64, 64, 64, false)};
    if (!inSuite(suite))
      return {};
    return {make("gdr-L512", 1, 512, 8, 64, 64, 64, false),
            make("gdr-L2048", 1, 2048, 8, 64, 64, 64, false),
            make("gdr-L8192", 1, 8192, 8, 64, 64, 64, false),
            make("gdr-B2-L1000-init", 2, 1000, 4, 64, 64, 64, true)};
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t B = s["B"], L = s["L"], H = s["H"], Dk = s["Dk"], Dv = s["Dv"];
    std::string QK = tensorType({B, L, H, Dk}), V = tensorType({B, L, H, Dv}),
                G = tensorType({B, L, H}), S = tensorType({B, H, Dk, Dv});
    std::vector<OptionalOperand> optional;
    if (s.has("init"))
      optional.push_back({"init", "h", S});
    return scanModule(op(),
                      "chunk_size(" + std::to_string(s["Q"]) + ") scale(" +
                          floatLiteral(scale(c)) + ") ",
                      {{"q", QK}, {"k", QK}, {"v", V}, {"g", G}, {"beta", G}},
                      optional, "o", V, S);
  }

  /// The recurrent form's count per token and head: S^T k, the rank-one
  /// update and S^T q, 2 Dk Dv each.
  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    // exp(g) per token and head.
    return {6.0 * s["B"] * s["L"] * s["H"] * s["Dk"] * s["Dv"], 0,
            double(s["B"]) * s["L"] * s["H"]};
  }
  std::string workFormula() const override { return "6*B*L*H*Dk*Dv; exps B*L*H"; }

  /// q, v uniform in [-1, 1); k in [-1, 1) scaled to unit length per token
  /// and head (as the models do: I - beta k k^T is then a contraction);
  /// g in [-1, 0), beta in [0, 1), init in [-1, 1); scale 1/sqrt(Dk).
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t B = s["B"], L = s["L"], H = s["H"], Dk = s["Dk"], Dv = s["Dv"];
    Instance in;
    mref::Tensor q = in.uniform({B, L, H, Dk}, rng, -1, 1);
    Buffer &kBuf = in.arg({B, L, H, Dk});
    for (int64_t row = 0; row < B * L * H; ++row) {
      float *k = kBuf.f32() + row * Dk;
      double norm = 0;
      for (int64_t i = 0; i < Dk; ++i) {
        k[i] = float(rng.uniform(-1, 1));
        norm += double(k[i]) * k[i];
      }
      for (int64_t i = 0; i < Dk; ++i)
        k[i] = float(k[i] / std::sqrt(norm));
    }
    mref::Tensor k = kBuf.toTensor();
    mref::Tensor v = in.uniform({B, L, H, Dv}, rng, -1, 1);
    mref::Tensor g = in.uniform({B, L, H}, rng, -1, 0);
    mref::Tensor beta = in.uniform({B, L, H}, rng, 0, 1);
    mref::Tensor init;
    if (s.has("init"))
      init = in.uniform({B, H, Dk, Dv}, rng, -1, 1);
    Buffer &o = in.arg({B, L, H, Dv});
    Buffer &state = in.arg({B, H, Dk, Dv});
    if (in.wantsReference())
      expectScan(in, o, state,
                 mref::gatedDeltaRule(q, k, v, g, beta,
                                      s.has("init") ? &init : nullptr,
                                      scale(c)));
    return in;
  }

  bool usesTensorCores() const override { return true; }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["B"]) * s["L"] * s["H"] * s["Dk"] * s["Dv"];
  }

  TorchBaseline torch() const override {
    return {"bench/torch_scans.py", {op()}, "torch-loop"};
  }

  /// dq, dk, dv, dg, dbeta (and dinit) for the cotangents of o and the
  /// state.
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    bool init = c.shape.has("init");
    std::vector<mref::Tensor> args;
    for (size_t i = 0, e = init ? 6 : 5; i < e; ++i)
      args.push_back(in.buffers[i]->toTensor());
    mref::GatedDeltaRuleGrads g = mref::gatedDeltaRuleVjp(
        args[0], args[1], args[2], args[3], args[4], init ? &args[5] : nullptr,
        scale(c), &cot[0], &cot[1]);
    std::vector<mref::Tensor> out = {std::move(g.q), std::move(g.k),
                                     std::move(g.v), std::move(g.g),
                                     std::move(g.beta)};
    if (init)
      out.push_back(std::move(g.init));
    return out;
  }

private:
  static double scale(const Case &c) { return inverseSqrtScale(c.shape["Dk"]); }
  static Case make(const std::string &name, int64_t B, int64_t L, int64_t H,
                   int64_t Dk, int64_t Dv, int64_t Q, bool init) {
    return makeCase(
        name, {{"B", B}, {"L", L}, {"H", H}, {"Dk", Dk}, {"Dv", Dv}, {"Q", Q}},
        {{"init", init}});
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createGatedDeltaRuleBench() {
  return std::make_unique<GatedDeltaRuleBench>();
}
