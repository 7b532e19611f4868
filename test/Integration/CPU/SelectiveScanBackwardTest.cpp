//===- SelectiveScanBackwardTest.cpp - compiled gradients vs reference ----===//
//
// Builds a function holding one mixer.selective_scan_backward, compiles it
// through the CPU pipeline, runs it on random inputs and cotangents and
// compares every gradient with mixer::ref::selectiveScanVjp (the per-batch
// gradients of A, D_skip and delta_bias summed over the batch first). Each
// case prints the relative error max|grad - ref| / max|ref| of every
// gradient.
//
//===----------------------------------------------------------------------===//

#include "BackwardCases.h"
#include "BackwardTestSupport.h"

#include "mixer/Reference/RecurrentGradients.h"
#include "mixer/Reference/Reference.h"

#include <cstdio>
#include <map>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

std::string caseName(const SsbCase &c) {
  std::ostringstream os;
  os << "B" << c.B << "_L" << c.L << "_D" << c.D << "_G" << c.G << "_N" << c.N
     << "_T" << c.chunk << (c.dSkip ? "_dskip" : "") << (c.z ? "_z" : "")
     << (c.bias ? "_bias" : "") << (c.init ? "_init" : "")
     << (c.softplus ? "_softplus" : "") << (c.dy ? "_dy" : "")
     << (c.dFinal ? "_dfinal" : "") << (c.saved ? "_saved" : "")
     << (c.extreme ? "_extreme" : "");
  return os.str();
}

/// The reference forward's states before tokens 0, T, 2T, ... (L / T + 1 of
/// them) as [B, D, C, N].
Buffer chunkStates(const SsbCase &c, const ref::Tensor &u,
                   const ref::Tensor &delta, const ref::Tensor &A,
                   const ref::Tensor &b, const ref::Tensor &cc,
                   const ref::SelectiveScanOptions &opts) {
  int64_t C = c.L / c.chunk + 1;
  Buffer out{{c.B, c.D, C, c.N}, std::vector<float>(c.B * c.D * C * c.N)};
  for (int64_t j = 0; j < C; ++j) {
    int64_t len = j * c.chunk;
    ref::Tensor state({c.B, c.D, c.N});
    if (len == 0) {
      if (opts.init)
        state = *opts.init;
    } else {
      ref::Tensor zs = opts.z ? ref::slice(*opts.z, 1, 0, len) : ref::Tensor();
      ref::SelectiveScanOptions prefix = opts;
      prefix.z = opts.z ? &zs : nullptr;
      state = ref::selectiveScan(ref::slice(u, 1, 0, len),
                                 ref::slice(delta, 1, 0, len), A,
                                 ref::slice(b, 1, 0, len),
                                 ref::slice(cc, 1, 0, len), prefix)
                  .finalState;
    }
    for (int64_t bi = 0; bi < c.B; ++bi)
      for (int64_t d = 0; d < c.D; ++d)
        for (int64_t n = 0; n < c.N; ++n)
          out.data[((bi * c.D + d) * C + j) * c.N + n] =
              static_cast<float>(state.at({bi, d, n}));
  }
  return out;
}

} // namespace

void mixer::test::selectiveScanBackwardCase(const SsbCase &c,
                                            const GradientRunner &runner) {
  ref::Rng rng(77);
  BackwardProblem p;
  double lo = c.softplus ? -4.0 : 0.001, hi = c.softplus ? 1.0 : 0.2;
  if (c.extreme)
    lo = -30.0, hi = 30.0;
  double zRange = c.extreme ? 10.0 : 3.0;
  p.operands.push_back({"u", "", randomBuffer(rng, {c.B, c.L, c.D}, -1, 1)});
  p.operands.push_back({"dt", "", randomBuffer(rng, {c.B, c.L, c.D}, lo, hi)});
  p.operands.push_back({"A", "", randomBuffer(rng, {c.D, c.N}, -4.0, -0.1)});
  p.operands.push_back(
      {"b", "", randomBuffer(rng, {c.B, c.L, c.G, c.N}, -1, 1)});
  p.operands.push_back(
      {"c", "", randomBuffer(rng, {c.B, c.L, c.G, c.N}, -1, 1)});
  ref::Tensor u = tensorOf(p.operands[0].buffer),
              delta = tensorOf(p.operands[1].buffer),
              A = tensorOf(p.operands[2].buffer),
              b = tensorOf(p.operands[3].buffer),
              cc = tensorOf(p.operands[4].buffer);
  ref::Tensor dSkip, z, bias, init, dy, dFinal;
  ref::SelectiveScanOptions opts;
  opts.deltaSoftplus = c.softplus;
  auto optional = [&](bool present, const char *name, const char *keyword,
                      std::vector<int64_t> shape, double lo, double hi,
                      ref::Tensor &tensor) -> const ref::Tensor * {
    if (!present)
      return nullptr;
    p.operands.push_back({name, keyword, randomBuffer(rng, shape, lo, hi)});
    tensor = tensorOf(p.operands.back().buffer);
    return &tensor;
  };
  opts.dSkip = optional(c.dSkip, "d", "D_skip", {c.D}, -1, 1, dSkip);
  opts.z = optional(c.z, "z", "z", {c.B, c.L, c.D}, -zRange, zRange, z);
  opts.deltaBias = optional(c.bias, "db", "delta_bias", {c.D},
                            c.softplus ? -0.5 : 0.0, c.softplus ? 0.5 : 0.1,
                            bias);
  opts.init = optional(c.init, "h", "init", {c.B, c.D, c.N}, -1, 1, init);
  const ref::Tensor *dyP =
      optional(c.dy, "dy", "dy", {c.B, c.L, c.D}, -1, 1, dy);
  const ref::Tensor *dFinalP = optional(c.dFinal, "ds", "d_final_state",
                                        {c.B, c.D, c.N}, -1, 1, dFinal);
  if (c.saved)
    p.operands.push_back({"cs", "chunk_states",
                          chunkStates(c, u, delta, A, b, cc, opts)});

  auto out = [&](const char *name, std::vector<int64_t> shape) {
    p.addGradient(name, shape);
  };
  out("u", {c.B, c.L, c.D});
  out("delta", {c.B, c.L, c.D});
  out("A", {c.B, c.D, c.N});
  out("b", {c.B, c.L, c.G, c.N});
  out("c", {c.B, c.L, c.G, c.N});
  if (c.dSkip)
    out("D_skip", {c.B, c.D});
  if (c.z)
    out("z", {c.B, c.L, c.D});
  if (c.bias)
    out("delta_bias", {c.B, c.D});
  if (c.init)
    out("init", {c.B, c.D, c.N});

  std::ostringstream head;
  head << "mixer.selective_scan_backward chunk_size(" << c.chunk << ")"
       << (c.softplus ? " delta_softplus" : "");
  std::string source = backwardModule(head.str(), p);
  std::unique_ptr<CompiledModule> compiled = runner.compile(source);
  ASSERT_TRUE(compiled->ok()) << "compilation failed:\n" << source;
  compiled->callBuffers("bwd", p.buffers());

  ref::SelectiveScanGrads want =
      ref::selectiveScanVjp(u, delta, A, b, cc, opts, dyP, dFinalP);
  std::map<std::string, const ref::Tensor *> expected = {
      {"u", &want.u},         {"delta", &want.delta},
      {"A", &want.A},         {"b", &want.b},
      {"c", &want.c},         {"D_skip", &want.dSkip},
      {"z", &want.z},         {"delta_bias", &want.deltaBias},
      {"init", &want.init}};
  std::printf("%sselective_scan_backward %s: relative error",
              runner.label.c_str(), caseName(c).c_str());
  for (size_t i = 0; i < p.outs.size(); ++i) {
    const std::string &name = p.gradNames[i];
    const Buffer &got = p.outs[i].buffer;
    bool perBatch = name == "A" || name == "D_skip" || name == "delta_bias";
    double err;
    if (perBatch) {
      ref::Tensor sum = sumOverBatch(got);
      std::vector<float> flat = ref::toFloats(sum);
      err = ref::relativeError(flat.data(), *expected[name]);
    } else {
      err = ref::relativeError(got.data.data(), *expected[name]);
    }
    std::printf(" d%s %.3g", name.c_str(), err);
    EXPECT_LE(err, 1e-4) << "d" << name;
  }
  std::printf("\n");
}

namespace {

class SelectiveScanBackwardAgainstReference
    : public ::testing::TestWithParam<SsbCase> {};

TEST_P(SelectiveScanBackwardAgainstReference, RelativeErrorWithinTolerance) {
  selectiveScanBackwardCase(GetParam(), pipelineRunner(false));
}

std::vector<SsbCase> ssbCases() {
  std::vector<SsbCase> cases;
  // Lengths: one token, under a chunk, a partial last chunk, whole chunks;
  // every optional operand, with and without init.
  for (int64_t L : {1, 7, 37, 64})
    for (bool init : {false, true})
      cases.push_back({2, L, 64, 2, 16, 16, true, true, true, init, true});
  // No optional operand, softplus off; each optional operand alone.
  cases.push_back({1, 45, 32, 1, 8, 16, false, false, false, false, false});
  cases.push_back({1, 45, 32, 1, 8, 16, true, false, false, false, false});
  cases.push_back({1, 45, 32, 1, 8, 16, false, true, false, false, false});
  cases.push_back({1, 45, 32, 1, 8, 16, false, false, true, false, false});
  cases.push_back({1, 45, 32, 1, 8, 16, false, false, false, true, false});
  // G < D with blocks of 2 channels (6 per group), N not a vector multiple,
  // a chunk of 5.
  cases.push_back({2, 23, 12, 2, 5, 5, true, true, true, true, true});
  // Blocks of 64 channels (the target's largest): the sums over a block's
  // channels add 4 vectors of 16 lanes, then the lanes.
  cases.push_back({1, 37, 128, 1, 16, 16, true, true, true, true, true});
  // Only one of the cotangents.
  SsbCase onlyDy{1, 30, 16, 2, 4, 8, true, true, true, true, true};
  onlyDy.dFinal = false;
  cases.push_back(onlyDy);
  SsbCase onlyFinal = onlyDy;
  onlyFinal.dy = false;
  onlyFinal.dFinal = true;
  cases.push_back(onlyFinal);
  // Chunk states given, as the forward would save them.
  SsbCase saved{2, 37, 24, 3, 4, 8, true, true, true, true, true};
  saved.saved = true;
  cases.push_back(saved);
  // Extreme gates: delta in [-30, 30] (both softplus branches, decays that
  // underflow), z in [-10, 10].
  SsbCase extreme{1, 50, 32, 1, 16, 16, true, true, true, true, true};
  extreme.extreme = true;
  cases.push_back(extreme);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(RecurrentGradients,
                         SelectiveScanBackwardAgainstReference,
                         ::testing::ValuesIn(ssbCases()),
                         [](const auto &info) { return caseName(info.param); });

} // namespace
