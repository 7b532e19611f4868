//===- RoutingBench.cpp - mixer.topk_router, moe_dispatch, moe_combine ----===//
//
// The routing ops of an MoE layer, memory-bound: their work is counted in
// bytes (GB/s against the STREAM triad).
//   topk_router: logits [T,E] -> weights [T,k], expert_ids [T,k] i32
//   moe_dispatch: x [T,K], expert_ids [T,k] -> sorted [T*k,K],
//                 group_sizes [E] i64, permutation [T*k] i32
//   moe_combine: expert_out [T*k,N], permutation [T*k], weights [T,k]
//                -> [T,N]
//
//===----------------------------------------------------------------------===//

#include "OpBench.h"

#include "mixer/Reference/KernelMoEGradients.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mixer::bench;
namespace mref = ::mixer::ref;

namespace {
/// k distinct experts per token, uniformly drawn (a partial shuffle).
std::vector<int32_t> randomExpertIds(int64_t T, int64_t E, int64_t k,
                                     mref::Rng &rng) {
  std::vector<int32_t> ids;
  std::vector<int32_t> experts(E);
  for (int64_t t = 0; t < T; ++t) {
    std::iota(experts.begin(), experts.end(), 0);
    for (int64_t j = 0; j < k; ++j) {
      int64_t pick = j + std::min<int64_t>(E - j - 1,
                                           int64_t(rng.uniform(0, E - j)));
      std::swap(experts[j], experts[pick]);
      ids.push_back(experts[j]);
    }
  }
  return ids;
}

/// Whether the integer buffer `b` holds `expected`.
template <typename T>
bool equal(const Buffer &b, const std::vector<T> &expected) {
  for (size_t i = 0; i < expected.size(); ++i)
    if (b.at(i) != double(expected[i]))
      return false;
  return true;
}

/// What the routing families share: their tolerance and the PyTorch
/// baseline of bench/torch_moe.py.
class RoutingFamilyBench : public OpBench {
public:
  double tolerance() const override { return 1e-5; }
  std::string toleranceName() const override { return "moe routing"; }
  TorchBaseline torch() const override {
    return {"bench/torch_moe.py", {op()}, "torch"};
  }
};

class TopkRouterBench : public RoutingFamilyBench {
public:
  std::string op() const override { return "topk_router"; }

  /// 4096 tokens over 8 experts, top 2 (Mixtral-like); 16384 tokens over
  /// 64 experts, top 8 (fine-grained MoE).
  std::vector<Case> cases(const std::string &suite) const override {
    if (suite == "smoke")
      return {make("router-smoke", 64, 8, 2)};
    if (suite == "gpu")
      return {make("router-gpu-T32768-E8-k2", 32768, 8, 2),
              make("router-gpu-T32768-E64-k4", 32768, 64, 4)};
    if (suite != "cpu" && suite != "moe" && suite != op())
      return {};
    return {make("router-T4096-E8-k2", 4096, 8, 2),
            make("router-T16384-E64-k8", 16384, 64, 8)};
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], E = s["E"], k = s["k"];
    std::vector<std::pair<std::string, std::string>> ins = {
        {"logits", tensorType({T, E})}};
    std::vector<std::pair<std::string, std::string>> outs = {
        {"w0", tensorType({T, k})}, {"ids0", tensorType({T, k}, "i32")}};
    std::string body = "%w, %ids = mixer.topk_router k(" + std::to_string(k) +
                       ") normalize ins(" + operandList(ins) + ") outs(" +
                       operandList(outs) + ") -> " + outs[0].second + ", " +
                       outs[1].second;
    return funcModule(op(), ins, outs, body, {"w", "ids"});
  }

  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    return {0, 4.0 * s["T"] * s["E"] + 8.0 * s["T"] * s["k"]};
  }
  std::string workFormula() const override {
    return "bytes: 4*T*E + 8*T*k (logits in, weights and ids out)";
  }

  /// Logits uniform in [-2, 2).
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], E = s["E"], k = s["k"];
    Instance in;
    mref::Tensor logits = in.uniform({T, E}, rng, -2, 2);
    Buffer &w = in.arg({T, k});
    Buffer &ids = in.arg({T, k}, ElementType::I32);
    mref::Routing ref = mref::topkRouter(logits, k, /*normalize=*/true);
    in.expect(w, std::move(ref.weights));
    in.exact = [&ids, expected = std::move(ref.expertIds)] {
      return equal(ids, expected);
    };
    return in;
  }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["T"]) * s["E"] * s["k"];
  }


private:
  static Case make(const std::string &name, int64_t T, int64_t E, int64_t k) {
    return {name, {{{"T", T}, {"E", E}, {"k", k}}, {"normalize"}}};
  }
};

class MoeDispatchBench : public RoutingFamilyBench {
public:
  std::string op() const override { return "moe_dispatch"; }

  /// 4096 tokens of width 512, top 2 of 8 experts.
  std::vector<Case> cases(const std::string &suite) const override {
    if (suite == "smoke")
      return {make("dispatch-smoke", 64, 32, 4, 2)};
    if (suite == "gpu")
      return {make("dispatch-gpu-T32768-K512-E8-k2", 32768, 512, 8, 2),
              make("dispatch-gpu-T32768-K512-E64-k4", 32768, 512, 64, 4)};
    if (suite != "cpu" && suite != "moe" && suite != op())
      return {};
    return {make("dispatch-T4096-K512-E8-k2", 4096, 512, 8, 2)};
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], K = s["K"], E = s["E"], k = s["k"];
    std::vector<std::pair<std::string, std::string>> ins = {
        {"x", tensorType({T, K})}, {"ids", tensorType({T, k}, "i32")}};
    std::vector<std::pair<std::string, std::string>> outs = {
        {"s0", tensorType({T * k, K})},
        {"gs0", tensorType({E}, "i64")},
        {"p0", tensorType({T * k}, "i32")}};
    std::string body = "%s, %gs, %p = mixer.moe_dispatch num_experts(" +
                       std::to_string(E) + ") ins(" + operandList(ins) +
                       ") outs(" + operandList(outs) + ") -> " +
                       outs[0].second + ", " + outs[1].second + ", " +
                       outs[2].second;
    return funcModule(op(), ins, outs, body, {"s", "gs", "p"});
  }

  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    double slots = double(s["T"]) * s["k"];
    return {0, 2 * 4.0 * slots * s["K"] + 8.0 * slots};
  }
  std::string workFormula() const override {
    return "bytes: 8*T*k*K + 8*T*k (rows read and written, ids and "
           "permutation)";
  }

  /// x uniform in [-1, 1); k distinct experts per token, uniformly drawn.
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], K = s["K"], E = s["E"], k = s["k"];
    Instance in;
    mref::Tensor x = in.uniform({T, K}, rng, -1, 1);
    std::vector<int32_t> ids = randomExpertIds(T, E, k, rng);
    Buffer &idBuf = in.arg({T, k}, ElementType::I32);
    std::copy(ids.begin(), ids.end(), idBuf.i32());
    Buffer &sorted = in.arg({T * k, K});
    Buffer &sizes = in.arg({E}, ElementType::I64);
    Buffer &perm = in.arg({T * k}, ElementType::I32);
    mref::Dispatch ref = mref::moeDispatch(x, ids, k, E);
    in.expect(sorted, std::move(ref.sorted));
    in.exact = [&sizes, &perm, groupSizes = std::move(ref.groupSizes),
                permutation = std::move(ref.permutation)] {
      return equal(sizes, groupSizes) && equal(perm, permutation);
    };
    return in;
  }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["T"]) * s["k"] * (s["K"] + s["E"]);
  }


private:
  static Case make(const std::string &name, int64_t T, int64_t K, int64_t E,
                   int64_t k) {
    return {name, {{{"T", T}, {"K", K}, {"E", E}, {"k", k}}, {}}};
  }
};

class MoeCombineBench : public RoutingFamilyBench {
public:
  std::string op() const override { return "moe_combine"; }

  /// 4096 tokens of width 512, top 2 of 8 experts.
  std::vector<Case> cases(const std::string &suite) const override {
    if (suite == "smoke")
      return {make("combine-smoke", 64, 32, 4, 2)};
    if (suite == "gpu")
      return {make("combine-gpu-T32768-N512-E8-k2", 32768, 512, 8, 2),
              make("combine-gpu-T32768-N512-E64-k4", 32768, 512, 64, 4)};
    // fwd+bwd of the MoE training step: 8192 tokens, d_model 512, top 2
    // of 8 experts.
    if (suite == "train")
      return {make("combine-train-T8192", 8192, 512, 8, 2)};
    if (suite != "cpu" && suite != "moe" && suite != op())
      return {};
    return {make("combine-T4096-N512-E8-k2", 4096, 512, 8, 2)};
  }

  std::string module(const Case &c) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], N = s["N"], k = s["k"];
    std::vector<std::pair<std::string, std::string>> ins = {
        {"eo", tensorType({T * k, N})},
        {"perm", tensorType({T * k}, "i32")},
        {"w", tensorType({T, k})}};
    std::vector<std::pair<std::string, std::string>> outs = {
        {"o0", tensorType({T, N})}};
    std::string body = "%o = mixer.moe_combine ins(" + operandList(ins) +
                       ") outs(" + operandList(outs) + ") -> " +
                       outs[0].second;
    return funcModule(op(), ins, outs, body, {"o"});
  }

  Work work(const Case &c) const override {
    const Shape &s = c.shape;
    double slots = double(s["T"]) * s["k"];
    return {0, 4.0 * slots * s["N"] + 4.0 * s["T"] * s["N"] + 8.0 * slots};
  }
  std::string workFormula() const override {
    return "bytes: 4*T*k*N + 4*T*N + 8*T*k (expert rows in, tokens out, "
           "permutation and weights)";
  }

  /// expert_out uniform in [-1, 1), weights in [0, 1); the permutation is
  /// what moe_dispatch makes of k distinct random experts per token.
  Instance prepare(const Case &c, mref::Rng &rng) const override {
    const Shape &s = c.shape;
    int64_t T = s["T"], N = s["N"], E = s["E"], k = s["k"];
    Instance in;
    mref::Tensor eo = in.uniform({T * k, N}, rng, -1, 1);
    std::vector<int32_t> ids = randomExpertIds(T, E, k, rng);
    std::vector<int32_t> perm(T * k);
    std::iota(perm.begin(), perm.end(), 0);
    // Stable by expert: ties keep slot order (std::sort with the slot as
    // the second key; libstdc++'s stable_sort warns under clang 22).
    std::sort(perm.begin(), perm.end(), [&](int32_t a, int32_t b) {
      return ids[a] != ids[b] ? ids[a] < ids[b] : a < b;
    });
    Buffer &permBuf = in.arg({T * k}, ElementType::I32);
    std::copy(perm.begin(), perm.end(), permBuf.i32());
    mref::Tensor w = in.uniform({T, k}, rng, 0, 1);
    Buffer &out = in.arg({T, N});
    in.expect(out, mref::moeCombine(eo, perm, w));
    return in;
  }

  double naiveWork(const Case &c) const override {
    const Shape &s = c.shape;
    return double(s["T"]) * s["k"] * s["N"];
  }


  bool differentiable() const override { return true; }
  /// d expert_out, d weights (the permutation gets none).
  std::vector<mref::Tensor>
  referenceGradients(const Case &c, const Instance &in,
                     const std::vector<mref::Tensor> &cot) const override {
    const Buffer &perm = *in.buffers[1];
    mref::MoeCombineGradients grads = mref::moeCombineBackward(
        in.buffers[0]->toTensor(),
        std::vector<int32_t>(perm.i32(), perm.i32() + perm.numel()),
        in.buffers[2]->toTensor(), cot[0]);
    return {std::move(grads.dExpertOut), std::move(grads.dWeights)};
  }

private:
  static Case make(const std::string &name, int64_t T, int64_t N, int64_t E,
                   int64_t k) {
    return {name, {{{"T", T}, {"N", N}, {"E", E}, {"k", k}}, {}}};
  }
};
} // namespace

std::unique_ptr<OpBench> mixer::bench::createTopkRouterBench() {
  return std::make_unique<TopkRouterBench>();
}
std::unique_ptr<OpBench> mixer::bench::createMoeDispatchBench() {
  return std::make_unique<MoeDispatchBench>();
}
std::unique_ptr<OpBench> mixer::bench::createMoeCombineBench() {
  return std::make_unique<MoeCombineBench>();
}
