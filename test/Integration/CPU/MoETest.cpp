//===- MoETest.cpp - compiled MoE ops against the fp64 reference ----------===//
//
// Builds functions holding the MoE ops, compiles them through the CPU
// pipeline (optimized and naive), runs them through the JIT on random inputs
// and compares with include/mixer/Reference. Each case prints its relative
// error max|out - ref| / max|ref|.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

/// Random group sizes over E groups summing to `sum`: a few groups are left
/// empty, the others split the rows at random.
std::vector<int64_t> randomGroupSizes(ref::Rng &rng, int64_t E, int64_t sum) {
  std::vector<int64_t> sizes(E, 0);
  std::vector<int64_t> live;
  for (int64_t e = 0; e < E; ++e)
    if (E == 1 || rng.uniform(0, 1) > 0.25)
      live.push_back(e);
  if (live.empty())
    live.push_back(E - 1);
  for (int64_t r = 0; r < sum; ++r) {
    auto pick = static_cast<size_t>(rng.uniform(0, 1) * live.size());
    ++sizes[live[std::min(pick, live.size() - 1)]];
  }
  return sizes;
}

//===----------------------------------------------------------------------===//
// Grouped GEMMs
//===----------------------------------------------------------------------===//

struct GroupedCase {
  int64_t T, K, N, E;
  /// Rows covered by the groups (the rest must come out zero).
  int64_t rowsInGroups;
  /// "one": every row in one group; otherwise random sizes, some empty.
  bool singleGroup;
  bool i64Sizes;
  bool dynamicT;
  bool naive;
  /// LLVM's name of the CPU to compile for; empty: this machine.
  std::string targetCpu = "";
  /// > 0: the weights go through mixer.pack_weights (@pack, a function of
  /// its own, as for weights packed once and reused) in panels this wide.
  int64_t packedWidth = 0;
};

/// The panels of packed weights: ceil(N / W).
int64_t panelsOf(const GroupedCase &c) {
  return (c.N + c.packedWidth - 1) / c.packedWidth;
}

/// The type of the weights the grouped op reads: [E, K, N] or packed
/// [E, P, K, W].
std::string weightsType(const GroupedCase &c) {
  if (c.packedWidth <= 0)
    return tensorType({c.E, c.K, c.N});
  return tensorType({c.E, panelsOf(c), c.K, c.packedWidth});
}

/// func @pack(w [E,K,N], p [E,P,K,W]) -> p, when the case packs.
std::string packModule(const GroupedCase &c) {
  if (c.packedWidth <= 0)
    return "";
  std::string w = tensorType({c.E, c.K, c.N}), p = weightsType(c);
  std::ostringstream os;
  os << "func.func @pack(%w: " << w << ", %p0: " << p
     << " {bufferization.writable = true}) -> " << p
     << " {\n  %p = mixer.pack_weights ins(%w : " << w << ") outs(%p0 : " << p
     << ") -> " << p << "\n  return %p : " << p << "\n}\n";
  return os.str();
}

/// packed[e, p, k, j] = w[e, k, p * W + j], 0 past N: what @pack must write
/// (exactly: it only moves values).
std::vector<float> expectedPanels(const GroupedCase &c,
                                  const std::vector<float> &w) {
  int64_t P = panelsOf(c), W = c.packedWidth;
  std::vector<float> packed(c.E * P * c.K * W, 0.0f);
  for (int64_t e = 0; e < c.E; ++e)
    for (int64_t k = 0; k < c.K; ++k)
      for (int64_t n = 0; n < c.N; ++n)
        packed[((e * P + n / W) * c.K + k) * W + n % W] =
            w[(e * c.K + k) * c.N + n];
  return packed;
}

/// The weights `w` as the compiled grouped op takes them: packed by @pack
/// into `storage` (checked against expectedPanels) when the case packs.
Descriptor<float> weightsArg(CompiledModule &compiled, const GroupedCase &c,
                             std::vector<float> &w,
                             std::vector<float> &storage) {
  Descriptor<float> plain(w.data(), {c.E, c.K, c.N});
  if (c.packedWidth <= 0)
    return plain;
  int64_t P = panelsOf(c);
  // Garbage first: every element, the zero padding too, must be written.
  storage.assign(c.E * P * c.K * c.packedWidth, std::nanf(""));
  Descriptor<float> packed(storage.data(), {c.E, P, c.K, c.packedWidth});
  std::vector<void *> args = {&plain, &packed};
  compiled.call("pack", args);
  EXPECT_TRUE(storage == expectedPanels(c, w)) << "mixer.pack_weights moved "
                                                  "a value to the wrong place";
  return packed;
}

std::string caseName(const GroupedCase &c) {
  std::ostringstream os;
  os << "T" << c.T << "_K" << c.K << "_N" << c.N << "_E" << c.E << "_sum"
     << c.rowsInGroups << (c.singleGroup ? "_single" : "")
     << (c.i64Sizes ? "_i64" : "_i32") << (c.dynamicT ? "_dynT" : "")
     << (c.naive ? "_naive" : "")
     << (c.targetCpu.empty() ? "" : "_" + c.targetCpu)
     << (c.packedWidth > 0 ? "_packed" + std::to_string(c.packedWidth) : "");
  std::string name = os.str();
  std::replace(name.begin(), name.end(), '-', '_'); // a test name
  return name;
}

/// func @gm(lhs [T,K], rhs [E,K,N], sizes [E], out [T,N]) -> out.
std::string groupedMatmulModule(const GroupedCase &c) {
  int64_t T = c.dynamicT ? -1 : c.T;
  std::string lhs = tensorType({T, c.K}), rhs = weightsType(c),
              gs = tensorType({c.E}, c.i64Sizes ? "i64" : "i32"),
              out = tensorType({T, c.N});
  std::ostringstream os;
  os << "func.func @gm(%lhs: " << lhs << ", %rhs: " << rhs << ", %gs: " << gs
     << ", %o: " << out << " {bufferization.writable = true}) -> " << out
     << " {\n  %r = mixer.grouped_matmul ins(%lhs, %rhs, %gs : " << lhs << ", "
     << rhs << ", " << gs << ") outs(%o : " << out << ") -> " << out
     << "\n  return %r : " << out << "\n}\n";
  return os.str() + packModule(c);
}

/// Group sizes as the op's element type, with their descriptor.
struct GroupSizes {
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  Descriptor<int32_t> d32;
  Descriptor<int64_t> d64;
  bool wide;
  GroupSizes(const std::vector<int64_t> &sizes, bool wide)
      : i32(sizes.begin(), sizes.end()), i64(sizes),
        d32(i32.data(), {(int64_t)sizes.size()}),
        d64(i64.data(), {(int64_t)sizes.size()}), wide(wide) {}
  void *arg() { return wide ? (void *)&d64 : (void *)&d32; }
};

std::vector<int64_t> groupSizesFor(ref::Rng &rng, const GroupedCase &c) {
  if (!c.singleGroup)
    return randomGroupSizes(rng, c.E, c.rowsInGroups);
  std::vector<int64_t> sizes(c.E, 0);
  sizes[c.E / 2] = c.rowsInGroups;
  return sizes;
}

class GroupedMatmulAgainstReference
    : public ::testing::TestWithParam<GroupedCase> {};

TEST_P(GroupedMatmulAgainstReference, RelativeErrorWithinTolerance) {
  const GroupedCase &c = GetParam();
  CompiledModule compiled(groupedMatmulModule(c), c.naive,
                          /*recurrentThreshold=*/-1, /*runtimeChecks=*/true,
                          c.targetCpu);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(42 + c.T);
  std::vector<float> lhs = ref::toFloats(rng.uniformTensor({c.T, c.K}, -1, 1));
  std::vector<float> rhs =
      ref::toFloats(rng.uniformTensor({c.E, c.K, c.N}, -1, 1));
  std::vector<int64_t> sizes = groupSizesFor(rng, c);
  // Garbage in the output: every element must be written.
  std::vector<float> out(c.T * c.N, std::nanf(""));

  Descriptor<float> dl(lhs.data(), {c.T, c.K}), dout(out.data(), {c.T, c.N});
  std::vector<float> packed;
  Descriptor<float> dr = weightsArg(compiled, c, rhs, packed);
  GroupSizes gs(sizes, c.i64Sizes);
  compiled.call("gm", {&dl, &dr, gs.arg(), &dout});

  ref::Tensor expected =
      ref::groupedMatmul(ref::fromFloats({c.T, c.K}, lhs.data()),
                         ref::fromFloats({c.E, c.K, c.N}, rhs.data()), sizes);
  double err = ref::relativeError(out.data(), expected);
  std::printf("grouped_matmul %s: relative error %.3g\n", caseName(c).c_str(),
              err);
  EXPECT_LE(err, 1e-5);
}

std::vector<GroupedCase> groupedCases() {
  std::vector<GroupedCase> cases;
  // Random groups (some empty) covering all rows, T not a multiple of the
  // slab; rows past the sum; one group; i32 and i64 sizes; dynamic T.
  cases.push_back({203, 64, 64, 4, 203, false, false, false, false});
  cases.push_back({203, 64, 64, 4, 203, false, true, true, false});
  cases.push_back({100, 32, 96, 6, 77, false, true, false, false});
  cases.push_back({64, 48, 64, 3, 64, true, false, true, false});
  cases.push_back({37, 16, 32, 8, 0, false, true, true, false});
  cases.push_back({1, 32, 64, 2, 1, false, false, false, false});
  // Columns that do not tile into vector blocks (N = 40) stay whole.
  cases.push_back({50, 24, 40, 3, 45, false, true, false, false});
  cases.push_back({19, 1, 32, 2, 19, false, true, false, false});
  // K = 1024: several blocks of rows per group sweep the packed panels,
  // N = 80 ends in a narrower panel; compiled for this machine, for AVX2
  // (Zen 3: panels of 16 columns, blocks of 6 rows) and for AVX-512
  // (Skylake-X: panels of 32, blocks of 14), whose code this machine runs
  // when it has the features.
  cases.push_back({600, 1024, 80, 3, 590, false, true, false, false});
  cases.push_back({600, 1024, 80, 3, 590, false, true, false, false, "znver3"});
  if (__builtin_cpu_supports("avx512f"))
    cases.push_back(
        {600, 1024, 80, 3, 590, false, true, false, false, "skylake-avx512"});
  cases.push_back({203, 64, 64, 4, 203, false, false, false, false, "znver3"});
  // Few rows per expert (static T): the weights are read in place; with
  // AVX2 (panels of 16) and AVX-512 (32), N = 80 ending in a narrower panel.
  cases.push_back({90, 256, 80, 6, 85, false, true, false, false, "znver3"});
  if (__builtin_cpu_supports("avx512f"))
    cases.push_back(
        {90, 256, 80, 6, 85, false, true, false, false, "skylake-avx512"});
  // The naive lowering: a second oracle.
  cases.push_back({75, 16, 32, 4, 70, false, false, false, true});
  cases.push_back({75, 16, 32, 4, 70, false, true, true, true});
  // Weights packed once by mixer.pack_weights: in the target's panels (32
  // with AVX-512, 16 with AVX2; N = 80 ends in a narrower one, N = 256 is
  // tiled over the threads in whole panels), in a width of no vector
  // multiple (24, untiled), and in the naive lowering.
  cases.push_back(
      {600, 1024, 80, 3, 590, false, true, false, false, "znver3", 16});
  if (__builtin_cpu_supports("avx512f"))
    cases.push_back({600, 1024, 80, 3, 590, false, true, false, false,
                     "skylake-avx512", 32});
  cases.push_back({203, 64, 256, 4, 203, false, false, true, false, "", 32});
  cases.push_back({100, 32, 72, 6, 77, false, true, false, false, "", 24});
  cases.push_back({75, 16, 40, 4, 70, false, true, false, true, "", 16});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(GroupedMatmul, GroupedMatmulAgainstReference,
                         ::testing::ValuesIn(groupedCases()),
                         [](const auto &info) { return caseName(info.param); });

/// Group sizes are run-time data. The run-time checks reject bad ones
/// (RuntimeChecksTest.cpp); without them a negative size counts as 0 and
/// groups past row T are cut, so bad sizes never write outside the output
/// (guard rows after it keep their sentinel).
TEST(GroupedMatmulBadSizes, ClampedAndInBoundsWithoutChecks) {
  for (bool naive : {false, true}) {
    GroupedCase c{40, 16, 32, 3, 40, false, true, false, naive};
    CompiledModule compiled(groupedMatmulModule(c), naive,
                            /*recurrentThreshold=*/-1,
                            /*runtimeChecks=*/false);
    ASSERT_TRUE(compiled.ok()) << "compilation failed";
    ref::Rng rng(5);
    std::vector<float> lhs = ref::toFloats(rng.uniformTensor({c.T, c.K}, -1, 1));
    std::vector<float> rhs =
        ref::toFloats(rng.uniformTensor({c.E, c.K, c.N}, -1, 1));
    const int64_t guardRows = 8;
    const float sentinel = 12345.0f;
    std::vector<float> out((c.T + guardRows) * c.N, sentinel);
    Descriptor<float> dl(lhs.data(), {c.T, c.K}),
        dout(out.data(), {c.T, c.N});
    Descriptor<float> dr(rhs.data(), {c.E, c.K, c.N});
    GroupSizes gs({-5, 30, 25}, true); // sums to 50 > T = 40
    compiled.call("gm", {&dl, &dr, gs.arg(), &dout});

    for (int64_t i = c.T * c.N; i < (int64_t)out.size(); ++i)
      ASSERT_EQ(out[i], sentinel) << "write past the output at " << i;
    ref::Tensor expected =
        ref::groupedMatmul(ref::fromFloats({c.T, c.K}, lhs.data()),
                           ref::fromFloats({c.E, c.K, c.N}, rhs.data()),
                           {0, 30, 10});
    double err = ref::relativeError(out.data(), expected);
    std::printf("grouped_matmul bad sizes%s: relative error %.3g\n",
                naive ? " (naive)" : "", err);
    EXPECT_LE(err, 1e-5);
  }
}

/// func @sw(x [T,K], w_gate, w_up [E,K,F], sizes [E], out [T,F]) -> out
/// (F is the case's N).
std::string groupedSwigluModule(const GroupedCase &c) {
  int64_t T = c.dynamicT ? -1 : c.T;
  std::string x = tensorType({T, c.K}), w = weightsType(c),
              gs = tensorType({c.E}, c.i64Sizes ? "i64" : "i32"),
              out = tensorType({T, c.N});
  std::ostringstream os;
  os << "func.func @sw(%x: " << x << ", %wg: " << w << ", %wu: " << w
     << ", %gs: " << gs << ", %o: " << out
     << " {bufferization.writable = true}) -> " << out
     << " {\n  %r = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : " << x << ", "
     << w << ", " << w << ", " << gs << ") outs(%o : " << out << ") -> "
     << out << "\n  return %r : " << out << "\n}\n";
  return os.str() + packModule(c);
}

class GroupedSwigluAgainstReference
    : public ::testing::TestWithParam<GroupedCase> {};

TEST_P(GroupedSwigluAgainstReference, RelativeErrorWithinTolerance) {
  const GroupedCase &c = GetParam();
  CompiledModule compiled(groupedSwigluModule(c), c.naive,
                          /*recurrentThreshold=*/-1, /*runtimeChecks=*/true,
                          c.targetCpu);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(77 + c.T);
  std::vector<float> x = ref::toFloats(rng.uniformTensor({c.T, c.K}, -1, 1));
  // Gates of a few units either side of zero: both branches of silu.
  std::vector<float> wg =
      ref::toFloats(rng.uniformTensor({c.E, c.K, c.N}, -1, 1));
  std::vector<float> wu =
      ref::toFloats(rng.uniformTensor({c.E, c.K, c.N}, -1, 1));
  std::vector<int64_t> sizes = groupSizesFor(rng, c);
  std::vector<float> out(c.T * c.N, std::nanf(""));

  Descriptor<float> dx(x.data(), {c.T, c.K}), dout(out.data(), {c.T, c.N});
  std::vector<float> packedGate, packedUp;
  Descriptor<float> dg = weightsArg(compiled, c, wg, packedGate),
                    du = weightsArg(compiled, c, wu, packedUp);
  GroupSizes gs(sizes, c.i64Sizes);
  compiled.call("sw", {&dx, &dg, &du, gs.arg(), &dout});

  ref::Tensor expected = ref::groupedSwiglu(
      ref::fromFloats({c.T, c.K}, x.data()),
      ref::fromFloats({c.E, c.K, c.N}, wg.data()),
      ref::fromFloats({c.E, c.K, c.N}, wu.data()), sizes);
  double err = ref::relativeError(out.data(), expected);
  std::printf("grouped_swiglu %s: relative error %.3g\n", caseName(c).c_str(),
              err);
  EXPECT_LE(err, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(GroupedSwiglu, GroupedSwigluAgainstReference,
                         ::testing::ValuesIn(groupedCases()),
                         [](const auto &info) { return caseName(info.param); });

//===----------------------------------------------------------------------===//
// Routing
//===----------------------------------------------------------------------===//

struct RouterCase {
  int64_t T, E, k;
  bool normalize;
  /// Logits rounded to a coarse grid, so that many probabilities tie.
  bool ties;
  bool dynamicT;
  bool naive;
  /// The f32 lanes of the module's target (0: this machine's): the
  /// vectorized router of an AVX2 (8) or SSE (4) CPU, run here.
  int64_t lanes = 0;
};

std::string caseName(const RouterCase &c) {
  std::ostringstream os;
  os << "T" << c.T << "_E" << c.E << "_k" << c.k
     << (c.normalize ? "_normalize" : "") << (c.ties ? "_ties" : "")
     << (c.dynamicT ? "_dynT" : "") << (c.naive ? "_naive" : "");
  if (c.lanes)
    os << "_w" << c.lanes;
  return os.str();
}

std::string routerModule(const RouterCase &c) {
  int64_t T = c.dynamicT ? -1 : c.T;
  std::string l = tensorType({T, c.E}), w = tensorType({T, c.k}),
              ids = tensorType({T, c.k}, "i32");
  std::ostringstream os;
  if (c.lanes)
    os << "module attributes {mixer.target = {vector_width = " << c.lanes
       << " : i64}} {\n";
  os << "func.func @router(%l: " << l << ", %w0: " << w
     << " {bufferization.writable = true}, %i0: " << ids
     << " {bufferization.writable = true}) -> (" << w << ", " << ids
     << ") {\n  %w, %ids = mixer.topk_router k(" << c.k << ")"
     << (c.normalize ? " normalize" : "") << " ins(%l : " << l
     << ") outs(%w0, %i0 : " << w << ", " << ids << ") -> " << w << ", "
     << ids << "\n  return %w, %ids : " << w << ", " << ids << "\n}\n";
  if (c.lanes)
    os << "}\n";
  return os.str();
}

class TopkRouterAgainstReference
    : public ::testing::TestWithParam<RouterCase> {};

TEST_P(TopkRouterAgainstReference, MatchesReference) {
  const RouterCase &c = GetParam();
  CompiledModule compiled(routerModule(c), c.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(11 + c.T + c.E);
  ref::Tensor logits = rng.normalTensor({c.T, c.E}, 0.0, 2.0);
  if (c.ties)
    for (int64_t i = 0; i < logits.numel(); ++i)
      logits[i] = std::round(logits[i]);
  std::vector<float> fl = ref::toFloats(logits);
  std::vector<float> w(c.T * c.k, std::nanf(""));
  std::vector<int32_t> ids(c.T * c.k, -7);
  Descriptor<float> dl(fl.data(), {c.T, c.E}), dw(w.data(), {c.T, c.k});
  Descriptor<int32_t> di(ids.data(), {c.T, c.k});
  compiled.call("router", {&dl, &dw, &di});

  ref::Routing expected =
      ref::topkRouter(ref::fromFloats({c.T, c.E}, fl.data()), c.k, c.normalize);
  double err = ref::relativeError(w.data(), expected.weights);
  int64_t idMismatches = 0;
  for (int64_t i = 0; i < c.T * c.k; ++i)
    idMismatches += ids[i] != expected.expertIds[i];
  std::printf("topk_router %s: relative error %.3g, id mismatches %lld\n",
              caseName(c).c_str(), err, (long long)idMismatches);
  EXPECT_LE(err, 1e-5);
  EXPECT_EQ(idMismatches, 0);
}

std::vector<RouterCase> routerCases() {
  std::vector<RouterCase> cases;
  cases.push_back({100, 8, 2, true, false, false, false});
  cases.push_back({100, 8, 2, false, true, true, false});
  cases.push_back({37, 16, 4, false, false, true, false});
  cases.push_back({130, 6, 3, true, true, false, false});
  cases.push_back({5, 4, 4, true, false, false, false});  // k = E
  cases.push_back({1, 8, 1, false, false, false, false}); // one token, k = 1
  cases.push_back({70, 8, 2, true, true, true, true});
  cases.push_back({70, 8, 2, false, false, false, true});
  // E = 64, k = 8: the vector passes over many experts, with a tail of
  // tokens after the last full vector.
  cases.push_back({300, 64, 8, true, true, false, false});
  cases.push_back({150, 64, 8, false, false, true, false});
  cases.push_back({150, 64, 8, true, true, true, false, 8});
  cases.push_back({77, 8, 2, false, true, false, false, 4});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(TopkRouter, TopkRouterAgainstReference,
                         ::testing::ValuesIn(routerCases()),
                         [](const auto &info) { return caseName(info.param); });

struct DispatchCase {
  int64_t T, K, k, E;
  /// Ids drawn from the first `used` experts only (the rest get no rows).
  int64_t used;
  bool naive;
};

std::string caseName(const DispatchCase &c) {
  std::ostringstream os;
  os << "T" << c.T << "_K" << c.K << "_k" << c.k << "_E" << c.E << "_used"
     << c.used << (c.naive ? "_naive" : "");
  return os.str();
}

std::string dispatchModule(const DispatchCase &c) {
  int64_t slots = c.T * c.k;
  std::string x = tensorType({c.T, c.K}), ids = tensorType({c.T, c.k}, "i32"),
              sorted = tensorType({slots, c.K}), gs = tensorType({c.E}, "i64"),
              perm = tensorType({slots}, "i32");
  std::string results = sorted + ", " + gs + ", " + perm;
  std::ostringstream os;
  os << "func.func @dispatch(%x: " << x << ", %ids: " << ids << ", %s0: "
     << sorted << " {bufferization.writable = true}, %g0: " << gs
     << " {bufferization.writable = true}, %p0: " << perm
     << " {bufferization.writable = true}) -> (" << results
     << ") {\n  %s, %g, %p = mixer.moe_dispatch num_experts(" << c.E
     << ") ins(%x, %ids : " << x << ", " << ids << ") outs(%s0, %g0, %p0 : "
     << results << ") -> " << results << "\n  return %s, %g, %p : "
     << results << "\n}\n";
  return os.str();
}

class MoeDispatchAgainstReference
    : public ::testing::TestWithParam<DispatchCase> {};

TEST_P(MoeDispatchAgainstReference, MatchesReference) {
  const DispatchCase &c = GetParam();
  CompiledModule compiled(dispatchModule(c), c.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(3 + c.T);
  int64_t slots = c.T * c.k;
  std::vector<float> x = ref::toFloats(rng.uniformTensor({c.T, c.K}, -1, 1));
  std::vector<int32_t> ids(slots);
  for (int32_t &id : ids)
    id = std::min<int32_t>(c.used - 1,
                           static_cast<int32_t>(rng.uniform(0, 1) * c.used));
  std::vector<float> sorted(slots * c.K, std::nanf(""));
  std::vector<int64_t> sizes(c.E, -1);
  std::vector<int32_t> perm(slots, -1);
  Descriptor<float> dx(x.data(), {c.T, c.K}), ds(sorted.data(), {slots, c.K});
  Descriptor<int32_t> di(ids.data(), {c.T, c.k});
  Descriptor<int64_t> dg(sizes.data(), {c.E});
  Descriptor<int32_t> dp(perm.data(), {slots});
  compiled.call("dispatch", {&dx, &di, &ds, &dg, &dp});

  ref::Dispatch expected =
      ref::moeDispatch(ref::fromFloats({c.T, c.K}, x.data()), ids, c.k, c.E);
  double err = ref::relativeError(sorted.data(), expected.sorted);
  std::printf("moe_dispatch %s: relative error %.3g\n", caseName(c).c_str(),
              err);
  EXPECT_EQ(err, 0.0);
  EXPECT_EQ(sizes, expected.groupSizes);
  EXPECT_EQ(perm, expected.permutation);
}

INSTANTIATE_TEST_SUITE_P(
    MoeDispatch, MoeDispatchAgainstReference,
    ::testing::Values(DispatchCase{50, 32, 2, 8, 8, false},
                      DispatchCase{50, 32, 2, 8, 3, false},
                      DispatchCase{33, 40, 1, 4, 4, false},
                      DispatchCase{1, 16, 3, 6, 6, false},
                      DispatchCase{50, 32, 2, 8, 5, true}),
    [](const auto &info) { return caseName(info.param); });

struct CombineCase {
  int64_t T, k, N;
  bool naive;
};

std::string caseName(const CombineCase &c) {
  std::ostringstream os;
  os << "T" << c.T << "_k" << c.k << "_N" << c.N << (c.naive ? "_naive" : "");
  return os.str();
}

std::string combineModule(const CombineCase &c) {
  int64_t slots = c.T * c.k;
  std::string eo = tensorType({slots, c.N}), perm = tensorType({slots}, "i32"),
              w = tensorType({c.T, c.k}), out = tensorType({c.T, c.N});
  std::ostringstream os;
  os << "func.func @combine(%eo: " << eo << ", %p: " << perm << ", %w: " << w
     << ", %o: " << out << " {bufferization.writable = true}) -> " << out
     << " {\n  %y = mixer.moe_combine ins(%eo, %p, %w : " << eo << ", "
     << perm << ", " << w << ") outs(%o : " << out << ") -> " << out
     << "\n  return %y : " << out << "\n}\n";
  return os.str();
}

class MoeCombineAgainstReference
    : public ::testing::TestWithParam<CombineCase> {};

TEST_P(MoeCombineAgainstReference, RelativeErrorWithinTolerance) {
  const CombineCase &c = GetParam();
  CompiledModule compiled(combineModule(c), c.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(9 + c.T);
  int64_t slots = c.T * c.k;
  std::vector<float> eo = ref::toFloats(rng.uniformTensor({slots, c.N}, -1, 1));
  std::vector<float> w = ref::toFloats(rng.uniformTensor({c.T, c.k}, 0, 1));
  // A random permutation of the slots (Fisher-Yates).
  std::vector<int32_t> perm(slots);
  for (int64_t i = 0; i < slots; ++i)
    perm[i] = static_cast<int32_t>(i);
  for (int64_t i = slots - 1; i > 0; --i)
    std::swap(perm[i], perm[std::min<int64_t>(
                           i, static_cast<int64_t>(rng.uniform(0, 1) * (i + 1)))]);
  std::vector<float> out(c.T * c.N, std::nanf(""));
  Descriptor<float> de(eo.data(), {slots, c.N}), dw(w.data(), {c.T, c.k}),
      dout(out.data(), {c.T, c.N});
  Descriptor<int32_t> dp(perm.data(), {slots});
  compiled.call("combine", {&de, &dp, &dw, &dout});

  ref::Tensor expected =
      ref::moeCombine(ref::fromFloats({slots, c.N}, eo.data()), perm,
                      ref::fromFloats({c.T, c.k}, w.data()));
  double err = ref::relativeError(out.data(), expected);
  std::printf("moe_combine %s: relative error %.3g\n", caseName(c).c_str(),
              err);
  EXPECT_LE(err, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(
    MoeCombine, MoeCombineAgainstReference,
    ::testing::Values(CombineCase{60, 2, 64, false},
                      CombineCase{37, 3, 40, false},
                      CombineCase{1, 1, 32, false},
                      CombineCase{60, 2, 64, true}),
    [](const auto &info) { return caseName(info.param); });

//===----------------------------------------------------------------------===//
// A whole MoE layer
//===----------------------------------------------------------------------===//

struct LayerCase {
  int64_t T, K, F, E, k;
  bool normalize;
  bool naive;
};

std::string caseName(const LayerCase &c) {
  std::ostringstream os;
  os << "T" << c.T << "_K" << c.K << "_F" << c.F << "_E" << c.E << "_k"
     << c.k << (c.normalize ? "_normalize" : "") << (c.naive ? "_naive" : "");
  return os.str();
}

/// route, dispatch, grouped_swiglu, grouped_matmul with w_down, combine,
/// in one function; only x, the logits, the weights and the output cross
/// its boundary.
std::string layerModule(const LayerCase &c) {
  int64_t slots = c.T * c.k;
  std::string x = tensorType({c.T, c.K}), l = tensorType({c.T, c.E}),
              w = tensorType({c.E, c.K, c.F}), wd = tensorType({c.E, c.F, c.K}),
              rw = tensorType({c.T, c.k}), ids = tensorType({c.T, c.k}, "i32"),
              sorted = tensorType({slots, c.K}), gs = tensorType({c.E}, "i64"),
              perm = tensorType({slots}, "i32"), h = tensorType({slots, c.F});
  std::ostringstream os;
  os << "func.func @moe(%x: " << x << ", %l: " << l << ", %wg: " << w
     << ", %wu: " << w << ", %wd: " << wd << ", %o: " << x
     << " {bufferization.writable = true}) -> " << x << " {\n"
     << "  %w0 = tensor.empty() : " << rw << "\n"
     << "  %i0 = tensor.empty() : " << ids << "\n"
     << "  %w, %ids = mixer.topk_router k(" << c.k << ")"
     << (c.normalize ? " normalize" : "") << " ins(%l : " << l
     << ") outs(%w0, %i0 : " << rw << ", " << ids << ") -> " << rw << ", "
     << ids << "\n"
     << "  %s0 = tensor.empty() : " << sorted << "\n"
     << "  %g0 = tensor.empty() : " << gs << "\n"
     << "  %p0 = tensor.empty() : " << perm << "\n"
     << "  %s, %g, %p = mixer.moe_dispatch num_experts(" << c.E
     << ") ins(%x, %ids : " << x << ", " << ids << ") outs(%s0, %g0, %p0 : "
     << sorted << ", " << gs << ", " << perm << ") -> " << sorted << ", "
     << gs << ", " << perm << "\n"
     << "  %h0 = tensor.empty() : " << h << "\n"
     << "  %h = mixer.grouped_swiglu ins(%s, %wg, %wu, %g : " << sorted << ", "
     << w << ", " << w << ", " << gs << ") outs(%h0 : " << h << ") -> " << h
     << "\n"
     << "  %e0 = tensor.empty() : " << sorted << "\n"
     << "  %e = mixer.grouped_matmul ins(%h, %wd, %g : " << h << ", " << wd
     << ", " << gs << ") outs(%e0 : " << sorted << ") -> " << sorted << "\n"
     << "  %y = mixer.moe_combine ins(%e, %p, %w : " << sorted << ", " << perm
     << ", " << rw << ") outs(%o : " << x << ") -> " << x << "\n"
     << "  return %y : " << x << "\n}\n";
  return os.str();
}

class MoeLayerAgainstReference : public ::testing::TestWithParam<LayerCase> {};

TEST_P(MoeLayerAgainstReference, RelativeErrorWithinTolerance) {
  const LayerCase &c = GetParam();
  CompiledModule compiled(layerModule(c), c.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(21 + c.T);
  double scale = 1.0 / std::sqrt(static_cast<double>(c.K));
  std::vector<float> x = ref::toFloats(rng.uniformTensor({c.T, c.K}, -1, 1));
  std::vector<float> l = ref::toFloats(rng.normalTensor({c.T, c.E}, 0, 1));
  std::vector<float> wg =
      ref::toFloats(rng.uniformTensor({c.E, c.K, c.F}, -scale, scale));
  std::vector<float> wu =
      ref::toFloats(rng.uniformTensor({c.E, c.K, c.F}, -scale, scale));
  std::vector<float> wd =
      ref::toFloats(rng.uniformTensor({c.E, c.F, c.K}, -scale, scale));
  std::vector<float> out(c.T * c.K, std::nanf(""));
  Descriptor<float> dx(x.data(), {c.T, c.K}), dl(l.data(), {c.T, c.E}),
      dout(out.data(), {c.T, c.K});
  Descriptor<float> dg(wg.data(), {c.E, c.K, c.F}),
      du(wu.data(), {c.E, c.K, c.F}), dd(wd.data(), {c.E, c.F, c.K});
  compiled.call("moe", {&dx, &dl, &dg, &du, &dd, &dout});

  ref::Tensor expected = ref::moeLayer(
      ref::fromFloats({c.T, c.K}, x.data()), ref::fromFloats({c.T, c.E}, l.data()),
      c.k, c.normalize, ref::fromFloats({c.E, c.K, c.F}, wg.data()),
      ref::fromFloats({c.E, c.K, c.F}, wu.data()),
      ref::fromFloats({c.E, c.F, c.K}, wd.data()));
  double err = ref::relativeError(out.data(), expected);
  std::printf("moe layer %s: relative error %.3g\n", caseName(c).c_str(), err);
  EXPECT_LE(err, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(
    MoeLayer, MoeLayerAgainstReference,
    ::testing::Values(LayerCase{100, 64, 128, 8, 2, true, false},
                      LayerCase{77, 32, 96, 6, 3, false, false},
                      LayerCase{1, 32, 64, 4, 1, false, false},
                      LayerCase{50, 32, 64, 8, 2, true, true}),
    [](const auto &info) { return caseName(info.param); });

/// The representative shape T=4096 K=512 N=512 E=8, optimized vs naive
/// (median of a few runs each). Disabled by default (the naive run takes
/// seconds): --gtest_also_run_disabled_tests.
TEST(GroupedMatmulTiming, DISABLED_T4096_K512_N512_E8) {
  GroupedCase c{4096, 512, 512, 8, 4096, false, true, false, false};
  ref::Rng rng(5);
  std::vector<float> lhs = ref::toFloats(rng.uniformTensor({c.T, c.K}, -1, 1));
  std::vector<float> rhs =
      ref::toFloats(rng.uniformTensor({c.E, c.K, c.N}, -1, 1));
  std::vector<int64_t> sizes = groupSizesFor(rng, c);
  std::vector<float> out(c.T * c.N);
  Descriptor<float> dl(lhs.data(), {c.T, c.K}), dout(out.data(), {c.T, c.N});
  Descriptor<float> dr(rhs.data(), {c.E, c.K, c.N});
  GroupSizes gs(sizes, true);
  ref::Tensor expected =
      ref::groupedMatmul(ref::fromFloats({c.T, c.K}, lhs.data()),
                         ref::fromFloats({c.E, c.K, c.N}, rhs.data()), sizes);
  double flops = 2.0 * c.T * c.K * c.N;
  for (bool naive : {false, true}) {
    c.naive = naive;
    CompiledModule compiled(groupedMatmulModule(c), naive);
    ASSERT_TRUE(compiled.ok());
    std::vector<double> times;
    for (int rep = 0; rep < (naive ? 3 : 10); ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      compiled.call("gm", {&dl, &dr, gs.arg(), &dout});
      times.push_back(std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - t0)
                          .count());
    }
    std::sort(times.begin(), times.end());
    double median = times[times.size() / 2];
    std::printf("grouped_matmul T4096_K512_N512_E8 %s: median %.3f ms, %.1f "
                "GFLOP/s, relative error %.3g\n",
                naive ? "naive" : "optimized", median * 1e3,
                flops / median * 1e-9, ref::relativeError(out.data(), expected));
  }
}

} // namespace
