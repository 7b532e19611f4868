//===- GatedDeltaRuleBackwardTest.cpp - compiled gradients vs reference ---===//
//
// Builds a function holding one mixer.gated_delta_rule_backward, compiles it
// through the CPU pipeline, runs it on random inputs and cotangents and
// compares every gradient with mixer::ref::gatedDeltaRuleVjp. Each case
// prints the relative error max|grad - ref| / max|ref| of every gradient.
//
//===----------------------------------------------------------------------===//

#include "BackwardCases.h"
#include "BackwardTestSupport.h"

#include "mixer/Reference/RecurrentGradients.h"

#include <cmath>
#include <cstdio>
#include <map>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

std::string caseName(const GdrbCase &c) {
  std::ostringstream os;
  os << "B" << c.B << "_L" << c.L << "_H" << c.H << "_Dk" << c.Dk << "_Dv"
     << c.Dv << "_Q" << c.chunk << (c.init ? "_init" : "")
     << (c.dO ? "_do" : "") << (c.dFinal ? "_dfinal" : "")
     << (c.saved ? "_saved" : "") << (c.extreme ? "_extreme" : "");
  return os.str();
}

/// The reference forward's states before tokens 0, Q, 2Q, ... as
/// [B, H, C, Dk, Dv].
Buffer chunkStates(const GdrbCase &c, const ref::Tensor &q,
                   const ref::Tensor &k, const ref::Tensor &v,
                   const ref::Tensor &g, const ref::Tensor &beta,
                   const ref::Tensor *init) {
  int64_t C = c.L / c.chunk + 1, S = c.Dk * c.Dv;
  Buffer out{{c.B, c.H, C, c.Dk, c.Dv},
             std::vector<float>(c.B * c.H * C * S)};
  for (int64_t j = 0; j < C; ++j) {
    int64_t len = j * c.chunk;
    ref::Tensor state({c.B, c.H, c.Dk, c.Dv});
    if (len == 0) {
      if (init)
        state = *init;
    } else {
      state = ref::gatedDeltaRule(
                  ref::slice(q, 1, 0, len), ref::slice(k, 1, 0, len),
                  ref::slice(v, 1, 0, len), ref::slice(g, 1, 0, len),
                  ref::slice(beta, 1, 0, len), init, c.scale)
                  .finalState;
    }
    for (int64_t bh = 0; bh < c.B * c.H; ++bh)
      for (int64_t e = 0; e < S; ++e)
        out.data[(bh * C + j) * S + e] =
            static_cast<float>(state[bh * S + e]);
  }
  return out;
}

} // namespace

void mixer::test::gatedDeltaRuleBackwardCase(const GdrbCase &c,
                                             const GradientRunner &runner) {
  ref::Rng rng(91);
  BackwardProblem p;
  std::vector<int64_t> key = {c.B, c.L, c.H, c.Dk},
                       value = {c.B, c.L, c.H, c.Dv}, gate = {c.B, c.L, c.H},
                       state = {c.B, c.H, c.Dk, c.Dv};
  // Unit-norm-ish keys as in Gated DeltaNet (L2-normalized): entries of
  // about 1/sqrt(Dk).
  double kr = 1.0 / std::sqrt(static_cast<double>(c.Dk));
  p.operands.push_back({"q", "", randomBuffer(rng, key, -1, 1)});
  p.operands.push_back({"k", "", randomBuffer(rng, key, -kr, kr)});
  p.operands.push_back({"v", "", randomBuffer(rng, value, -1, 1)});
  p.operands.push_back(
      {"g", "", randomBuffer(rng, gate, c.extreme ? -20.0 : -1.0, 0.0)});
  p.operands.push_back(
      {"beta", "", randomBuffer(rng, gate, 0.0, c.extreme ? 2.0 : 1.0)});
  ref::Tensor q = tensorOf(p.operands[0].buffer),
              k = tensorOf(p.operands[1].buffer),
              v = tensorOf(p.operands[2].buffer),
              g = tensorOf(p.operands[3].buffer),
              beta = tensorOf(p.operands[4].buffer);
  ref::Tensor init, dO, dFinal;
  auto optional = [&](bool present, const char *name, const char *keyword,
                      std::vector<int64_t> shape,
                      ref::Tensor &tensor) -> const ref::Tensor * {
    if (!present)
      return nullptr;
    p.operands.push_back({name, keyword, randomBuffer(rng, shape, -1, 1)});
    tensor = tensorOf(p.operands.back().buffer);
    return &tensor;
  };
  const ref::Tensor *initP = optional(c.init, "h", "init", state, init);
  const ref::Tensor *dOP = optional(c.dO, "do", "d_o", value, dO);
  const ref::Tensor *dFinalP =
      optional(c.dFinal, "ds", "d_final_state", state, dFinal);
  if (c.saved)
    p.operands.push_back(
        {"cs", "chunk_states", chunkStates(c, q, k, v, g, beta, initP)});
  p.addGradient("q", key);
  p.addGradient("k", key);
  p.addGradient("v", value);
  p.addGradient("g", gate);
  p.addGradient("beta", gate);
  if (c.init)
    p.addGradient("init", state);

  std::ostringstream head;
  head << "mixer.gated_delta_rule_backward chunk_size(" << c.chunk
       << ") scale(" << std::scientific << c.scale << ")";
  std::string source = backwardModule(head.str(), p);
  std::unique_ptr<CompiledModule> compiled = runner.compile(source);
  ASSERT_TRUE(compiled->ok()) << "compilation failed:\n" << source;
  compiled->callBuffers("bwd", p.buffers());

  ref::GatedDeltaRuleGrads want = ref::gatedDeltaRuleVjp(
      q, k, v, g, beta, initP, c.scale, dOP, dFinalP);
  std::map<std::string, const ref::Tensor *> expected = {
      {"q", &want.q},       {"k", &want.k},       {"v", &want.v},
      {"g", &want.g},       {"beta", &want.beta}, {"init", &want.init}};
  std::printf("%sgated_delta_rule_backward %s: relative error",
              runner.label.c_str(), caseName(c).c_str());
  for (size_t i = 0; i < p.outs.size(); ++i) {
    const std::string &name = p.gradNames[i];
    double err =
        ref::relativeError(p.outs[i].buffer.data.data(), *expected[name]);
    std::printf(" d%s %.3g", name.c_str(), err);
    EXPECT_LE(err, 1e-4) << "d" << name;
  }
  std::printf("\n");
}

namespace {

class GatedDeltaRuleBackwardAgainstReference
    : public ::testing::TestWithParam<GdrbCase> {};

TEST_P(GatedDeltaRuleBackwardAgainstReference, RelativeErrorWithinTolerance) {
  gatedDeltaRuleBackwardCase(GetParam(), pipelineRunner(false));
}

std::vector<GdrbCase> gdrbCases() {
  std::vector<GdrbCase> cases;
  // Lengths: one token, under a chunk, a partial last chunk, whole chunks;
  // with and without init.
  for (int64_t L : {1, 5, 37, 32})
    for (bool init : {false, true})
      cases.push_back({2, L, 2, 16, 8, 16, init, 0.25});
  // The public head size and chunk (64): two full chunks through the WY form,
  // then a tail of 22 tokens.
  cases.push_back({1, 150, 2, 64, 64, 64, true, 0.125});
  // Only one of the cotangents.
  GdrbCase onlyO{1, 20, 2, 8, 8, 8, true};
  onlyO.dFinal = false;
  cases.push_back(onlyO);
  GdrbCase onlyFinal = onlyO;
  onlyFinal.dO = false;
  onlyFinal.dFinal = true;
  cases.push_back(onlyFinal);
  // Chunk states given, as the forward would save them.
  GdrbCase saved{2, 29, 3, 8, 12, 8, true, 0.5};
  saved.saved = true;
  cases.push_back(saved);
  // Extreme gates, with chunks of 16 and of 64 (the decays within a chunk
  // reach exp(-1280)).
  GdrbCase extreme{1, 40, 2, 16, 16, 16, true};
  extreme.extreme = true;
  cases.push_back(extreme);
  GdrbCase extremeLong{1, 140, 2, 32, 32, 64, true};
  extremeLong.extreme = true;
  cases.push_back(extremeLong);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(RecurrentGradients,
                         GatedDeltaRuleBackwardAgainstReference,
                         ::testing::ValuesIn(gdrbCases()),
                         [](const auto &info) { return caseName(info.param); });

} // namespace
