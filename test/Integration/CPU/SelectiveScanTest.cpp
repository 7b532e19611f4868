//===- SelectiveScanTest.cpp - compiled selective_scan vs reference -------===//
//
// Builds a function holding one mixer.selective_scan, compiles it through the
// CPU pipeline (optimized and naive), runs it on random inputs and compares
// with mixer::ref::selectiveScan. Each case prints its relative error
// max|out - ref| / max|ref|.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <cstdio>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

struct SsCase {
  int64_t B, L, D, G, N;
  bool dSkip, z, bias, init, softplus;
  /// delta in [-30, 30] (both softplus branches) instead of a realistic range.
  bool wideDelta;
  bool naive;
  /// B and L dynamic in the function's types.
  bool dynamicShape = false;
};

std::string caseName(const SsCase &c) {
  std::ostringstream os;
  os << "B" << c.B << "_L" << c.L << "_D" << c.D << "_G" << c.G << "_N" << c.N
     << (c.dSkip ? "_dskip" : "") << (c.z ? "_z" : "")
     << (c.bias ? "_bias" : "") << (c.init ? "_init" : "")
     << (c.softplus ? "_softplus" : "") << (c.wideDelta ? "_wide" : "")
     << (c.naive ? "_naive" : "") << (c.dynamicShape ? "_dynamic" : "");
  return os.str();
}

/// func @ss(u, delta, A, b, c, [D_skip,] [z,] [delta_bias,] [init,] y_out,
/// state_out) -> (y, state).
std::string ssModule(const SsCase &c) {
  int64_t B = c.dynamicShape ? -1 : c.B, L = c.dynamicShape ? -1 : c.L;
  std::string ud = tensorType({B, L, c.D});
  std::string a = tensorType({c.D, c.N});
  std::string bc = tensorType({B, L, c.G, c.N});
  std::string vec = tensorType({c.D});
  std::string st = tensorType({B, c.D, c.N});
  std::ostringstream os;
  os << "func.func @ss(%u: " << ud << ", %dt: " << ud << ", %A: " << a
     << ", %b: " << bc << ", %c: " << bc;
  if (c.dSkip)
    os << ", %d: " << vec;
  if (c.z)
    os << ", %z: " << ud;
  if (c.bias)
    os << ", %db: " << vec;
  if (c.init)
    os << ", %h: " << st;
  os << ", %y0: " << ud << " {bufferization.writable = true}, %s0: " << st
     << " {bufferization.writable = true}) -> (" << ud << ", " << st << ") {\n";
  os << "  %y, %s = mixer.selective_scan "
     << (c.softplus ? "delta_softplus " : "")
     << "ins(%u, %dt, %A, %b, %c : " << ud << ", " << ud << ", " << a << ", "
     << bc << ", " << bc << ")";
  if (c.dSkip)
    os << " D_skip(%d : " << vec << ")";
  if (c.z)
    os << " z(%z : " << ud << ")";
  if (c.bias)
    os << " delta_bias(%db : " << vec << ")";
  if (c.init)
    os << " init(%h : " << st << ")";
  os << " outs(%y0, %s0 : " << ud << ", " << st << ") -> " << ud << ", " << st
     << "\n  return %y, %s : " << ud << ", " << st << "\n}\n";
  return os.str();
}

struct SsInputs {
  std::vector<float> u, delta, A, b, c, dSkip, z, bias, init;
};

SsInputs randomInputs(const SsCase &c, uint64_t seed) {
  ref::Rng rng(seed);
  SsInputs in;
  in.u = ref::toFloats(rng.uniformTensor({c.B, c.L, c.D}, -1.0, 1.0));
  // Realistic steps: softplus of [-4, 1] is about [0.02, 1.3]; without
  // softplus the step is taken as given.
  double lo = c.softplus ? -4.0 : 0.001, hi = c.softplus ? 1.0 : 0.2;
  if (c.wideDelta)
    lo = -30.0, hi = 30.0;
  in.delta = ref::toFloats(rng.uniformTensor({c.B, c.L, c.D}, lo, hi));
  in.A = ref::toFloats(rng.uniformTensor({c.D, c.N}, -4.0, -0.1));
  in.b = ref::toFloats(rng.uniformTensor({c.B, c.L, c.G, c.N}, -1.0, 1.0));
  in.c = ref::toFloats(rng.uniformTensor({c.B, c.L, c.G, c.N}, -1.0, 1.0));
  in.dSkip = ref::toFloats(rng.uniformTensor({c.D}, -1.0, 1.0));
  in.z = ref::toFloats(rng.uniformTensor({c.B, c.L, c.D}, -3.0, 3.0));
  in.bias = ref::toFloats(rng.uniformTensor({c.D}, c.softplus ? -0.5 : 0.0,
                                            c.softplus ? 0.5 : 0.1));
  in.init = ref::toFloats(rng.uniformTensor({c.B, c.D, c.N}, -1.0, 1.0));
  return in;
}

std::pair<std::vector<float>, std::vector<float>>
run(CompiledModule &m, const SsCase &c, SsInputs &in) {
  std::vector<float> y(c.B * c.L * c.D), state(c.B * c.D * c.N);
  std::vector<std::pair<float *, std::vector<int64_t>>> args = {
      {in.u.data(), {c.B, c.L, c.D}},
      {in.delta.data(), {c.B, c.L, c.D}},
      {in.A.data(), {c.D, c.N}},
      {in.b.data(), {c.B, c.L, c.G, c.N}},
      {in.c.data(), {c.B, c.L, c.G, c.N}}};
  if (c.dSkip)
    args.push_back({in.dSkip.data(), {c.D}});
  if (c.z)
    args.push_back({in.z.data(), {c.B, c.L, c.D}});
  if (c.bias)
    args.push_back({in.bias.data(), {c.D}});
  if (c.init)
    args.push_back({in.init.data(), {c.B, c.D, c.N}});
  args.push_back({y.data(), {c.B, c.L, c.D}});
  args.push_back({state.data(), {c.B, c.D, c.N}});
  m.call("ss", args);
  return {y, state};
}

ref::ScanResult expected(const SsCase &c, const SsInputs &in) {
  ref::Tensor u = ref::fromFloats({c.B, c.L, c.D}, in.u.data());
  ref::Tensor delta = ref::fromFloats({c.B, c.L, c.D}, in.delta.data());
  ref::Tensor A = ref::fromFloats({c.D, c.N}, in.A.data());
  ref::Tensor b = ref::fromFloats({c.B, c.L, c.G, c.N}, in.b.data());
  ref::Tensor cc = ref::fromFloats({c.B, c.L, c.G, c.N}, in.c.data());
  ref::Tensor dSkip = ref::fromFloats({c.D}, in.dSkip.data());
  ref::Tensor z = ref::fromFloats({c.B, c.L, c.D}, in.z.data());
  ref::Tensor bias = ref::fromFloats({c.D}, in.bias.data());
  ref::Tensor init = ref::fromFloats({c.B, c.D, c.N}, in.init.data());
  ref::SelectiveScanOptions opts;
  opts.dSkip = c.dSkip ? &dSkip : nullptr;
  opts.z = c.z ? &z : nullptr;
  opts.deltaBias = c.bias ? &bias : nullptr;
  opts.init = c.init ? &init : nullptr;
  opts.deltaSoftplus = c.softplus;
  return ref::selectiveScan(u, delta, A, b, cc, opts);
}

class SelectiveScanAgainstReference : public ::testing::TestWithParam<SsCase> {
};

TEST_P(SelectiveScanAgainstReference, RelativeErrorWithinTolerance) {
  const SsCase &c = GetParam();
  CompiledModule compiled(ssModule(c), c.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";
  SsInputs in = randomInputs(c, 2024);
  auto [y, state] = run(compiled, c, in);
  ref::ScanResult want = expected(c, in);
  double yErr = ref::relativeError(y.data(), want.out);
  double sErr = ref::relativeError(state.data(), want.finalState);
  std::printf("selective_scan %s: relative error y %.3g, final state %.3g\n",
              caseName(c).c_str(), yErr, sErr);
  EXPECT_LE(yErr, 1e-4);
  EXPECT_LE(sErr, 1e-4);
}

std::vector<SsCase> ssCases() {
  std::vector<SsCase> cases;
  // Lengths: one token, under a token block, one block, a partial last
  // block, long; all optional operands, with and without init.
  for (int64_t L : {1, 7, 16, 100, 2048})
    for (bool init : {false, true})
      cases.push_back(
          {2, L, 64, 2, 16, true, true, true, init, true, false, false});
  // Each optional operand alone, and none.
  cases.push_back(
      {1, 77, 32, 1, 8, false, false, false, false, false, false, false});
  cases.push_back(
      {1, 77, 32, 1, 8, true, false, false, false, false, false, false});
  cases.push_back(
      {1, 77, 32, 1, 8, false, true, false, false, false, false, false});
  cases.push_back(
      {1, 77, 32, 1, 8, false, false, true, false, false, false, false});
  cases.push_back(
      {1, 77, 32, 1, 8, false, false, false, false, true, false, false});
  // Both softplus branches (delta up to 30).
  cases.push_back(
      {1, 200, 32, 1, 16, true, true, true, true, true, true, false});
  // Groups: G < D with channel blocks of 16 and of 2 (6 channels per group),
  // a state size that is not a vector multiple.
  cases.push_back(
      {2, 150, 48, 3, 16, true, true, true, true, true, false, false});
  cases.push_back(
      {1, 90, 12, 2, 5, true, true, true, true, true, false, false});
  // Dynamic batch and length with a partial last token block.
  cases.push_back(
      {2, 150, 48, 3, 16, true, true, true, true, true, false, false, true});
  // The Mamba shape at a moderate length.
  cases.push_back(
      {1, 512, 256, 1, 16, true, true, true, false, true, false, false});
  // The naive (scalar loops) lowering.
  cases.push_back({2, 70, 12, 2, 5, true, true, true, true, true, false, true});
  cases.push_back(
      {1, 40, 8, 1, 4, false, false, false, false, false, false, true});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(SelectiveScan, SelectiveScanAgainstReference,
                         ::testing::ValuesIn(ssCases()),
                         [](const auto &info) { return caseName(info.param); });

/// Optimized against naive at a Mamba-1 shape: same result, and the times of
/// both.
TEST(SelectiveScanTiming, OptimizedAgainstNaive) {
  SsCase c{1, 2048, 1536, 1, 16, true, true, true, false, true, false, false};
  SsCase n = c;
  n.naive = true;
  CompiledModule fast(ssModule(c), false), slow(ssModule(n), true);
  ASSERT_TRUE(fast.ok() && slow.ok()) << "compilation failed";
  SsInputs in = randomInputs(c, 5);
  std::pair<std::vector<float>, std::vector<float>> a, b;
  double tFast = medianMillis(5, [&] { a = run(fast, c, in); });
  double tSlow = medianMillis(1, [&] { b = run(slow, n, in); });
  ref::Tensor by = ref::fromFloats({c.B, c.L, c.D}, b.first.data());
  double diff = ref::relativeError(a.first.data(), by);
  std::printf("selective_scan timing %s: optimized %.2f ms, naive %.2f ms, "
              "relative difference %.3g\n",
              caseName(c).c_str(), tFast, tSlow, diff);
  EXPECT_LE(diff, 1e-4);
}

} // namespace
