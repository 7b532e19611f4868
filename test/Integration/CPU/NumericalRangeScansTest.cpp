//===- NumericalRangeScansTest.cpp - scans at the edges of their range ----===//
//
// The four scans compiled for the CPU against the fp64 reference where f32
// is most likely to fail: long sequences (L = 8192 and 65536, also through
// the naive lowering) with realistic decays, and log-decays at the ends of
// the legal range (whole sequences of 0, isolated -1e4, every entry -1e4)
// on both the chunked (L > 8) and the recurrent (L <= 8) forms. Each case
// prints its relative error max|out - ref| / max|ref| and must stay within
// the scans' 1e-4.
//
// MIXER_NAN_REPORT=1 in the environment also runs a report (not a test) of
// how a NaN in one input element at t = 5 spreads through each scan's
// outputs, compiled without run-time checks, next to the reference's.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <tuple>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

enum class Scan { Ssd, LinearAttention, GatedDeltaRule, SelectiveScan };

const char *scanName(Scan op) {
  switch (op) {
  case Scan::Ssd:
    return "ssd";
  case Scan::LinearAttention:
    return "linear_attention";
  case Scan::GatedDeltaRule:
    return "gated_delta_rule";
  case Scan::SelectiveScan:
    return "selective_scan";
  }
  return "?";
}

/// Small heads keep L = 65536 fast: B = 1, H = 2 heads of P = N = 16
/// (Dk = Dv = 16), one group; selective_scan has D = 32 channels, N = 16.
constexpr int64_t kHeads = 2, kDim = 16, kChannels = 32, kChunk = 64;

/// The operand shapes of `op` at length L, in the order of the function's
/// arguments; the last two are the outputs (out, final state).
std::vector<std::vector<int64_t>> operandShapes(Scan op, int64_t L) {
  const int64_t H = kHeads, P = kDim, N = kDim;
  switch (op) {
  case Scan::Ssd: // x, log_a, b, c, y, state
    return {{1, L, H, P}, {1, L, H},    {1, L, 1, N},
            {1, L, 1, N}, {1, L, H, P}, {1, H, P, N}};
  case Scan::LinearAttention: // q, k, v, log_decay, o, state
    return {{1, L, H, P}, {1, L, H, P}, {1, L, H, P},
            {1, L, H},    {1, L, H, P}, {1, H, P, P}};
  case Scan::GatedDeltaRule: // q, k, v, g, beta, o, state
    return {{1, L, H, P}, {1, L, H, P}, {1, L, H, P}, {1, L, H},
            {1, L, H},    {1, L, H, P}, {1, H, P, P}};
  case Scan::SelectiveScan: // u, delta, A, b, c, y, state
    return {{1, L, kChannels}, {1, L, kChannels}, {kChannels, N},
            {1, L, 1, N},      {1, L, 1, N},      {1, L, kChannels},
            {1, kChannels, N}};
  }
  return {};
}

/// The index of the log-decay operand of `op` (-1: selective_scan, whose
/// decay is delta * A).
int gateOperand(Scan op) {
  switch (op) {
  case Scan::Ssd:
    return 1;
  case Scan::LinearAttention:
  case Scan::GatedDeltaRule:
    return 3;
  case Scan::SelectiveScan:
    return -1;
  }
  return -1;
}

/// func @scan(inputs..., out, state) -> (out, state) holding one `op`.
std::string scanModule(Scan op, int64_t L) {
  std::vector<std::vector<int64_t>> shapes = operandShapes(op, L);
  std::vector<std::string> types;
  for (const auto &s : shapes)
    types.push_back(tensorType(s));
  size_t numIns = shapes.size() - 2;
  std::string out = types[numIns], state = types[numIns + 1];
  std::ostringstream os, ins, insTypes;
  os << "func.func @scan(";
  for (size_t i = 0; i < numIns; ++i) {
    os << "%in" << i << ": " << types[i] << ", ";
    ins << (i ? ", " : "") << "%in" << i;
    insTypes << (i ? ", " : "") << types[i];
  }
  os << "%o0: " << out << " {bufferization.writable = true}, %s0: " << state
     << " {bufferization.writable = true}) -> (" << out << ", " << state
     << ") {\n  %o, %s = ";
  switch (op) {
  case Scan::Ssd:
    os << "mixer.ssd chunk_size(" << kChunk << ") ins(" << ins.str() << " : "
       << insTypes.str() << ")";
    break;
  case Scan::LinearAttention:
    os << "mixer.linear_attention chunk_size(" << kChunk
       << ") window(0) scale(2.5e-01) ins(%in0, %in1, %in2 : " << types[0]
       << ", " << types[1] << ", " << types[2]
       << ") log_decay(%in3 : " << types[3] << ")";
    break;
  case Scan::GatedDeltaRule:
    os << "mixer.gated_delta_rule chunk_size(" << kChunk
       << ") scale(2.5e-01) ins(" << ins.str() << " : " << insTypes.str()
       << ")";
    break;
  case Scan::SelectiveScan:
    os << "mixer.selective_scan delta_softplus ins(" << ins.str() << " : "
       << insTypes.str() << ")";
    break;
  }
  os << " outs(%o0, %s0 : " << out << ", " << state << ") -> " << out << ", "
     << state << "\n  return %o, %s : " << out << ", " << state << "\n}\n";
  return os.str();
}

/// Compiled modules by (source, naive, run-time checks): the gates are run-time
/// values, so the cases of one op and length share one compilation. The
/// suites empty it when they end: a JIT module destroyed after main returns
/// would run LLVM code after LLVM's own static teardown.
using ModuleKey = std::tuple<std::string, bool, bool>;
std::map<ModuleKey, std::unique_ptr<CompiledModule>> &moduleCache() {
  static std::map<ModuleKey, std::unique_ptr<CompiledModule>> cache;
  return cache;
}

CompiledModule &compiled(const std::string &source, bool naive = false,
                         bool runtimeChecks = true) {
  auto &slot = moduleCache()[{source, naive, runtimeChecks}];
  if (!slot)
    slot = std::make_unique<CompiledModule>(
        source, naive, /*recurrentThreshold=*/-1, runtimeChecks);
  return *slot;
}

/// How the log-decays of a case are drawn.
enum class Gates {
  /// Uniform in [-1, 0).
  Realistic,
  /// Every entry 0: nothing is forgotten.
  Zero,
  /// Realistic, with -1e4 (the state is wiped) every 7th token of each head
  /// and at both sides of the first chunk boundary (t = 63, 64).
  RealisticWithKills,
  /// The same kills in a sequence of 0.
  ZeroWithKills,
  /// Every entry -1e4: each token sees only itself.
  AllKills
};

const char *gatesName(Gates g) {
  switch (g) {
  case Gates::Realistic:
    return "realistic";
  case Gates::Zero:
    return "zero";
  case Gates::RealisticWithKills:
    return "realistic_kills";
  case Gates::ZeroWithKills:
    return "zero_kills";
  case Gates::AllKills:
    return "all_kills";
  }
  return "?";
}

/// Log-decays [1, L, H].
std::vector<float> logDecays(Gates mode, int64_t L, ref::Rng &rng) {
  std::vector<float> g(L * kHeads);
  for (int64_t t = 0; t < L; ++t) {
    for (int64_t h = 0; h < kHeads; ++h) {
      bool kill = (t * kHeads + h) % 7 == 3 || t == 63 || t == 64;
      float realistic = static_cast<float>(rng.uniform(-1.0, 0.0));
      float &v = g[t * kHeads + h];
      switch (mode) {
      case Gates::Realistic:
        v = realistic;
        break;
      case Gates::Zero:
        v = 0.0f;
        break;
      case Gates::RealisticWithKills:
        v = kill ? -1e4f : realistic;
        break;
      case Gates::ZeroWithKills:
        v = kill ? -1e4f : 0.0f;
        break;
      case Gates::AllKills:
        v = -1e4f;
        break;
      }
    }
  }
  return g;
}

/// Random operands of `op` at length L (outputs zeroed) with the given
/// log-decays; ranges as in the scans' own tests: values in [-1, 1),
/// L2-normalized keys and beta in [0, 1) for gated_delta_rule, softplus
/// steps of [-4, 1) and A in [-4, -0.1) for selective_scan.
std::vector<Buffer> randomOperands(Scan op, int64_t L, Gates gates,
                                   uint64_t seed) {
  ref::Rng rng(seed);
  std::vector<Buffer> bufs;
  for (const auto &shape : operandShapes(op, L))
    bufs.push_back({shape, ref::toFloats(rng.uniformTensor(shape, -1.0, 1.0))});
  size_t numIns = bufs.size() - 2;
  for (size_t i = numIns; i < bufs.size(); ++i)
    std::fill(bufs[i].data.begin(), bufs[i].data.end(), 0.0f);
  if (int gate = gateOperand(op); gate >= 0)
    bufs[gate].data = logDecays(gates, L, rng);
  if (op == Scan::GatedDeltaRule) {
    std::vector<float> &k = bufs[1].data;
    for (size_t r = 0; r < k.size() / kDim; ++r) {
      double norm = 0;
      for (int64_t i = 0; i < kDim; ++i)
        norm += double(k[r * kDim + i]) * k[r * kDim + i];
      for (int64_t i = 0; i < kDim; ++i)
        k[r * kDim + i] = static_cast<float>(k[r * kDim + i] / std::sqrt(norm));
    }
    for (float &beta : bufs[4].data)
      beta = 0.5f * (beta + 1.0f);
  }
  if (op == Scan::SelectiveScan) {
    for (float &d : bufs[1].data)
      d = -4.0f + 2.5f * (d + 1.0f);
    for (float &a : bufs[2].data)
      a = -4.0f + 1.95f * (a + 1.0f);
  }
  return bufs;
}

/// The fp64 reference of `op` on the (float) operands.
ref::ScanResult reference(Scan op, const std::vector<Buffer> &bufs) {
  std::vector<ref::Tensor> t;
  for (const Buffer &b : bufs)
    t.push_back(ref::fromFloats(b.shape, b.data.data()));
  switch (op) {
  case Scan::Ssd:
    return ref::ssd(t[0], t[1], t[2], t[3], nullptr);
  case Scan::LinearAttention:
    return ref::linearAttention(t[0], t[1], t[2], &t[3], nullptr, 0, 0.25);
  case Scan::GatedDeltaRule:
    return ref::gatedDeltaRule(t[0], t[1], t[2], t[3], t[4], nullptr, 0.25);
  case Scan::SelectiveScan: {
    ref::SelectiveScanOptions opts;
    opts.deltaSoftplus = true;
    return ref::selectiveScan(t[0], t[1], t[2], t[3], t[4], opts);
  }
  }
  return {};
}

/// Runs the compiled scan; the outputs land in the last two buffers.
void runScan(CompiledModule &m, std::vector<Buffer> &bufs) {
  std::vector<Buffer *> args;
  for (Buffer &b : bufs)
    args.push_back(&b);
  m.callBuffers("scan", args);
}

bool allFinite(const std::vector<float> &v) {
  return std::all_of(v.begin(), v.end(),
                     [](float f) { return std::isfinite(f); });
}

struct RangeCase {
  Scan op;
  int64_t L;
  Gates gates;
  /// The scalar loops of the naive lowering instead of the optimized one.
  bool naive = false;
};

std::string rangeCaseName(const RangeCase &c) {
  std::ostringstream os;
  os << scanName(c.op) << "_L" << c.L << "_" << gatesName(c.gates)
     << (c.naive ? "_naive" : "");
  return os.str();
}

class ScanNumericalRange : public ::testing::TestWithParam<RangeCase> {
protected:
  static void TearDownTestSuite() { moduleCache().clear(); }
};

TEST_P(ScanNumericalRange, RelativeErrorWithinTolerance) {
  const RangeCase &c = GetParam();
  CompiledModule &m = compiled(scanModule(c.op, c.L), c.naive);
  ASSERT_TRUE(m.ok()) << "compilation failed";
  std::vector<Buffer> bufs = randomOperands(c.op, c.L, c.gates, 65536 + c.L);
  runScan(m, bufs);
  ref::ScanResult want = reference(c.op, bufs);
  const Buffer &out = bufs[bufs.size() - 2], &state = bufs.back();
  double oErr = ref::relativeError(out.data.data(), want.out);
  double sErr = ref::relativeError(state.data.data(), want.finalState);
  std::printf("numerical range %s (%s form): relative error out %.3g, final "
              "state %.3g\n",
              rangeCaseName(c).c_str(),
              c.naive    ? "naive"
              : c.L <= 8 ? "recurrent"
                         : "chunked",
              oErr, sErr);
  EXPECT_TRUE(allFinite(out.data) && allFinite(state.data));
  EXPECT_LE(oErr, 1e-4);
  EXPECT_LE(sErr, 1e-4);
}

std::vector<RangeCase> rangeCases() {
  std::vector<RangeCase> cases;
  // Long sequences with realistic decays (and the design's 8192).
  for (Scan op : {Scan::Ssd, Scan::LinearAttention, Scan::GatedDeltaRule,
                  Scan::SelectiveScan})
    for (int64_t L : {8192, 65536})
      cases.push_back({op, L, Gates::Realistic});
  // The naive lowering (token by token) over the same long sequences.
  for (Scan op : {Scan::Ssd, Scan::LinearAttention, Scan::GatedDeltaRule,
                  Scan::SelectiveScan})
    cases.push_back({op, 65536, Gates::Realistic, /*naive=*/true});
  // Nothing forgotten over 65536 tokens; kills every 7th token.
  for (Scan op : {Scan::Ssd, Scan::LinearAttention, Scan::GatedDeltaRule})
    for (Gates g : {Gates::Zero, Gates::RealisticWithKills})
      cases.push_back({op, 65536, g});
  // The ends of the log-decay range on the chunked form (several chunks, a
  // partial last one) and on the recurrent form.
  for (Scan op : {Scan::Ssd, Scan::LinearAttention, Scan::GatedDeltaRule})
    for (int64_t L : {200, 7})
      for (Gates g : {Gates::Zero, Gates::RealisticWithKills,
                      Gates::ZeroWithKills, Gates::AllKills})
        cases.push_back({op, L, g});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(NumericalRange, ScanNumericalRange,
                         ::testing::ValuesIn(rangeCases()),
                         [](const auto &info) {
                           return rangeCaseName(info.param);
                         });

//===----------------------------------------------------------------------===//
// NaN propagation report (MIXER_NAN_REPORT=1)
//===----------------------------------------------------------------------===//

/// "{5..199}", "{0}", "{}" for the sorted indices of a set.
std::string ranges(const std::set<int64_t> &s) {
  std::ostringstream os;
  os << "{";
  for (auto it = s.begin(); it != s.end();) {
    int64_t lo = *it, hi = lo;
    for (++it; it != s.end() && *it == hi + 1; ++it)
      hi = *it;
    os << (lo == *s.begin() ? "" : ",") << lo;
    if (hi > lo)
      os << ".." << hi;
  }
  os << "}";
  return os.str();
}

/// For each dimension of `shape`, the indices at which some NaN lies.
template <typename Get>
std::string nanPattern(const std::vector<int64_t> &shape, int64_t n, Get get) {
  std::vector<std::set<int64_t>> where(shape.size());
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isnan(get(i)))
      continue;
    ++count;
    int64_t rest = i;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      where[d].insert(rest % shape[d]);
      rest /= shape[d];
    }
  }
  std::ostringstream os;
  os << count << " NaN";
  if (count)
    for (size_t d = 1; d < shape.size(); ++d)
      os << " d" << d << ranges(where[d]);
  return os.str();
}

class ScanNaNPropagation : public ::testing::Test {
protected:
  static void TearDownTestSuite() { moduleCache().clear(); }
};

TEST_F(ScanNaNPropagation, Report) {
  if (!std::getenv("MIXER_NAN_REPORT"))
    GTEST_SKIP() << "set MIXER_NAN_REPORT=1 to report NaN propagation";
  const char *operandNames[4][5] = {{"x", "log_a", "b", "c"},
                                    {"q", "k", "v", "log_decay"},
                                    {"q", "k", "v", "g", "beta"},
                                    {"u", "delta", "A", "b", "c"}};
  for (Scan op : {Scan::Ssd, Scan::LinearAttention, Scan::GatedDeltaRule,
                  Scan::SelectiveScan}) {
    for (int64_t L : {200, 8}) {
      CompiledModule &m =
          compiled(scanModule(op, L), /*naive=*/false, /*runtimeChecks=*/false);
      ASSERT_TRUE(m.ok());
      size_t numIns = operandShapes(op, L).size() - 2;
      for (size_t operand = 0; operand < numIns; ++operand) {
        std::vector<Buffer> bufs = randomOperands(op, L, Gates::Realistic, 99);
        // The first element at t = 5 (A has no time axis: its first
        // element).
        Buffer &in = bufs[operand];
        int64_t offset = 0;
        if (in.shape.size() >= 3) {
          offset = 5;
          for (size_t d = 2; d < in.shape.size(); ++d)
            offset *= in.shape[d];
        }
        in.data[offset] = std::numeric_limits<float>::quiet_NaN();
        runScan(m, bufs);
        ref::ScanResult want = reference(op, bufs);
        const Buffer &out = bufs[bufs.size() - 2], &state = bufs.back();
        std::printf(
            "nan %s L%lld (%s) NaN in %s: out %s; state %s | reference: out "
            "%s; state %s\n",
            scanName(op), (long long)L, L <= 8 ? "recurrent" : "chunked",
            operandNames[static_cast<int>(op)][operand],
            nanPattern(out.shape, out.data.size(),
                       [&](int64_t i) { return out.data[i]; })
                .c_str(),
            nanPattern(state.shape, state.data.size(),
                       [&](int64_t i) { return state.data[i]; })
                .c_str(),
            nanPattern(want.out.shape, want.out.numel(),
                       [&](int64_t i) { return want.out[i]; })
                .c_str(),
            nanPattern(want.finalState.shape, want.finalState.numel(),
                       [&](int64_t i) { return want.finalState[i]; })
                .c_str());
      }
    }
  }
}

} // namespace
