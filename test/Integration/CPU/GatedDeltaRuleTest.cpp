//===- GatedDeltaRuleTest.cpp - compiled gated_delta_rule vs reference ----===//
//
// Builds a function holding one mixer.gated_delta_rule, compiles it through
// the CPU pipeline (optimized and naive), runs it on random inputs and
// compares with mixer::ref::gatedDeltaRule. Each case prints its relative
// error max|out - ref| / max|ref|.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <cmath>
#include <cstdio>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

struct GdrCase {
  int64_t B, L, H, Dk, Dv, chunk;
  bool withInit;
  float scale;
  bool naive;
  /// Gates log in [-20, 0] (states forgotten within a few tokens) instead of
  /// [-0.5, 0].
  bool strongGates = false;
  /// B and L dynamic in the function's types.
  bool dynamicShape = false;
  /// > 0: compiled for that many threads (the tiles' blocks of heads then
  /// do not depend on this machine's cores).
  int64_t threads = 0;
};

std::string caseName(const GdrCase &c) {
  std::ostringstream os;
  os << "B" << c.B << "_L" << c.L << "_H" << c.H << "_Dk" << c.Dk << "_Dv"
     << c.Dv << "_Q" << c.chunk << (c.withInit ? "_init" : "")
     << (c.scale != 1.0f ? "_scaled" : "") << (c.naive ? "_naive" : "")
     << (c.strongGates ? "_strong" : "") << (c.dynamicShape ? "_dynamic" : "")
     << (c.threads > 0 ? "_t" + std::to_string(c.threads) : "");
  return os.str();
}

/// func @gdr(q, k, v, g, beta, [init,] o_out, state_out) -> (o, state).
std::string gdrModule(const GdrCase &c) {
  int64_t B = c.dynamicShape ? -1 : c.B, L = c.dynamicShape ? -1 : c.L;
  std::string qk = tensorType({B, L, c.H, c.Dk});
  std::string v = tensorType({B, L, c.H, c.Dv});
  std::string gb = tensorType({B, L, c.H});
  std::string st = tensorType({B, c.H, c.Dk, c.Dv});
  std::ostringstream os;
  os << "func.func @gdr(%q: " << qk << ", %k: " << qk << ", %v: " << v
     << ", %g: " << gb << ", %beta: " << gb;
  if (c.withInit)
    os << ", %h: " << st;
  os << ", %o0: " << v << " {bufferization.writable = true}, %s0: " << st
     << " {bufferization.writable = true}) -> (" << v << ", " << st << ") {\n";
  os << "  %o, %s = mixer.gated_delta_rule chunk_size(" << c.chunk << ") scale("
     << std::scientific << c.scale << ") ins(%q, %k, %v, %g, %beta : " << qk
     << ", " << qk << ", " << v << ", " << gb << ", " << gb << ")";
  if (c.withInit)
    os << " init(%h : " << st << ")";
  os << " outs(%o0, %s0 : " << v << ", " << st << ") -> " << v << ", " << st
     << "\n  return %o, %s : " << v << ", " << st << "\n}\n";
  return os.str();
}

struct GdrInputs {
  std::vector<float> q, k, v, g, beta, init;
};

/// Keys are L2-normalized (as Gated DeltaNet does), so that I - beta k k^T
/// with beta in (0, 1) is a contraction.
GdrInputs randomInputs(const GdrCase &c, uint64_t seed) {
  ref::Rng rng(seed);
  GdrInputs in;
  in.q = ref::toFloats(rng.uniformTensor({c.B, c.L, c.H, c.Dk}, -1.0, 1.0));
  ref::Tensor k = rng.uniformTensor({c.B, c.L, c.H, c.Dk}, -1.0, 1.0);
  for (int64_t r = 0; r < c.B * c.L * c.H; ++r) {
    double norm = 0;
    for (int64_t i = 0; i < c.Dk; ++i)
      norm += k[r * c.Dk + i] * k[r * c.Dk + i];
    norm = std::sqrt(norm);
    for (int64_t i = 0; i < c.Dk; ++i)
      k[r * c.Dk + i] /= norm;
  }
  in.k = ref::toFloats(k);
  in.v = ref::toFloats(rng.uniformTensor({c.B, c.L, c.H, c.Dv}, -1.0, 1.0));
  in.g = ref::toFloats(
      rng.uniformTensor({c.B, c.L, c.H}, c.strongGates ? -20.0 : -0.5, 0.0));
  in.beta = ref::toFloats(rng.uniformTensor({c.B, c.L, c.H}, 0.0, 1.0));
  in.init = ref::toFloats(rng.uniformTensor({c.B, c.H, c.Dk, c.Dv}, -1.0, 1.0));
  return in;
}

std::pair<std::vector<float>, std::vector<float>>
run(CompiledModule &m, const GdrCase &c, GdrInputs &in) {
  std::vector<float> o(c.B * c.L * c.H * c.Dv), state(c.B * c.H * c.Dk * c.Dv);
  std::vector<std::pair<float *, std::vector<int64_t>>> args = {
      {in.q.data(), {c.B, c.L, c.H, c.Dk}},
      {in.k.data(), {c.B, c.L, c.H, c.Dk}},
      {in.v.data(), {c.B, c.L, c.H, c.Dv}},
      {in.g.data(), {c.B, c.L, c.H}},
      {in.beta.data(), {c.B, c.L, c.H}}};
  if (c.withInit)
    args.push_back({in.init.data(), {c.B, c.H, c.Dk, c.Dv}});
  args.push_back({o.data(), {c.B, c.L, c.H, c.Dv}});
  args.push_back({state.data(), {c.B, c.H, c.Dk, c.Dv}});
  m.call("gdr", args);
  return {o, state};
}

ref::ScanResult expected(const GdrCase &c, const GdrInputs &in) {
  ref::Tensor q = ref::fromFloats({c.B, c.L, c.H, c.Dk}, in.q.data());
  ref::Tensor k = ref::fromFloats({c.B, c.L, c.H, c.Dk}, in.k.data());
  ref::Tensor v = ref::fromFloats({c.B, c.L, c.H, c.Dv}, in.v.data());
  ref::Tensor g = ref::fromFloats({c.B, c.L, c.H}, in.g.data());
  ref::Tensor beta = ref::fromFloats({c.B, c.L, c.H}, in.beta.data());
  ref::Tensor init = ref::fromFloats({c.B, c.H, c.Dk, c.Dv}, in.init.data());
  return ref::gatedDeltaRule(q, k, v, g, beta, c.withInit ? &init : nullptr,
                             c.scale);
}

class GatedDeltaRuleAgainstReference
    : public ::testing::TestWithParam<GdrCase> {};

TEST_P(GatedDeltaRuleAgainstReference, RelativeErrorWithinTolerance) {
  const GdrCase &c = GetParam();
  CompiledModule compiled(gdrModule(c), c.naive, -1, true, "", c.threads);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";
  GdrInputs in = randomInputs(c, 777);
  auto [o, state] = run(compiled, c, in);
  ref::ScanResult want = expected(c, in);
  double oErr = ref::relativeError(o.data(), want.out);
  double sErr = ref::relativeError(state.data(), want.finalState);
  std::printf("gated_delta_rule %s: relative error o %.3g, final state %.3g\n",
              caseName(c).c_str(), oErr, sErr);
  EXPECT_LE(oErr, 1e-4);
  EXPECT_LE(sErr, 1e-4);
}

std::vector<GdrCase> gdrCases() {
  std::vector<GdrCase> cases;
  // Lengths: one token, short, not a multiple of the chunk, long; with and
  // without init.
  for (int64_t L : {1, 7, 100, 2048})
    for (bool init : {false, true})
      cases.push_back({2, L, 2, 16, 32, 32, init, 0.25f, false});
  // The head shape of the benchmarks, Dk != Dv, scale 1.
  cases.push_back({1, 1000, 2, 64, 64, 64, true, 0.125f, false});
  cases.push_back({1, 333, 3, 32, 64, 16, false, 1.0f, false});
  cases.push_back({1, 300, 1, 128, 16, 64, true, 1.0f, false});
  // Dynamic batch and length with a partial last chunk.
  cases.push_back({2, 150, 2, 16, 16, 32, true, 0.5f, false, false, true});
  // Strong gates: decays across a chunk far below f32's range.
  cases.push_back({1, 500, 2, 32, 32, 64, true, 1.0f, false, true});
  // Blocks of heads inside the chunk loop: for two threads, 8 heads make
  // tiles of 4 and a batch of 2 with 4 heads tiles of 2; a ragged tail.
  cases.push_back({1, 200, 8, 16, 32, 16, true, 0.25f, false, false, false, 2});
  cases.push_back({2, 100, 4, 16, 16, 32, false, 1.0f, false, false, false, 2});
  // The naive (scalar loops) lowering.
  cases.push_back({2, 70, 2, 8, 8, 16, true, 0.5f, true});
  cases.push_back({1, 40, 2, 8, 4, 16, false, 1.0f, true});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(GatedDeltaRule, GatedDeltaRuleAgainstReference,
                         ::testing::ValuesIn(gdrCases()),
                         [](const auto &info) { return caseName(info.param); });

/// Optimized against naive at the benchmark shape: same result, and the
/// times of both.
TEST(GatedDeltaRuleTiming, OptimizedAgainstNaive) {
  GdrCase c{1, 4096, 8, 64, 64, 64, false, 0.125f, false};
  GdrCase n = c;
  n.naive = true;
  // The chunked (WY) form, the recurrent form for every token, the naive
  // loops.
  CompiledModule fast(gdrModule(c), false),
      recurrent(gdrModule(c), false, /*recurrentThreshold=*/1 << 30),
      slow(gdrModule(n), true);
  ASSERT_TRUE(fast.ok() && recurrent.ok() && slow.ok()) << "compilation failed";
  GdrInputs in = randomInputs(c, 13);
  std::pair<std::vector<float>, std::vector<float>> a, r, b;
  double tFast = medianMillis(5, [&] { a = run(fast, c, in); });
  double tRec = medianMillis(5, [&] { r = run(recurrent, c, in); });
  double tSlow = medianMillis(1, [&] { b = run(slow, n, in); });
  ref::Tensor bo = ref::fromFloats({c.B, c.L, c.H, c.Dv}, b.first.data());
  double diff = ref::relativeError(a.first.data(), bo);
  double recDiff = ref::relativeError(
      r.first.data(), ref::fromFloats({c.B, c.L, c.H, c.Dv}, a.first.data()));
  std::printf("gated_delta_rule timing %s: optimized (chunked) %.2f ms, "
              "recurrent %.2f ms, naive %.2f ms, relative difference %.3g "
              "(recurrent against chunked %.3g)\n",
              caseName(c).c_str(), tFast, tRec, tSlow, diff, recDiff);
  EXPECT_LE(diff, 1e-4);
  EXPECT_LE(recDiff, 1e-4);
}

} // namespace
