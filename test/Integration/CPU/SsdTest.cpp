//===- SsdTest.cpp - compiled mixer.ssd against the fp64 reference --------===//
//
// Builds a function holding one mixer.ssd, compiles it through the CPU
// pipeline (optimized and naive), runs it through the JIT on random inputs
// and compares with mixer::ref::ssd. Each case prints its relative error
// max|out - ref| / max|ref|.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include "llvm/Support/TargetSelect.h"

#include <cstdio>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

struct SsdShape {
  int64_t B, L, H, P, G, N, chunk;
};

enum class Decays { Realistic, Extreme };

/// func @ssd(x, log_a, b, c, [init,] [dt,] y_out, state_out) -> (y, state);
/// with `scaleByDt`, mixer.ssd reads x * dt (dt [B, L, H]) computed by an
/// elementwise linalg.generic that the pipeline fuses into the head tiles.
std::string ssdModule(const SsdShape &s, bool withInit, bool scaleByDt) {
  std::string x = tensorType({s.B, s.L, s.H, s.P});
  std::string la = tensorType({s.B, s.L, s.H});
  std::string bc = tensorType({s.B, s.L, s.G, s.N});
  std::string st = tensorType({s.B, s.H, s.P, s.N});
  std::ostringstream os;
  os << "func.func @ssd(%x: " << x << ", %la: " << la << ", %b: " << bc
     << ", %c: " << bc;
  if (withInit)
    os << ", %h: " << st;
  if (scaleByDt)
    os << ", %dt: " << la;
  os << ", %y0: " << x << " {bufferization.writable = true}, %s0: " << st
     << " {bufferization.writable = true}) -> (" << x << ", " << st << ") {\n";
  std::string xIn = "%x";
  if (scaleByDt) {
    os << "  %e = tensor.empty() : " << x << "\n"
       << "  %xdt = linalg.generic {indexing_maps = [affine_map<(b, l, h, p) "
          "-> (b, l, h, p)>, affine_map<(b, l, h, p) -> (b, l, h)>, "
          "affine_map<(b, l, h, p) -> (b, l, h, p)>], iterator_types = "
          "[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]} ins(%x, "
          "%dt : "
       << x << ", " << la << ") outs(%e : " << x << ") {\n"
       << "  ^bb0(%a: f32, %d: f32, %o: f32):\n"
       << "    %m = arith.mulf %a, %d : f32\n    linalg.yield %m : f32\n"
       << "  } -> " << x << "\n";
    xIn = "%xdt";
  }
  os << "  %y, %s = mixer.ssd chunk_size(" << s.chunk << ") ins(" << xIn
     << ", %la, %b, %c : "
     << x << ", " << la << ", " << bc << ", " << bc << ")";
  if (withInit)
    os << " init(%h : " << st << ")";
  os << " outs(%y0, %s0 : " << x << ", " << st << ") -> " << x << ", " << st
     << "\n  return %y, %s : " << x << ", " << st << "\n}\n";
  return os.str();
}

/// Compiles the ssd module for `shape` and runs it.
class CompiledSsd {
public:
  CompiledSsd(const SsdShape &shape, bool withInit, bool naive,
              bool scaleByDt = false)
      : shape(shape), withInit(withInit), scaleByDt(scaleByDt),
        module(ssdModule(shape, withInit, scaleByDt), naive) {}

  bool ok() const { return module.ok(); }

  /// Runs on float inputs; returns (y, final state) as floats.
  std::pair<std::vector<float>, std::vector<float>>
  run(std::vector<float> &x, std::vector<float> &logA, std::vector<float> &b,
      std::vector<float> &c, std::vector<float> *init,
      std::vector<float> *dt = nullptr) {
    const SsdShape &s = shape;
    std::vector<float> y(s.B * s.L * s.H * s.P), state(s.B * s.H * s.P * s.N);
    std::vector<std::pair<float *, std::vector<int64_t>>> args = {
        {x.data(), {s.B, s.L, s.H, s.P}},
        {logA.data(), {s.B, s.L, s.H}},
        {b.data(), {s.B, s.L, s.G, s.N}},
        {c.data(), {s.B, s.L, s.G, s.N}}};
    if (withInit)
      args.push_back({init->data(), {s.B, s.H, s.P, s.N}});
    if (scaleByDt)
      args.push_back({dt->data(), {s.B, s.L, s.H}});
    args.push_back({y.data(), {s.B, s.L, s.H, s.P}});
    args.push_back({state.data(), {s.B, s.H, s.P, s.N}});
    module.call("ssd", std::move(args));
    return {y, state};
  }

private:
  SsdShape shape;
  bool withInit, scaleByDt;
  CompiledModule module;
};

ref::Tensor logDecays(ref::Rng &rng, const SsdShape &s, Decays decays) {
  if (decays == Decays::Realistic)
    return rng.uniformTensor({s.B, s.L, s.H}, -1.0, 0.0);
  // Extreme: every decay either kills the state (-30) or keeps it (0).
  ref::Tensor t({s.B, s.L, s.H});
  for (int64_t i = 0; i < t.numel(); ++i)
    t[i] = rng.uniform(0.0, 1.0) < 0.5 ? -30.0 : 0.0;
  return t;
}

struct SsdCase {
  SsdShape shape;
  bool withInit;
  Decays decays;
  bool naive;
};

std::string caseName(const SsdCase &c) {
  const SsdShape &s = c.shape;
  std::ostringstream os;
  os << "B" << s.B << "_L" << s.L << "_H" << s.H << "_P" << s.P << "_G" << s.G
     << "_N" << s.N << "_Q" << s.chunk << (c.withInit ? "_init" : "")
     << (c.decays == Decays::Extreme ? "_extreme" : "")
     << (c.naive ? "_naive" : "");
  return os.str();
}

class SsdAgainstReference : public ::testing::TestWithParam<SsdCase> {};

TEST_P(SsdAgainstReference, RelativeErrorWithinTolerance) {
  const SsdCase &tc = GetParam();
  const SsdShape &s = tc.shape;
  CompiledSsd compiled(s, tc.withInit, tc.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(1234);
  ref::Tensor x = rng.uniformTensor({s.B, s.L, s.H, s.P}, -1.0, 1.0);
  ref::Tensor la = logDecays(rng, s, tc.decays);
  ref::Tensor b = rng.uniformTensor({s.B, s.L, s.G, s.N}, -1.0, 1.0);
  ref::Tensor c = rng.uniformTensor({s.B, s.L, s.G, s.N}, -1.0, 1.0);
  ref::Tensor init = rng.uniformTensor({s.B, s.H, s.P, s.N}, -1.0, 1.0);

  // The compiled code sees the float-rounded inputs; so does the reference.
  std::vector<float> fx = ref::toFloats(x), fla = ref::toFloats(la),
                     fb = ref::toFloats(b), fc = ref::toFloats(c),
                     finit = ref::toFloats(init);
  auto [y, state] = compiled.run(fx, fla, fb, fc, tc.withInit ? &finit : nullptr);

  ref::Tensor rx = ref::fromFloats(x.shape, fx.data());
  ref::Tensor rla = ref::fromFloats(la.shape, fla.data());
  ref::Tensor rb = ref::fromFloats(b.shape, fb.data());
  ref::Tensor rc = ref::fromFloats(c.shape, fc.data());
  ref::Tensor rinit = ref::fromFloats(init.shape, finit.data());
  ref::ScanResult expected =
      ref::ssd(rx, rla, rb, rc, tc.withInit ? &rinit : nullptr);

  double yErr = ref::relativeError(y.data(), expected.out);
  double sErr = ref::relativeError(state.data(), expected.finalState);
  std::printf("ssd %s: relative error y %.3g, final state %.3g\n",
              caseName(tc).c_str(), yErr, sErr);
  EXPECT_LE(yErr, 1e-4);
  EXPECT_LE(sErr, 1e-4);
}

std::vector<SsdCase> ssdCases() {
  std::vector<SsdCase> cases;
  // Lengths: one token, fewer than a chunk, exactly one chunk, many chunks
  // with a partial last one, a long sequence.
  for (int64_t L : {1, 7, 64, 1000})
    for (bool init : {false, true})
      cases.push_back({{2, L, 4, 16, 2, 32, 64}, init, Decays::Realistic, false});
  cases.push_back({{1, 8192, 2, 32, 1, 32, 64}, true, Decays::Realistic, false});
  // Chunk sizes with L not a multiple of them.
  for (int64_t Q : {16, 128})
    cases.push_back({{1, 333, 4, 16, 1, 16, Q}, true, Decays::Realistic, false});
  // Extreme decays: the state is killed (-30) or kept (0) at random.
  cases.push_back({{1, 1000, 2, 16, 1, 16, 64}, true, Decays::Extreme, false});
  cases.push_back({{1, 8192, 2, 16, 2, 16, 128}, false, Decays::Extreme, false});
  // The mamba-2 head shape at a moderate length.
  cases.push_back({{1, 512, 2, 64, 1, 64, 64}, true, Decays::Realistic, false});
  // The naive (scalar loops) lowering: a second oracle.
  cases.push_back({{2, 70, 4, 8, 2, 8, 16}, true, Decays::Realistic, true});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Ssd, SsdAgainstReference,
                         ::testing::ValuesIn(ssdCases()),
                         [](const auto &info) { return caseName(info.param); });

/// An elementwise producer of x (dt scaling) is fused into the head tiles;
/// the result is the scan of the scaled input.
TEST(SsdFusion, DtScaledInput) {
  SsdShape s{2, 300, 4, 32, 2, 16, 64};
  CompiledSsd compiled(s, false, false, /*scaleByDt=*/true);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";
  ref::Rng rng(99);
  std::vector<float> x = ref::toFloats(rng.uniformTensor({s.B, s.L, s.H, s.P}, -1, 1));
  std::vector<float> dt = ref::toFloats(rng.uniformTensor({s.B, s.L, s.H}, 0, 0.5));
  std::vector<float> la = ref::toFloats(rng.uniformTensor({s.B, s.L, s.H}, -1, 0));
  std::vector<float> b = ref::toFloats(rng.uniformTensor({s.B, s.L, s.G, s.N}, -1, 1));
  std::vector<float> c = ref::toFloats(rng.uniformTensor({s.B, s.L, s.G, s.N}, -1, 1));
  auto [y, state] = compiled.run(x, la, b, c, nullptr, &dt);

  std::vector<float> scaled(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    scaled[i] = x[i] * dt[i / s.P];
  ref::ScanResult expected = ref::ssd(
      ref::fromFloats({s.B, s.L, s.H, s.P}, scaled.data()),
      ref::fromFloats({s.B, s.L, s.H}, la.data()),
      ref::fromFloats({s.B, s.L, s.G, s.N}, b.data()),
      ref::fromFloats({s.B, s.L, s.G, s.N}, c.data()), nullptr);
  double yErr = ref::relativeError(y.data(), expected.out);
  double sErr = ref::relativeError(state.data(), expected.finalState);
  std::printf("ssd with fused dt scaling: relative error y %.3g, final state "
              "%.3g\n",
              yErr, sErr);
  EXPECT_LE(yErr, 1e-4);
  EXPECT_LE(sErr, 1e-4);
}

/// Prefill P tokens, then T single-token calls carrying the state: equals one
/// call over P + T tokens.
TEST(SsdDecode, StepByStepEqualsOneCall) {
  const int64_t B = 1, H = 4, P = 32, G = 1, N = 32, prefill = 100, steps = 60;
  // The one call runs tokens 64..127 as a chunk; the prefill call runs
  // 64..99 token by token: the two forms are compared, not just replayed.
  SsdShape whole{B, prefill + steps, H, P, G, N, 64};
  SsdShape first{B, prefill, H, P, G, N, 64};
  SsdShape step{B, 1, H, P, G, N, 64};
  CompiledSsd all(whole, false, false), pre(first, false, false),
      dec(step, true, false);
  ASSERT_TRUE(all.ok() && pre.ok() && dec.ok());

  ref::Rng rng(7);
  std::vector<float> x = ref::toFloats(rng.uniformTensor({B, whole.L, H, P}, -1, 1));
  std::vector<float> la = ref::toFloats(rng.uniformTensor({B, whole.L, H}, -1, 0));
  std::vector<float> b = ref::toFloats(rng.uniformTensor({B, whole.L, G, N}, -1, 1));
  std::vector<float> c = ref::toFloats(rng.uniformTensor({B, whole.L, G, N}, -1, 1));
  auto [yAll, sAll] = all.run(x, la, b, c, nullptr);

  auto rows = [](const std::vector<float> &v, int64_t width, int64_t from,
                 int64_t count) {
    return std::vector<float>(v.begin() + from * width,
                              v.begin() + (from + count) * width);
  };
  std::vector<float> px = rows(x, H * P, 0, prefill), pla = rows(la, H, 0, prefill),
                     pb = rows(b, G * N, 0, prefill), pc = rows(c, G * N, 0, prefill);
  auto [yPre, state] = pre.run(px, pla, pb, pc, nullptr);

  double maxDiff = 0, maxRef = 0;
  auto compare = [&](const float *got, const float *want, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      maxDiff = std::max(maxDiff, (double)std::fabs(got[i] - want[i]));
      maxRef = std::max(maxRef, (double)std::fabs(want[i]));
    }
  };
  compare(yPre.data(), yAll.data(), prefill * H * P);
  for (int64_t t = prefill; t < whole.L; ++t) {
    std::vector<float> tx = rows(x, H * P, t, 1), tla = rows(la, H, t, 1),
                       tb = rows(b, G * N, t, 1), tc = rows(c, G * N, t, 1);
    auto [yt, next] = dec.run(tx, tla, tb, tc, &state);
    compare(yt.data(), yAll.data() + t * H * P, H * P);
    state = next;
  }
  compare(state.data(), sAll.data(), (int64_t)state.size());
  double err = maxDiff / maxRef;
  std::printf("ssd decode: prefill %lld + %lld steps vs one call: relative "
              "difference %.3g\n",
              (long long)prefill, (long long)steps, err);
  EXPECT_LE(err, 1e-5);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
