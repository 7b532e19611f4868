//===- LinearAttentionTest.cpp - compiled linear_attention vs reference ---===//
//
// Builds a function holding one mixer.linear_attention, compiles it through
// the CPU pipeline (optimized and naive), runs it on random inputs and
// compares with mixer::ref::linearAttention. Each case prints its relative
// error max|out - ref| / max|ref|.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <cstdio>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

struct LaCase {
  int64_t B, L, H, Dk, Dv, chunk, window;
  bool withDecay, withInit;
  float scale;
  bool naive;
  /// Every log decay is either -30 (the state is forgotten) or 0 (kept).
  bool extremeDecays = false;
  /// B and L dynamic in the function's types.
  bool dynamicShape = false;
  /// > 0: compiled for that many threads (the tiles' blocks of heads then
  /// do not depend on this machine's cores).
  int64_t threads = 0;
};

std::string caseName(const LaCase &c) {
  std::ostringstream os;
  os << "B" << c.B << "_L" << c.L << "_H" << c.H << "_Dk" << c.Dk << "_Dv"
     << c.Dv << "_Q" << c.chunk << "_w" << c.window
     << (c.withDecay ? "_decay" : "") << (c.withInit ? "_init" : "")
     << (c.scale != 1.0f ? "_scaled" : "") << (c.naive ? "_naive" : "")
     << (c.extremeDecays ? "_extreme" : "")
     << (c.dynamicShape ? "_dynamic" : "")
     << (c.threads > 0 ? "_t" + std::to_string(c.threads) : "");
  return os.str();
}

/// func @la(q, k, v, [log_decay,] [init,] o_out, state_out) -> (o, state).
std::string laModule(const LaCase &c) {
  int64_t B = c.dynamicShape ? -1 : c.B, L = c.dynamicShape ? -1 : c.L;
  std::string qk = tensorType({B, L, c.H, c.Dk});
  std::string v = tensorType({B, L, c.H, c.Dv});
  std::string ld = tensorType({B, L, c.H});
  std::string st = tensorType({B, c.H, c.Dk, c.Dv});
  std::ostringstream os;
  os << "func.func @la(%q: " << qk << ", %k: " << qk << ", %v: " << v;
  if (c.withDecay)
    os << ", %ld: " << ld;
  if (c.withInit)
    os << ", %h: " << st;
  os << ", %o0: " << v << " {bufferization.writable = true}, %s0: " << st
     << " {bufferization.writable = true}) -> (" << v << ", " << st << ") {\n";
  os << "  %o, %s = mixer.linear_attention chunk_size(" << c.chunk
     << ") window(" << c.window << ") scale(" << std::scientific << c.scale
     << ") ins(%q, %k, %v : " << qk << ", " << qk << ", " << v << ")";
  if (c.withDecay)
    os << " log_decay(%ld : " << ld << ")";
  if (c.withInit)
    os << " init(%h : " << st << ")";
  os << " outs(%o0, %s0 : " << v << ", " << st << ") -> " << v << ", " << st
     << "\n  return %o, %s : " << v << ", " << st << "\n}\n";
  return os.str();
}

/// The float inputs of one case.
struct LaInputs {
  std::vector<float> q, k, v, ld, init;
};

LaInputs randomInputs(const LaCase &c, uint64_t seed) {
  ref::Rng rng(seed);
  LaInputs in;
  in.q = ref::toFloats(rng.uniformTensor({c.B, c.L, c.H, c.Dk}, -1.0, 1.0));
  in.k = ref::toFloats(rng.uniformTensor({c.B, c.L, c.H, c.Dk}, -1.0, 1.0));
  in.v = ref::toFloats(rng.uniformTensor({c.B, c.L, c.H, c.Dv}, -1.0, 1.0));
  ref::Tensor ld = rng.uniformTensor({c.B, c.L, c.H}, -0.5, 0.0);
  if (c.extremeDecays)
    for (int64_t i = 0; i < ld.numel(); ++i)
      ld[i] = ld[i] < -0.25 ? -30.0 : 0.0;
  in.ld = ref::toFloats(ld);
  in.init = ref::toFloats(rng.uniformTensor({c.B, c.H, c.Dk, c.Dv}, -1.0, 1.0));
  return in;
}

/// Runs the compiled function; returns (o, final state).
std::pair<std::vector<float>, std::vector<float>>
run(CompiledModule &m, const LaCase &c, LaInputs &in) {
  std::vector<float> o(c.B * c.L * c.H * c.Dv), state(c.B * c.H * c.Dk * c.Dv);
  std::vector<std::pair<float *, std::vector<int64_t>>> args = {
      {in.q.data(), {c.B, c.L, c.H, c.Dk}},
      {in.k.data(), {c.B, c.L, c.H, c.Dk}},
      {in.v.data(), {c.B, c.L, c.H, c.Dv}}};
  if (c.withDecay)
    args.push_back({in.ld.data(), {c.B, c.L, c.H}});
  if (c.withInit)
    args.push_back({in.init.data(), {c.B, c.H, c.Dk, c.Dv}});
  args.push_back({o.data(), {c.B, c.L, c.H, c.Dv}});
  args.push_back({state.data(), {c.B, c.H, c.Dk, c.Dv}});
  m.call("la", args);
  return {o, state};
}

ref::ScanResult expected(const LaCase &c, const LaInputs &in) {
  ref::Tensor q = ref::fromFloats({c.B, c.L, c.H, c.Dk}, in.q.data());
  ref::Tensor k = ref::fromFloats({c.B, c.L, c.H, c.Dk}, in.k.data());
  ref::Tensor v = ref::fromFloats({c.B, c.L, c.H, c.Dv}, in.v.data());
  ref::Tensor ld = ref::fromFloats({c.B, c.L, c.H}, in.ld.data());
  ref::Tensor init = ref::fromFloats({c.B, c.H, c.Dk, c.Dv}, in.init.data());
  return ref::linearAttention(q, k, v, c.withDecay ? &ld : nullptr,
                              c.withInit ? &init : nullptr, c.window, c.scale);
}

class LinearAttentionAgainstReference
    : public ::testing::TestWithParam<LaCase> {};

TEST_P(LinearAttentionAgainstReference, RelativeErrorWithinTolerance) {
  const LaCase &c = GetParam();
  CompiledModule compiled(laModule(c), c.naive, -1, true, "", c.threads);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";
  LaInputs in = randomInputs(c, 4321);
  auto [o, state] = run(compiled, c, in);
  ref::ScanResult want = expected(c, in);
  double oErr = ref::relativeError(o.data(), want.out);
  double sErr = ref::relativeError(state.data(), want.finalState);
  std::printf("linear_attention %s: relative error o %.3g, final state %.3g\n",
              caseName(c).c_str(), oErr, sErr);
  EXPECT_LE(oErr, 1e-4);
  EXPECT_LE(sErr, 1e-4);
}

std::vector<LaCase> laCases() {
  std::vector<LaCase> cases;
  // Lengths: one token, under the recurrent threshold, a partial last chunk,
  // exactly two chunks, long; each with and without decay and init.
  for (int64_t L : {1, 7, 100, 128, 2048})
    for (bool decay : {false, true})
      for (bool init : {false, true})
        cases.push_back({2, L, 2, 16, 32, 32, 0, decay, init, 0.25f, false});
  // Windows: shorter than a chunk, longer than a chunk, longer than L.
  for (int64_t w : {1, 5, 40})
    for (bool init : {false, true})
      cases.push_back({1, 300, 2, 16, 16, 32, w, true, init, 1.0f, false});
  cases.push_back({1, 7, 2, 16, 16, 32, 10, true, true, 1.0f, false});
  cases.push_back({1, 2048, 2, 32, 32, 64, 512, true, true, 0.125f, false});
  cases.push_back({1, 2048, 2, 32, 32, 64, 100, false, false, 1.0f, false});
  // The head shape of the benchmarks, and Dk != Dv.
  cases.push_back({1, 1000, 2, 64, 64, 64, 0, true, true, 0.125f, false});
  cases.push_back({1, 333, 3, 32, 64, 16, 0, true, false, 1.0f, false});
  // Dynamic batch and length, with a window and a partial last chunk.
  cases.push_back(
      {2, 150, 2, 16, 16, 32, 9, true, true, 0.5f, false, false, true});
  // Extreme decays, with and without a window.
  for (int64_t w : {0, 70})
    cases.push_back({1, 1000, 2, 16, 16, 64, w, true, true, 1.0f, false, true});
  // Blocks of heads inside the chunk loop: for two threads, 8 heads make
  // tiles of 4 and a batch of 2 with 4 heads tiles of 2; a ragged tail; a
  // window keeps the heads outside.
  for (int64_t w : {0, 5})
    cases.push_back(
        {1, 200, 8, 16, 32, 16, w, true, true, 0.25f, false, false, false, 2});
  cases.push_back(
      {2, 100, 4, 16, 16, 32, 0, false, false, 1.0f, false, false, false, 2});
  // The naive (scalar loops) lowering.
  for (int64_t w : {0, 3})
    cases.push_back({2, 70, 2, 8, 8, 16, w, true, true, 0.5f, true});
  cases.push_back({1, 70, 2, 8, 8, 16, 0, false, false, 1.0f, true});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(LinearAttention, LinearAttentionAgainstReference,
                         ::testing::ValuesIn(laCases()),
                         [](const auto &info) { return caseName(info.param); });

/// Optimized against naive at the benchmark shape: same result, and the
/// times of both.
TEST(LinearAttentionTiming, OptimizedAgainstNaive) {
  LaCase c{1, 4096, 8, 64, 64, 64, 0, true, false, 0.125f, false};
  LaCase n = c;
  n.naive = true;
  CompiledModule fast(laModule(c), false), slow(laModule(n), true);
  ASSERT_TRUE(fast.ok() && slow.ok()) << "compilation failed";
  LaInputs in = randomInputs(c, 11);
  std::pair<std::vector<float>, std::vector<float>> a, b;
  double tFast = medianMillis(5, [&] { a = run(fast, c, in); });
  double tSlow = medianMillis(1, [&] { b = run(slow, n, in); });
  ref::Tensor bo = ref::fromFloats({c.B, c.L, c.H, c.Dv}, b.first.data());
  double diff = ref::relativeError(a.first.data(), bo);
  std::printf("linear_attention timing %s: optimized %.2f ms, naive %.2f ms, "
              "relative difference %.3g\n",
              caseName(c).c_str(), tFast, tSlow, diff);
  EXPECT_LE(diff, 1e-4);
}

} // namespace
