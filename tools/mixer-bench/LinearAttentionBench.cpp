//===- LinearAttentionBench.cpp - mixer.linear_attention cases ------------===//
//
// q, k [B,L,H,Dk], v [B,L,H,Dv], optional log_decay [B,L,H] and init
// [B,H,Dk,Dv] -> o [B,L,H,Dv], state [B,H,Dk,Dv].
//
//===----------------------------------------------------------------------===//

#include "OpBench.h"

#include "mixer/Reference/Gradients.h"

#include <algorithm>
#include <cmath>

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
class LinearAttentionBench : public ScanBench {
public:
  std::string op() const override { return "linear_attention"; }

  /// The public linear-attention benchmarks (batch 1, head dim 64) scaled
  /// to 2 cores: 8 heads, chunk 64, per-token decays (RetNet/GLA-style
  /// scalar gates), prefills of growing length; and a batch of 2 with an
  /// initial state and a length that is not a multiple of the chunk.
  std::vector<Case> cases(const std::string &suite) const override {
    if (suite == "smoke")
      return {make("la-smoke", 1, 100, 2, 16, 32, 32, true, true)};
    // The public GPU shapes: batch 2, 4 heads of 64.
    if (suite == "gpu")
      return {make("la-gpu-L2048", 2, 2048, 4, 64, 64, 64, true, false),
              make("la-gpu-L8192", 2, 8192, 4, 64, 64, 64, true, false)};
    // fwd+bwd at the public training shapes: batch 2, 4 heads, D 64,
    // chunk 128.
    if (suite == "train")
      return {make("la-train-L1024", 2, 1024, 4, 64, 64, 128, true, false),
              make("la-train-L2048", 2, 2048, 4, 64, 64, 128, true, false),
              make("la-train-L4096", 2, 4096, 4, 64, 64, 128, true, false),
              make("la-train-L8192", 2, 8192, 4, 64, 64, 128, true, false)};
    if (!inSuite(suite))
      return {};
    return {make("la-L512", 1, 512, 8, 64, 64, 64, true, false),
            make("la-L2048", 1, 2048, 8, 64, 64, 64, true, false),
            make("la-L8192", 1, 8192, 8, 64, 64, 64, true, false),
            make("la-B2-L1000-init", 2, 1000, 4, 64, 64, 64, true, true)};
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t B = s["B"], L = s["L"], H = s["H"], Dk = s["Dk"], Dv = s["Dv"];
    std::string QK = tensorType({B, L, H, Dk}), V = tensorType({B, L, H, Dv}),
                S = tensorType({B, H, Dk, Dv});
    std::vector<OptionalOperand> optional;
    if (s.has("decay"))
      optional.push_back({"log_decay", "ld", tensorType({B, L, H})});
    if (s.has("init"))
      optional.push_back({"init", "h", S});
    return scanModule(op(),
                      "chunk_size(" + std::to_string(s["Q"]) + ") scale(" +
                          floatLiteral(scale(c)) + ") ",
                      {{"q", QK}, {"k", QK}, {"v", V}}, optional, "o", V, S);
  }

  /// Chunked form, per token and head: 2q(Dk + Dv) within the chunk (q k^T
  /// and the scores times v) + 4 Dk Dv (the chunk's state and the incoming
  /// state's contribution), q = min(Q, L).
  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    double q = std::min(s["Q"], s["L"]);
    return {double(s["B"]) * s["L"] * s["H"] *
                (2 * q * (s["Dk"] + s["Dv"]) + 4.0 * s["Dk"] * s["Dv"]),
            0};
  }
  std::string workFormula() const override {
    return "B*L*H*(2*q*(Dk + Dv) + 4*Dk*Dv), q = min(Q, L)";
  }
  bool countsOpChunk() const override { return true; }

  /// q, k, v uniform in [-1, 1), log_decay in [-1, 0), init in [-1, 1);
  /// scale 1/sqrt(Dk).
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t B = s["B"], L = s["L"], H = s["H"], Dk = s["Dk"], Dv = s["Dv"];
    Instance in;
    mref::Tensor q = in.uniform({B, L, H, Dk}, rng, -1, 1);
    mref::Tensor k = in.uniform({B, L, H, Dk}, rng, -1, 1);
    mref::Tensor v = in.uniform({B, L, H, Dv}, rng, -1, 1);
    mref::Tensor ld, init;
    if (s.has("decay"))
      ld = in.uniform({B, L, H}, rng, -1, 0);
    if (s.has("init"))
      init = in.uniform({B, H, Dk, Dv}, rng, -1, 1);
    Buffer &o = in.arg({B, L, H, Dv});
    Buffer &state = in.arg({B, H, Dk, Dv});
    if (in.wantsReference())
      expectScan(in, o, state,
                 mref::linearAttention(q, k, v, s.has("decay") ? &ld : nullptr,
                                       s.has("init") ? &init : nullptr,
                                       /*window=*/0, scale(c)));
    return in;
  }

  bool usesTensorCores() const override { return true; }
  /// dq, dk, dv (and dlog_decay, dinit) for the cotangents of the output
  /// and the state.
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    bool decay = c.shape.has("decay"), init = c.shape.has("init");
    mref::Tensor ld = decay ? in.buffers[3]->toTensor() : mref::Tensor();
    mref::Tensor h =
        init ? in.buffers[decay ? 4 : 3]->toTensor() : mref::Tensor();
    mref::LinearAttentionGradients g = mref::linearAttentionGradients(
        in.buffers[0]->toTensor(), in.buffers[1]->toTensor(),
        in.buffers[2]->toTensor(), decay ? &ld : nullptr, init ? &h : nullptr,
        /*window=*/0, scale(c), &cot[0], &cot[1]);
    std::vector<mref::Tensor> out = {std::move(g.dq), std::move(g.dk),
                                     std::move(g.dv)};
    if (decay)
      out.push_back(std::move(g.dlogDecay));
    if (init)
      out.push_back(std::move(g.dinit));
    return out;
  }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["B"]) * s["L"] * s["H"] * s["Dk"] * s["Dv"];
  }

  TorchBaseline torch() const override {
    return {"bench/torch_scans.py", {op()}, "torch-chunked"};
  }

private:
  /// 1/sqrt(Dk), rounded to float as the op's attribute holds it.
  static double scale(const Case &c) { return inverseSqrtScale(c.shape["Dk"]); }
  static Case make(const std::string &name, int64_t B, int64_t L, int64_t H,
                   int64_t Dk, int64_t Dv, int64_t Q, bool decay, bool init) {
    return makeCase(
        name, {{"B", B}, {"L", L}, {"H", H}, {"Dk", Dk}, {"Dv", Dv}, {"Q", Q}},
        {{"decay", decay}, {"init", init}});
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createLinearAttentionBench() {
  return std::make_unique<LinearAttentionBench>();
}
