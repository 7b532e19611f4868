//===- SelectiveScanBench.cpp - mixer.selective_scan cases ----------------===//
//
// u, delta [B,L,D], A [D,N], b, c [B,L,G,N], optional D_skip [D], z [B,L,D],
// delta_bias [D], init [B,D,N] -> y [B,L,D], state [B,D,N].
//
//===----------------------------------------------------------------------===//

#include "OpBench.h"

#include "mixer/Reference/RecurrentGradients.h"

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
class SelectiveScanBench : public ScanBench {
public:
  std::string op() const override { return "selective_scan"; }

  /// Mamba-1 (d_inner 1536, state 16, as in the 130M model) on 2 cores:
  /// every option as the model uses them (delta_softplus, D_skip, z,
  /// delta_bias), prefills of growing length; and a batch of 2 with 4
  /// groups, an initial state and no options.
  std::vector<Case> cases(const std::string &suite) const override {
    if (suite == "smoke")
      return {make("sscan-smoke", 1, 100, 64, 2, 16, true, true)};
    // The public GPU shapes: batch 4, 512 channels, state 16.
    if (suite == "gpu")
      return {make("sscan-gpu-L2048", 4, 2048, 512, 1, 16, true, false),
              make("sscan-gpu-L8192", 4, 8192, 512, 1, 16, true, false)};
    // fwd+bwd at the public training shapes: batch 4, D 512, state 16,
    // with Mamba-1's options.
    if (suite == "train")
      return {make("sscan-train-L1024", 4, 1024, 512, 1, 16, true, false),
              make("sscan-train-L2048", 4, 2048, 512, 1, 16, true, false),
              make("sscan-train-L4096", 4, 4096, 512, 1, 16, true, false),
              make("sscan-train-L8192", 4, 8192, 512, 1, 16, true, false)};
    if (!inSuite(suite))
      return {};
    return {make("sscan-L512", 1, 512, 1536, 1, 16, true, false),
            make("sscan-L2048", 1, 2048, 1536, 1, 16, true, false),
            make("sscan-B2-L1000-G4", 2, 1000, 768, 4, 16, false, true)};
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t B = s["B"], L = s["L"], D = s["D"], G = s["G"], N = s["N"];
    std::string U = tensorType({B, L, D}), BC = tensorType({B, L, G, N}),
                S = tensorType({B, D, N}), Dv = tensorType({D});
    bool options = s.has("options");
    std::vector<OptionalOperand> optional;
    if (options)
      optional = {
          {"D_skip", "dskip", Dv}, {"z", "z", U}, {"delta_bias", "dbias", Dv}};
    if (s.has("init"))
      optional.push_back({"init", "h", S});
    return scanModule(op(), options ? "delta_softplus " : "",
                      {{"u", U},
                       {"delta", U},
                       {"A", tensorType({D, N})},
                       {"b", BC},
                       {"c", BC}},
                      optional, "y", U, S);
  }

  /// Per token, channel and state element: dt*A, its exp, the state update
  /// (two products and a sum) and the output's multiply-add, 6 in all.
  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    // exp(dt * A) per state element and token.
    return {6.0 * s["B"] * s["L"] * s["D"] * s["N"], 0,
            double(s["B"]) * s["L"] * s["D"] * s["N"]};
  }
  std::string workFormula() const override { return "6*B*L*D*N; exps B*L*D*N"; }

  /// u, b, c, D_skip, z uniform in [-1, 1); A in [-2, -0.5). With the
  /// options dt = softplus(delta + delta_bias), delta in [-1, 1) and
  /// delta_bias in [-4, -2) (dt from about 0.007 to 0.3); without them
  /// delta in [0.001, 0.1) is dt itself. init in [-1, 1).
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t B = s["B"], L = s["L"], D = s["D"], G = s["G"], N = s["N"];
    bool options = s.has("options");
    Instance in;
    mref::Tensor u = in.uniform({B, L, D}, rng, -1, 1);
    mref::Tensor delta = options ? in.uniform({B, L, D}, rng, -1, 1)
                                 : in.uniform({B, L, D}, rng, 0.001, 0.1);
    mref::Tensor A = in.uniform({D, N}, rng, -2, -0.5);
    mref::Tensor b = in.uniform({B, L, G, N}, rng, -1, 1);
    mref::Tensor cc = in.uniform({B, L, G, N}, rng, -1, 1);
    mref::Tensor dSkip, z, deltaBias, init;
    mref::SelectiveScanOptions opts;
    if (options) {
      dSkip = in.uniform({D}, rng, -1, 1);
      z = in.uniform({B, L, D}, rng, -1, 1);
      deltaBias = in.uniform({D}, rng, -4, -2);
      opts.dSkip = &dSkip;
      opts.z = &z;
      opts.deltaBias = &deltaBias;
      opts.deltaSoftplus = true;
    }
    if (s.has("init")) {
      init = in.uniform({B, D, N}, rng, -1, 1);
      opts.init = &init;
    }
    Buffer &y = in.arg({B, L, D});
    Buffer &state = in.arg({B, D, N});
    if (in.wantsReference())
      expectScan(in, y, state, mref::selectiveScan(u, delta, A, b, cc, opts));
    return in;
  }

  /// du, ddelta, dA, db, dc (and dD_skip, dz, ddelta_bias with the
  /// options, dinit with an init) for the cotangents of y and the state.
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    bool options = c.shape.has("options"), init = c.shape.has("init");
    std::vector<mref::Tensor> args;
    for (size_t i = 0, e = 5 + (options ? 3 : 0) + (init ? 1 : 0); i < e; ++i)
      args.push_back(in.buffers[i]->toTensor());
    mref::SelectiveScanOptions opts;
    if (options) {
      opts.dSkip = &args[5];
      opts.z = &args[6];
      opts.deltaBias = &args[7];
      opts.deltaSoftplus = true;
    }
    if (init)
      opts.init = &args.back();
    mref::SelectiveScanGrads g = mref::selectiveScanVjp(
        args[0], args[1], args[2], args[3], args[4], opts, &cot[0], &cot[1]);
    std::vector<mref::Tensor> out = {std::move(g.u), std::move(g.delta),
                                     std::move(g.A), std::move(g.b),
                                     std::move(g.c)};
    if (options) {
      out.push_back(std::move(g.dSkip));
      out.push_back(std::move(g.z));
      out.push_back(std::move(g.deltaBias));
    }
    if (init)
      out.push_back(std::move(g.init));
    return out;
  }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["B"]) * s["L"] * s["D"] * s["N"];
  }

  TorchBaseline torch() const override {
    return {"bench/torch_scans.py", {op()}, "torch-loop"};
  }

private:
  static Case make(const std::string &name, int64_t B, int64_t L, int64_t D,
                   int64_t G, int64_t N, bool options, bool init) {
    return makeCase(name, {{"B", B}, {"L", L}, {"D", D}, {"G", G}, {"N", N}},
                    {{"options", options}, {"init", init}});
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createSelectiveScanBench() {
  return std::make_unique<SelectiveScanBench>();
}
