//===- KernelMoEBackwardTest.cpp - compiled backward ops against the reference ===//
//
// Builds functions holding one backward op of a kernel sum or an MoE op
// (kernel_lse_backward after the forward kernel_lse whose result it takes),
// compiles them through the optimized CPU pipeline, runs them through the
// JIT on random inputs and compares every gradient with the fp64 reference
// gradients (KernelMoEGradients.h). Each gradient prints its relative error
// max|grad - ref| / max|ref|; the tolerance is 1e-4.
//
// The kernel backward ops run through both pipelines (the naive one lowers
// their point-gradient sums as dense scalar loops, named "naive" in the
// output); the MoE backward ops through the optimized one only (they have
// no scalar-loop lowering).
//
//===----------------------------------------------------------------------===//

#include "BackwardCases.h"
#include "KernelTestInputs.h"

#include "mixer/Reference/KernelMoEGradients.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

constexpr double kTolerance = 1e-4;

/// A buffer of NaNs: every element must be written.
Buffer garbage(std::vector<int64_t> shape) {
  return filledBuffer(shape, std::nanf(""));
}

/// Prints and checks the error of one gradient.
void expectGradient(const std::string &what, const std::vector<float> &out,
                    const ref::Tensor &expected, double tolerance) {
  double err = ref::relativeError(out.data(), expected);
  std::printf("%s: relative error %.3g\n", what.c_str(), err);
  EXPECT_LE(err, tolerance) << what;
}

/// "%a: t1, %b: t2 {bufferization.writable = true}, ..." from names and
/// types; `writable` marks the outs.
std::string signature(const std::vector<std::string> &names,
                      const std::vector<std::string> &types,
                      const std::vector<bool> &writable) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      s += ", ";
    s += "%" + names[i] + ": " + types[i];
    if (writable[i])
      s += " {bufferization.writable = true}";
  }
  return s;
}

std::string joined(const std::vector<std::string> &parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i)
    s += (i ? ", " : "") + parts[i];
  return s;
}

//===----------------------------------------------------------------------===//
// kernel_mv_backward
//===----------------------------------------------------------------------===//

std::string mvName(const MvCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_Bt" << c.Bt << "_N" << c.N << "_M" << c.M
     << "_D" << c.D << "_C" << c.C;
  return os.str();
}

std::string mvModule(const MvCase &c) {
  std::string x = tensorType(withBatch(c.Bt, {c.N, c.D}));
  std::string y = tensorType(withBatch(c.Bt, {c.M, c.D}));
  std::string v = tensorType(withBatch(c.Bt, {c.M, c.C}));
  std::string d = tensorType(withBatch(c.Bt, {c.N, c.C}));
  std::string h = "tensor<f32>";
  std::string results = joined({x, y, v, h});
  std::ostringstream os;
  os << "func.func @bwd("
     << signature({"x", "y", "v", "h", "d", "dx0", "dy0", "dv0", "dh0"},
                  {x, y, v, h, d, x, y, v, h},
                  {false, false, false, false, false, true, true, true, true})
     << ") -> (" << results << ") {\n"
     << "  %r:4 = mixer.kernel_mv_backward kernel(" << ref::kernelName(c.kind)
     << ") ins(%x, %y, %v, %h, %d : " << joined({x, y, v, h, d})
     << ") outs(%dx0, %dy0, %dv0, %dh0 : " << results << ") -> " << results
     << "\n  return %r#0, %r#1, %r#2, %r#3 : " << results << "\n}\n";
  return os.str();
}

} // namespace

void mixer::test::kernelMvBackwardCase(const MvCase &c,
                                       const GradientRunner &runner) {
  std::unique_ptr<CompiledModule> compiled = runner.compile(mvModule(c));
  ASSERT_TRUE(compiled->ok()) << "compilation failed";

  ref::Rng rng(7 + c.N + c.M);
  auto [x, rx] = randomInput(rng, withBatch(c.Bt, {c.N, c.D}), -1.0, 1.0);
  auto [y, ry] = randomInput(rng, withBatch(c.Bt, {c.M, c.D}), -1.0, 1.0);
  auto [v, rv] = randomInput(rng, withBatch(c.Bt, {c.M, c.C}), -1.0, 1.0);
  auto [d, rd] = randomInput(rng, withBatch(c.Bt, {c.N, c.C}), -1.0, 1.0);
  // A bandwidth of the scale of the distances, so that the kernels are not
  // all 0 or all 1.
  Buffer h{{}, {static_cast<float>(0.6 * std::sqrt(double(c.D)))}};
  Buffer dx = garbage(x.shape), dy = garbage(y.shape), dv = garbage(v.shape),
         dh = garbage({});
  compiled->callBuffers("bwd", {&x, &y, &v, &h, &d, &dx, &dy, &dv, &dh});

  ref::KernelMvGradients expected =
      ref::kernelMvBackward(c.kind, rx, ry, rv, h.data[0], rd);
  std::string name = runner.label + "kernel_mv_backward " + mvName(c);
  expectGradient(name + " dx", dx.data, expected.dx, kTolerance);
  expectGradient(name + " dy", dy.data, expected.dy, kTolerance);
  expectGradient(name + " dv", dv.data, expected.dv, kTolerance);
  expectGradient(name + " dbandwidth", dh.data,
                 ref::Tensor({}, expected.dBandwidth), kTolerance);
}

namespace {

class KernelMvBackward : public ::testing::TestWithParam<MvCase> {};

TEST_P(KernelMvBackward, GradientsMatchTheReference) {
  for (bool naive : {false, true})
    kernelMvBackwardCase(GetParam(), pipelineRunner(naive));
}

std::vector<MvCase> mvCases() {
  using K = ref::Kernel;
  std::vector<MvCase> cases;
  for (K kind : {K::Gaussian, K::Laplacian, K::Matern32, K::InverseMultiquadric,
                 K::Linear}) {
    // One point; M not a multiple of the column block and ragged row tiles;
    // D past the direct distance sums (expanded around a contraction).
    cases.push_back({kind, 0, 1, 5, 2, 3});
    cases.push_back({kind, 2, 70, 130, 8, 4});
    cases.push_back({kind, 0, 100, 200, 16, 2});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Kernel, KernelMvBackward,
                         ::testing::ValuesIn(mvCases()),
                         [](const auto &info) { return mvName(info.param); });

//===----------------------------------------------------------------------===//
// kernel_lse_backward
//===----------------------------------------------------------------------===//

std::string lseName(const LseCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_Bt" << c.Bt << "_N" << c.N << "_M" << c.M
     << "_D" << c.D << (c.withG ? "_g" : "");
  return os.str();
}

/// The forward kernel_lse, then its backward on the forward's result.
std::string lseModule(const LseCase &c) {
  std::string x = tensorType(withBatch(c.Bt, {c.N, c.D}));
  std::string y = tensorType(withBatch(c.Bt, {c.M, c.D}));
  std::string g = tensorType(withBatch(c.Bt, {c.M}));
  std::string n = tensorType(withBatch(c.Bt, {c.N}));
  std::string eps = "tensor<f32>";
  std::string results = joined({x, y, g});
  std::vector<std::string> names = {"x", "y", "eps", "d"}, types = {x, y, eps, n};
  if (c.withG) {
    names.push_back("g");
    types.push_back(g);
  }
  names.insert(names.end(), {"dx0", "dy0", "dg0"});
  types.insert(types.end(), {x, y, g});
  std::vector<bool> writable(names.size(), false);
  std::fill(writable.end() - 3, writable.end(), true);
  std::string gIn = c.withG ? " g(%g : " + g + ")" : "";
  std::ostringstream os;
  os << "func.func @bwd(" << signature(names, types, writable) << ") -> ("
     << results << ") {\n"
     << "  %o0 = tensor.empty() : " << n << "\n"
     << "  %o = mixer.kernel_lse kernel(" << ref::kernelName(c.kind)
     << ") ins(%x, %y, %eps : " << joined({x, y, eps}) << ")" << gIn
     << " outs(%o0 : " << n << ") -> " << n << "\n"
     << "  %r:3 = mixer.kernel_lse_backward kernel(" << ref::kernelName(c.kind)
     << ") ins(%x, %y, %eps, %o, %d : " << joined({x, y, eps, n, n}) << ")"
     << gIn << " outs(%dx0, %dy0, %dg0 : " << results << ") -> " << results
     << "\n  return %r#0, %r#1, %r#2 : " << results << "\n}\n";
  return os.str();
}

} // namespace

void mixer::test::kernelLseBackwardCase(const LseCase &c,
                                        const GradientRunner &runner) {
  std::unique_ptr<CompiledModule> compiled = runner.compile(lseModule(c));
  ASSERT_TRUE(compiled->ok()) << "compilation failed";

  ref::Rng rng(9 + c.N + c.M);
  auto [x, rx] = randomInput(rng, withBatch(c.Bt, {c.N, c.D}), -1.0, 1.0);
  auto [y, ry] = randomInput(rng, withBatch(c.Bt, {c.M, c.D}), -1.0, 1.0);
  auto [g, rg] = randomInput(rng, withBatch(c.Bt, {c.M}), -2.0, 2.0);
  auto [d, rd] = randomInput(rng, withBatch(c.Bt, {c.N}), -1.0, 1.0);
  Buffer eps{{}, {static_cast<float>(c.eps)}};
  Buffer dx = garbage(x.shape), dy = garbage(y.shape), dg = garbage(g.shape);
  std::vector<Buffer *> args = {&x, &y, &eps, &d};
  if (c.withG)
    args.push_back(&g);
  args.insert(args.end(), {&dx, &dy, &dg});
  compiled->callBuffers("bwd", args);

  ref::KernelLseGradients expected = ref::kernelLseBackward(
      c.kind, rx, ry, c.withG ? &rg : nullptr, eps.data[0], rd);
  std::string name = runner.label + "kernel_lse_backward " + lseName(c);
  expectGradient(name + " dx", dx.data, expected.dx, kTolerance);
  expectGradient(name + " dy", dy.data, expected.dy, kTolerance);
  expectGradient(name + " dg", dg.data, expected.dg, kTolerance);
}

namespace {

class KernelLseBackward : public ::testing::TestWithParam<LseCase> {};

TEST_P(KernelLseBackward, GradientsMatchTheReference) {
  for (bool naive : {false, true})
    kernelLseBackwardCase(GetParam(), pipelineRunner(naive));
}

std::vector<LseCase> lseCases() {
  using K = ref::Kernel;
  std::vector<LseCase> cases;
  for (K kind : {K::SqEuclidean, K::Gaussian, K::Laplacian}) {
    cases.push_back({kind, 0, 1, 5, 2, true, 0.5});
    cases.push_back({kind, 2, 70, 130, 8, false, 0.5});
    cases.push_back({kind, 0, 100, 200, 16, true, 2.0});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Kernel, KernelLseBackward,
                         ::testing::ValuesIn(lseCases()),
                         [](const auto &info) { return lseName(info.param); });

//===----------------------------------------------------------------------===//
// The MoE ops
//===----------------------------------------------------------------------===//

/// Random group sizes over E groups summing to `sum`, the first group empty
/// and about a quarter of the others too.
std::vector<int64_t> groupSizesWithEmpty(ref::Rng &rng, int64_t E,
                                         int64_t sum) {
  std::vector<int64_t> sizes(E, 0), live;
  for (int64_t e = 1; e < E; ++e)
    if (rng.uniform(0, 1) > 0.25)
      live.push_back(e);
  if (live.empty())
    live.push_back(E - 1);
  for (int64_t r = 0; r < sum; ++r) {
    auto pick = static_cast<size_t>(rng.uniform(0, 1) * live.size());
    ++sizes[live[std::min(pick, live.size() - 1)]];
  }
  return sizes;
}

std::string groupedName(const GroupedCase &c) {
  std::ostringstream os;
  os << "T" << c.T << "_K" << c.K << "_N" << c.N << "_E" << c.E << "_sum"
     << c.sum << (c.dynamicT ? "_dynT" : "")
     << (c.xScale != 1.0 ? "_x" + std::to_string(int(c.xScale)) : "");
  return os.str();
}

} // namespace

void mixer::test::groupedMatmulBackwardCase(const GroupedCase &c,
                                            const GradientRunner &runner) {
  int64_t T = c.dynamicT ? -1 : c.T;
  std::string lhs = tensorType({T, c.K}), rhs = tensorType({c.E, c.K, c.N}),
              gs = tensorType({c.E}, "i64"), dout = tensorType({T, c.N});
  std::string results = joined({lhs, rhs});
  std::ostringstream os;
  os << "func.func @bwd("
     << signature({"l", "r", "s", "d", "dl0", "dr0"},
                  {lhs, rhs, gs, dout, lhs, rhs},
                  {false, false, false, false, true, true})
     << ") -> (" << results << ") {\n"
     << "  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : "
     << joined({lhs, rhs, gs, dout}) << ") outs(%dl0, %dr0 : " << results
     << ") -> " << results << "\n  return %g#0, %g#1 : " << results << "\n}\n";
  std::unique_ptr<CompiledModule> compiled = runner.compile(os.str());
  ASSERT_TRUE(compiled->ok()) << "compilation failed";

  ref::Rng rng(21 + c.T);
  auto [l, rl] = randomInput(rng, {c.T, c.K}, -1.0, 1.0);
  auto [r, rr] = randomInput(rng, {c.E, c.K, c.N}, -1.0, 1.0);
  auto [d, rd] = randomInput(rng, {c.T, c.N}, -1.0, 1.0);
  std::vector<int64_t> sizes = groupSizesWithEmpty(rng, c.E, c.sum);
  Buffer dl = garbage(l.shape), dr = garbage(r.shape);
  Descriptor<> al(l.data.data(), l.shape), ar(r.data.data(), r.shape),
      ad(d.data.data(), d.shape), adl(dl.data.data(), dl.shape),
      adr(dr.data.data(), dr.shape);
  Descriptor<int64_t> as(sizes.data(), {c.E});
  compiled->call("bwd", {&al, &ar, &as, &ad, &adl, &adr});

  ref::GroupedMatmulGradients expected =
      ref::groupedMatmulBackward(rl, rr, sizes, rd);
  std::string name = runner.label + "grouped_matmul_backward " + groupedName(c);
  expectGradient(name + " dlhs", dl.data, expected.dlhs, kTolerance);
  expectGradient(name + " drhs", dr.data, expected.drhs, kTolerance);
}

namespace {

class GroupedMatmulBackward : public ::testing::TestWithParam<GroupedCase> {};

TEST_P(GroupedMatmulBackward, GradientsMatchTheReference) {
  groupedMatmulBackwardCase(GetParam(), pipelineRunner(false));
}

std::vector<GroupedCase> groupedCases() {
  // One row; rows past the groups and T not a multiple of the slab; a
  // dynamic T; K split into several column tiles.
  return {{1, 8, 16, 2, 1, false},
          {37, 32, 48, 4, 33, false},
          {70, 64, 32, 5, 70, true},
          {150, 128, 64, 8, 141, false}};
}

INSTANTIATE_TEST_SUITE_P(MoE, GroupedMatmulBackward,
                         ::testing::ValuesIn(groupedCases()),
                         [](const auto &info) {
                           return groupedName(info.param);
                         });

} // namespace

void mixer::test::groupedSwigluBackwardCase(const GroupedCase &c,
                                            const GradientRunner &runner) {
  int64_t T = c.dynamicT ? -1 : c.T;
  std::string x = tensorType({T, c.K}), w = tensorType({c.E, c.K, c.N}),
              gs = tensorType({c.E}, "i32"), dout = tensorType({T, c.N});
  std::string results = joined({x, w, w});
  std::ostringstream os;
  os << "func.func @bwd("
     << signature({"x", "wg", "wu", "s", "d", "dx0", "dg0", "du0"},
                  {x, w, w, gs, dout, x, w, w},
                  {false, false, false, false, false, true, true, true})
     << ") -> (" << results << ") {\n"
     << "  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : "
     << joined({x, w, w, gs, dout}) << ") outs(%dx0, %dg0, %du0 : " << results
     << ") -> " << results << "\n  return %g#0, %g#1, %g#2 : " << results
     << "\n}\n";
  std::unique_ptr<CompiledModule> compiled = runner.compile(os.str());
  ASSERT_TRUE(compiled->ok()) << "compilation failed";

  ref::Rng rng(31 + c.T);
  auto [xb, rx] = randomInput(rng, {c.T, c.K}, -c.xScale, c.xScale);
  // Weights of the scale 1/sqrt(K), so that the gates cover silu's bend.
  double scale = 2.0 / std::sqrt(double(c.K));
  auto [wg, rwg] = randomInput(rng, {c.E, c.K, c.N}, -scale, scale);
  auto [wu, rwu] = randomInput(rng, {c.E, c.K, c.N}, -scale, scale);
  auto [d, rd] = randomInput(rng, {c.T, c.N}, -1.0, 1.0);
  std::vector<int64_t> sizes64 = groupSizesWithEmpty(rng, c.E, c.sum);
  std::vector<int32_t> sizes(sizes64.begin(), sizes64.end());
  Buffer dx = garbage(xb.shape), dg = garbage(wg.shape), du = garbage(wu.shape);
  Descriptor<> ax(xb.data.data(), xb.shape), ag(wg.data.data(), wg.shape),
      au(wu.data.data(), wu.shape), ad(d.data.data(), d.shape),
      adx(dx.data.data(), dx.shape), adg(dg.data.data(), dg.shape),
      adu(du.data.data(), du.shape);
  Descriptor<int32_t> as(sizes.data(), {c.E});
  compiled->call("bwd", {&ax, &ag, &au, &as, &ad, &adx, &adg, &adu});

  ref::GroupedSwigluGradients expected =
      ref::groupedSwigluBackward(rx, rwg, rwu, sizes64, rd);
  std::string name = runner.label + "grouped_swiglu_backward " + groupedName(c);
  expectGradient(name + " dx", dx.data, expected.dx, kTolerance);
  expectGradient(name + " dw_gate", dg.data, expected.dwGate, kTolerance);
  expectGradient(name + " dw_up", du.data, expected.dwUp, kTolerance);
}

namespace {

class GroupedSwigluBackward : public ::testing::TestWithParam<GroupedCase> {};

TEST_P(GroupedSwigluBackward, GradientsMatchTheReference) {
  groupedSwigluBackwardCase(GetParam(), pipelineRunner(false));
}

/// The shapes above (K and F of the packed form's panel width: 64 x 32,
/// 128 x 64) and the bench's K = 512, F = 1024 with 8 experts, empty groups
/// among them, at unit and large activations.
std::vector<GroupedCase> swigluCases() {
  std::vector<GroupedCase> cases = groupedCases();
  cases.push_back({400, 512, 1024, 8, 389, false});
  cases.push_back({400, 512, 1024, 8, 400, false, 8.0});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(MoE, GroupedSwigluBackward,
                         ::testing::ValuesIn(swigluCases()),
                         [](const auto &info) {
                           return groupedName(info.param);
                         });

} // namespace

void mixer::test::moeCombineBackwardCase(const CombineCase &c,
                                         const GradientRunner &runner) {
  int64_t S = c.T * c.k;
  std::string eo = tensorType({S, c.N}), p = tensorType({S}, "i32"),
              w = tensorType({c.T, c.k}), dout = tensorType({c.T, c.N});
  std::string results = joined({eo, w});
  std::ostringstream os;
  os << "func.func @bwd("
     << signature({"eo", "p", "w", "d", "de0", "dw0"}, {eo, p, w, dout, eo, w},
                  {false, false, false, false, true, true})
     << ") -> (" << results << ") {\n"
     << "  %g:2 = mixer.moe_combine_backward ins(%eo, %p, %w, %d : "
     << joined({eo, p, w, dout}) << ") outs(%de0, %dw0 : " << results
     << ") -> " << results << "\n  return %g#0, %g#1 : " << results << "\n}\n";
  std::unique_ptr<CompiledModule> compiled = runner.compile(os.str());
  ASSERT_TRUE(compiled->ok()) << "compilation failed";

  ref::Rng rng(41 + c.T);
  auto [e, re] = randomInput(rng, {S, c.N}, -1.0, 1.0);
  auto [w0, rw] = randomInput(rng, {c.T, c.k}, 0.0, 1.0);
  auto [d, rd] = randomInput(rng, {c.T, c.N}, -1.0, 1.0);
  // A random permutation of the slots.
  std::vector<int32_t> perm(S);
  std::iota(perm.begin(), perm.end(), 0);
  for (int64_t i = S - 1; i > 0; --i)
    std::swap(perm[i], perm[static_cast<int64_t>(rng.uniform(0, 1) * (i + 1)) %
                            (i + 1)]);
  Buffer de = garbage(e.shape), dw = garbage(w0.shape);
  Descriptor<> ae(e.data.data(), e.shape), aw(w0.data.data(), w0.shape),
      ad(d.data.data(), d.shape), ade(de.data.data(), de.shape),
      adw(dw.data.data(), dw.shape);
  Descriptor<int32_t> ap(perm.data(), {S});
  compiled->call("bwd", {&ae, &ap, &aw, &ad, &ade, &adw});

  ref::MoeCombineGradients expected =
      ref::moeCombineBackward(re, perm, rw, rd);
  std::string name = runner.label + "moe_combine_backward T" +
                     std::to_string(c.T) + "_k" + std::to_string(c.k) + "_N" +
                     std::to_string(c.N);
  expectGradient(name + " d_expert_out", de.data, expected.dExpertOut,
                 kTolerance);
  expectGradient(name + " d_weights", dw.data, expected.dWeights, kTolerance);
}

namespace {

class MoeCombineBackward : public ::testing::TestWithParam<CombineCase> {};

TEST_P(MoeCombineBackward, GradientsMatchTheReference) {
  moeCombineBackwardCase(GetParam(), pipelineRunner(false));
}

INSTANTIATE_TEST_SUITE_P(MoE, MoeCombineBackward,
                         ::testing::Values(CombineCase{1, 1, 8},
                                           CombineCase{13, 2, 24},
                                           CombineCase{64, 4, 32}),
                         [](const auto &info) {
                           const CombineCase &c = info.param;
                           return "T" + std::to_string(c.T) + "_k" +
                                  std::to_string(c.k) + "_N" +
                                  std::to_string(c.N);
                         });

} // namespace
