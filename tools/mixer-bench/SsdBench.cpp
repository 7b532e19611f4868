//===- SsdBench.cpp - mixer.ssd cases for mixer-bench ---------------------===//
//
// Mamba-2's state space duality scan: x [B,L,H,P], log_a [B,L,H], b, c
// [B,L,G,N], optional init [B,H,P,N] -> y [B,L,H,P], state [B,H,P,N].
//
//===----------------------------------------------------------------------===//

#include "OpBench.h"

#include "mixer/Reference/Gradients.h"

#include <algorithm>

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
class SsdBench : public ScanBench {
public:
  std::string op() const override { return "ssd"; }

  /// Mamba-2-like shapes scaled to a 2-core machine: 8 heads of 64
  /// channels, state 64, chunk 64; a decode step, prefills of growing length
  /// and a batch-2 length that is not a multiple of the chunk with state 128.
  std::vector<Case> cases(const std::string &suite) const override {
    if (suite == "smoke")
      return {make("ssd-decode-L1", 1, 1, 8, 64, 1, 64, 64, true)};
    // The public GPU shapes: batch 4, 2 groups, 8 heads of 128 channels,
    // state 128, chunk 64; and a small chunked case for the GPU check.
    if (suite == "gpu")
      return {make("ssd-gpu-L2048", 4, 2048, 8, 128, 2, 128, 64, false),
              make("ssd-gpu-L8192", 4, 8192, 8, 128, 2, 128, 64, false)};
    if (suite == "gpu-smoke")
      return {make("ssd-gpu-smoke", 1, 200, 4, 32, 2, 32, 64, true)};
    // fwd+bwd at the public training shapes: batch 4, 2 groups, 8 heads of
    // 128 channels, state 128.
    if (suite == "train")
      return {make("ssd-train-L1024", 4, 1024, 8, 128, 2, 128, 64, false),
              make("ssd-train-L2048", 4, 2048, 8, 128, 2, 128, 64, false),
              make("ssd-train-L4096", 4, 4096, 8, 128, 2, 128, 64, false),
              make("ssd-train-L8192", 4, 8192, 8, 128, 2, 128, 64, false)};
    if (!inSuite(suite))
      return {};
    return {
        make("ssd-decode-L1", 1, 1, 8, 64, 1, 64, 64, true),
        make("ssd-L512", 1, 512, 8, 64, 1, 64, 64, false),
        make("ssd-L2048", 1, 2048, 8, 64, 1, 64, 64, false),
        make("ssd-L8192", 1, 8192, 8, 64, 1, 64, 64, false),
        make("ssd-B2-L1000-N128", 2, 1000, 4, 64, 1, 128, 64, true),
    };
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t B = s["B"], L = s["L"], H = s["H"], P = s["P"], G = s["G"],
            N = s["N"];
    std::string X = tensorType({B, L, H, P}), LA = tensorType({B, L, H}),
                BC = tensorType({B, L, G, N}), S = tensorType({B, H, P, N});
    std::vector<OptionalOperand> optional;
    if (s.has("init"))
      optional.push_back({"init", "h", S});
    return scanModule(op(), "chunk_size(" + std::to_string(s["Q"]) + ") ",
                      {{"x", X}, {"la", LA}, {"b", BC}, {"c", BC}}, optional,
                      "y", X, S);
  }

  /// Nominal flops of chunked SSD: per token and head 2qN (scores C B^T) +
  /// 2qP (scores times x) + 4NP (chunk state and its contribution to y),
  /// q = min(Q, L).
  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    double q = std::min(s["Q"], s["L"]);
    return {double(s["B"]) * s["L"] * s["H"] *
                (2 * q * s["N"] + 2 * q * s["P"] + 4.0 * s["N"] * s["P"]),
            0};
  }
  std::string workFormula() const override {
    return "B*L*H*(2*q*N + 2*q*P + 4*N*P), q = min(Q, L)";
  }
  bool countsOpChunk() const override { return true; }

  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t B = s["B"], L = s["L"], H = s["H"], P = s["P"], G = s["G"],
            N = s["N"];
    Instance in;
    mref::Tensor x = in.uniform({B, L, H, P}, rng, -1, 1);
    mref::Tensor la = in.uniform({B, L, H}, rng, -1, 0);
    mref::Tensor b = in.uniform({B, L, G, N}, rng, -1, 1);
    mref::Tensor cc = in.uniform({B, L, G, N}, rng, -1, 1);
    mref::Tensor init;
    if (s.has("init"))
      init = in.uniform({B, H, P, N}, rng, -1, 1);
    Buffer &y = in.arg({B, L, H, P});
    Buffer &state = in.arg({B, H, P, N});
    if (in.wantsReference())
      expectScan(in, y, state,
                 mref::ssd(x, la, b, cc, s.has("init") ? &init : nullptr));
    return in;
  }

  bool usesTensorCores() const override { return true; }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["B"]) * s["L"] * s["H"] * s["P"] * s["N"];
  }

  TorchBaseline torch() const override {
    return {"bench/torch_ssd.py", {}, "torch-chunked"};
  }
  /// torch_ssd.py takes NAME:B,L,H,P,G,N,Q,INIT.
  std::string torchCase(const Case &c) const override {
    const Shape &s = c.shape;
    std::string out = c.name + ":";
    for (const char *d : {"B", "L", "H", "P", "G", "N", "Q"})
      out += std::to_string(s[d]) + ",";
    return out + (s.has("init") ? "1" : "0");
  }

  /// dx, dlog_a, db, dc (and dinit) for the cotangents of y and the state.
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    bool init = c.shape.has("init");
    mref::Tensor h = init ? in.buffers[4]->toTensor() : mref::Tensor();
    mref::SsdGradients g = mref::ssdGradients(
        in.buffers[0]->toTensor(), in.buffers[1]->toTensor(),
        in.buffers[2]->toTensor(), in.buffers[3]->toTensor(),
        init ? &h : nullptr, &cot[0], &cot[1]);
    std::vector<mref::Tensor> out = {std::move(g.dx), std::move(g.dlogA),
                                     std::move(g.db), std::move(g.dc)};
    if (init)
      out.push_back(std::move(g.dinit));
    return out;
  }

private:
  static Case make(const std::string &name, int64_t B, int64_t L, int64_t H,
                   int64_t P, int64_t G, int64_t N, int64_t Q, bool init) {
    return makeCase(
        name,
        {{"B", B}, {"L", L}, {"H", H}, {"P", P}, {"G", G}, {"N", N}, {"Q", Q}},
        {{"init", init}});
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createSsdBench() {
  return std::make_unique<SsdBench>();
}
