//===- NumericalRangeKernelsTest.cpp - kernel sums at the edges of range --===//
//
// kernel_mv, kernel_lse and sinkhorn compiled for the CPU against the fp64
// reference where f32 is most likely to fail: bandwidths and eps of 1e-3
// and 1e3, all-equal and duplicated points (exact zero distances), and
// sinkhorn with eps down to 1e-3. Each case prints its error and checks
// that every output is finite and within the tolerances of KernelTest
// (kernel sums 1e-5, sinkhorn 1e-4).
//
// Points are drawn in [-s, s]^D. With s = 1 and a tiny bandwidth most kernel
// values lie far below f32's range, so the cases also scale the points with
// the bandwidth (s = h; for kernel_lse, s such that c / eps is O(1)), where
// every kernel value matters.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

/// Compiled modules by (source, naive): bandwidths and eps are run-time
/// operands, so the cases of one kernel kind share one compilation. The
/// suites empty it when they end: a JIT module destroyed after main returns
/// would run LLVM code after LLVM's own static teardown.
std::map<std::pair<std::string, bool>, std::unique_ptr<CompiledModule>> &
moduleCache() {
  static std::map<std::pair<std::string, bool>, std::unique_ptr<CompiledModule>>
      cache;
  return cache;
}

CompiledModule &compiled(const std::string &source, bool naive) {
  auto &slot = moduleCache()[{source, naive}];
  if (!slot)
    slot = std::make_unique<CompiledModule>(source, naive);
  return *slot;
}

/// The base of the suites here: empties the module cache at the end.
template <typename Case>
class NumericalRangeSuite : public ::testing::TestWithParam<Case> {
protected:
  static void TearDownTestSuite() { moduleCache().clear(); }
};

/// How the points of a case are laid out.
enum class Points {
  /// Uniform in [-s, s]^D.
  Random,
  /// Every x_i and y_j the same point, of norm about s.
  AllEqual,
  /// Random, but x repeats its first N/2 points, and every other y_j is a
  /// copy of some x_i: many exact zero distances between distinct indices.
  Duplicated,
  /// Random, shifted by 100 s in every coordinate: distances O(s), norms
  /// O(100 s).
  Offset
};

const char *pointsName(Points p) {
  switch (p) {
  case Points::Random:
    return "random";
  case Points::AllEqual:
    return "all_equal";
  case Points::Duplicated:
    return "duplicated";
  case Points::Offset:
    return "offset";
  }
  return "?";
}

/// x [N, D] and y [M, D] as floats.
std::pair<Buffer, Buffer> points(Points layout, int64_t N, int64_t M, int64_t D,
                                 double scale, uint64_t seed) {
  ref::Rng rng(seed);
  Buffer x{{N, D}, ref::toFloats(rng.uniformTensor({N, D}, -scale, scale))};
  Buffer y{{M, D}, ref::toFloats(rng.uniformTensor({M, D}, -scale, scale))};
  if (layout == Points::AllEqual) {
    // Coordinates that are not exact in f32, so that norms and dot
    // products round.
    const double p[3] = {0.3, -0.7, 0.9};
    for (int64_t i = 0; i < N * D; ++i)
      x.data[i] = static_cast<float>(scale * p[i % D % 3]);
    for (int64_t i = 0; i < M * D; ++i)
      y.data[i] = x.data[i % D];
  } else if (layout == Points::Duplicated) {
    for (int64_t i = N / 2; i < N; ++i)
      for (int64_t d = 0; d < D; ++d)
        x.data[i * D + d] = x.data[(i - N / 2) * D + d];
    for (int64_t j = 0; j < M; j += 2)
      for (int64_t d = 0; d < D; ++d)
        y.data[j * D + d] = x.data[((j * 7) % N) * D + d];
  } else if (layout == Points::Offset) {
    for (float &v : x.data)
      v = static_cast<float>(v + 100 * scale);
    for (float &v : y.data)
      v = static_cast<float>(v + 100 * scale);
  }
  return {x, y};
}

/// `s` as a test name: '.' becomes 'p', '-' becomes 'm' ("eps0p001",
/// "h1em05").
std::string identifier(std::string s) {
  std::replace(s.begin(), s.end(), '.', 'p');
  std::replace(s.begin(), s.end(), '-', 'm');
  return s;
}

ref::Tensor tensorOf(const Buffer &b) {
  return ref::fromFloats(b.shape, b.data.data());
}

bool allFinite(const std::vector<float> &v) {
  return std::all_of(v.begin(), v.end(),
                     [](float f) { return std::isfinite(f); });
}

double maxAbs(const ref::Tensor &t) {
  double m = 0;
  for (double v : t.data)
    m = std::max(m, std::fabs(v));
  return m;
}

/// max_i |out_i - ref_i| (infinity if one is not finite).
double maxAbsError(const float *out, const ref::Tensor &want) {
  double err = 0;
  for (int64_t i = 0; i < want.numel(); ++i) {
    double e = std::fabs(out[i] - want[i]);
    if (!std::isfinite(e))
      return std::numeric_limits<double>::infinity();
    err = std::max(err, e);
  }
  return err;
}

//===----------------------------------------------------------------------===//
// kernel_mv: bandwidths 1e-3 and 1e3, every kernel kind
//===----------------------------------------------------------------------===//

constexpr int64_t kN = 70, kM = 130, kD = 3, kC = 4;
/// A dimension past kMaxDirectDistanceDim: squared distances expanded around
/// the dot products of centred points (except for laplacian and matern32).
constexpr int64_t kLargeD = 32;

struct MvCase {
  ref::Kernel kind;
  double bandwidth;
  /// The points' half-width: 1, or the bandwidth itself.
  bool scaled;
  bool naive = false;
  Points layout = Points::Random;
  int64_t dim = kD;
};

std::string mvName(const MvCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_h" << c.bandwidth
     << (c.scaled ? "_points_scaled" : "_points_unit")
     << (c.layout != Points::Random ? std::string("_") + pointsName(c.layout)
                                    : "")
     << (c.dim != kD ? "_D" + std::to_string(c.dim) : "")
     << (c.naive ? "_naive" : "");
  return identifier(os.str());
}

/// func @mv(x [N, D], y [M, D], v [M, C], h, out [N, C]) -> out.
std::string mvModule(ref::Kernel kind, int64_t D) {
  std::string x = tensorType({kN, D}), y = tensorType({kM, D});
  std::string v = tensorType({kM, kC}), out = tensorType({kN, kC});
  std::ostringstream os;
  os << "func.func @mv(%x: " << x << ", %y: " << y << ", %v: " << v
     << ", %h: tensor<f32>, %o: " << out
     << " {bufferization.writable = true}) -> " << out
     << " {\n  %r = mixer.kernel_mv kernel(" << ref::kernelName(kind)
     << ") ins(%x, %y, %v, %h : " << x << ", " << y << ", " << v
     << ", tensor<f32>) outs(%o : " << out << ") -> " << out
     << "\n  return %r : " << out << "\n}\n";
  return os.str();
}

class KernelMvNumericalRange : public NumericalRangeSuite<MvCase> {};

TEST_P(KernelMvNumericalRange, WithinTolerance) {
  const MvCase &c = GetParam();
  CompiledModule &m = compiled(mvModule(c.kind, c.dim), c.naive);
  ASSERT_TRUE(m.ok()) << "compilation failed";
  double scale = c.scaled ? c.bandwidth : 1.0;
  auto [x, y] = points(c.layout, kN, kM, c.dim, scale, 11);
  ref::Rng rng(12);
  Buffer v{{kM, kC}, ref::toFloats(rng.uniformTensor({kM, kC}, -1.0, 1.0))};
  Buffer h{{}, {static_cast<float>(c.bandwidth)}};
  Buffer out{{kN, kC}, std::vector<float>(kN * kC, 0.0f)};
  m.callBuffers("mv", {&x, &y, &v, &h, &out});
  ref::Tensor want =
      ref::kernelMv(c.kind, tensorOf(x), tensorOf(y), tensorOf(v), h.data[0]);
  // Where every reference value lies below f32's normal range (the kernel
  // underflows for every pair), a relative error is meaningless: the error
  // is then measured against the O(1) scale of the kernel (k <= 1, |v| <= 1).
  bool underflow = maxAbs(want) < 1e-30;
  double err = ref::relativeError(out.data.data(), want);
  if (underflow)
    err = maxAbsError(out.data.data(), want);
  std::printf("kernel_mv numerical range %s: %s %.3g (max |ref| %.3g)\n",
              mvName(c).c_str(),
              underflow ? "reference underflows f32, absolute error"
                        : "relative error",
              err, maxAbs(want));
  EXPECT_TRUE(allFinite(out.data));
  EXPECT_LE(err, 1e-5);
}

std::vector<MvCase> mvCases() {
  using K = ref::Kernel;
  std::vector<MvCase> cases;
  for (K kind : {K::Gaussian, K::Laplacian, K::Matern32, K::InverseMultiquadric,
                 K::Linear})
    for (double h : {1e-3, 1e3})
      for (bool scaled : {false, true})
        cases.push_back({kind, h, scaled});
  // Small distances next to large norms: an r^2 expanded as |x|^2 + |y|^2 -
  // 2 <x, y> rounds by about 1e-7 |x|^2, which swamps them (the inverse
  // multiquadric at h = 1e-3 on unit points, data far from the origin,
  // coincident points). Both lowerings, the naive one subtracting
  // coordinates, the optimized one summing squared differences at this D.
  cases.push_back({K::InverseMultiquadric, 1e-3, false, /*naive=*/true});
  for (bool naive : {true, false}) {
    for (K kind :
         {K::Gaussian, K::Laplacian, K::Matern32, K::InverseMultiquadric}) {
      cases.push_back({kind, 1.0, false, naive, Points::Offset});
      cases.push_back({kind, 0.1, false, naive, Points::Duplicated});
    }
  }
  // At a large D the optimized lowering expands r^2 around the dot products
  // of points centred on the mean of y: far from the origin the rounding
  // then scales with the spread of the points. Laplacian and matern32 sum
  // squared differences at every D (r itself at coincident points).
  for (K kind :
       {K::Gaussian, K::Laplacian, K::Matern32, K::InverseMultiquadric}) {
    cases.push_back({kind, 1.0, false, false, Points::Random, kLargeD});
    cases.push_back({kind, 1.0, false, false, Points::Offset, kLargeD});
  }
  cases.push_back(
      {K::Laplacian, 0.1, false, false, Points::Duplicated, kLargeD});
  cases.push_back(
      {K::Matern32, 0.1, false, false, Points::Duplicated, kLargeD});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(NumericalRange, KernelMvNumericalRange,
                         ::testing::ValuesIn(mvCases()),
                         [](const auto &info) { return mvName(info.param); });

//===----------------------------------------------------------------------===//
// kernel_lse: eps 1e-3 and 1e3, all-equal and duplicated points
//===----------------------------------------------------------------------===//

struct LseCase {
  ref::Kernel kind;
  double eps;
  Points layout;
  /// Points of half-width 1, or scaled so that c / eps is O(1).
  bool scaled;
  bool naive = false;
  int64_t dim = kD;
};

std::string lseName(const LseCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_eps" << c.eps << "_" << pointsName(c.layout)
     << (c.scaled ? "_scaled" : "")
     << (c.dim != kD ? "_D" + std::to_string(c.dim) : "")
     << (c.naive ? "_naive" : "");
  return identifier(os.str());
}

/// func @lse(x [N, D], y [M, D], eps, g [M], out [N]) -> out.
std::string lseModule(ref::Kernel kind, int64_t D) {
  std::string x = tensorType({kN, D}), y = tensorType({kM, D});
  std::string g = tensorType({kM}), out = tensorType({kN});
  std::ostringstream os;
  os << "func.func @lse(%x: " << x << ", %y: " << y
     << ", %eps: tensor<f32>, %g: " << g << ", %o: " << out
     << " {bufferization.writable = true}) -> " << out
     << " {\n  %r = mixer.kernel_lse kernel(" << ref::kernelName(kind)
     << ") ins(%x, %y, %eps : " << x << ", " << y
     << ", tensor<f32>) g(%g : " << g << ") outs(%o : " << out << ") -> " << out
     << "\n  return %r : " << out << "\n}\n";
  return os.str();
}

/// The points' half-width for which c(x, y) / eps is O(1): eps for the
/// distance, sqrt(eps) for the squared distances.
double unitCostScale(ref::Kernel kind, double eps) {
  return kind == ref::Kernel::Laplacian ? eps : std::sqrt(eps);
}

class KernelLseNumericalRange : public NumericalRangeSuite<LseCase> {};

TEST_P(KernelLseNumericalRange, WithinTolerance) {
  const LseCase &c = GetParam();
  CompiledModule &m = compiled(lseModule(c.kind, c.dim), c.naive);
  ASSERT_TRUE(m.ok()) << "compilation failed";
  double scale = c.scaled ? unitCostScale(c.kind, c.eps) : 1.0;
  auto [x, y] = points(c.layout, kN, kM, c.dim, scale, 21);
  ref::Rng rng(22);
  Buffer g{{kM}, ref::toFloats(rng.uniformTensor({kM}, -2.0, 2.0))};
  Buffer eps{{}, {static_cast<float>(c.eps)}};
  Buffer out{{kN}, std::vector<float>(kN, 0.0f)};
  m.callBuffers("lse", {&x, &y, &eps, &g, &out});
  ref::Tensor gt = tensorOf(g);
  ref::Tensor want =
      ref::kernelLse(c.kind, tensorOf(x), tensorOf(y), &gt, eps.data[0]);
  double err = ref::relativeError(out.data.data(), want);
  std::printf("kernel_lse numerical range %s: relative error %.3g (max |ref| "
              "%.3g)\n",
              lseName(c).c_str(), err, maxAbs(want));
  EXPECT_TRUE(allFinite(out.data));
  EXPECT_LE(err, 1e-5);
}

std::vector<LseCase> lseCases() {
  using K = ref::Kernel;
  std::vector<LseCase> cases;
  for (K kind : {K::SqEuclidean, K::Gaussian, K::Laplacian}) {
    for (double eps : {1e-3, 1e3}) {
      cases.push_back({kind, eps, Points::Random, false});
      cases.push_back({kind, eps, Points::Random, true});
    }
    // Coincident points: an expanded r^2 rounds to about 1e-7 |x|^2 there,
    // which the laplacian cost sqrt(r^2) would turn into 3e-4 |x| (see
    // kernel_mv).
    for (Points layout : {Points::AllEqual, Points::Duplicated})
      for (double eps : {1e-3, 0.5})
        cases.push_back({kind, eps, layout, true});
    for (bool naive : {true, false})
      cases.push_back({kind, 1.0, Points::Offset, false, naive});
    if (kind == K::Laplacian)
      cases.push_back({kind, 1e-3, Points::Duplicated, true, /*naive=*/true});
    // Expanded around centred points at a large D (laplacian: summed).
    cases.push_back({kind, 1.0, Points::Random, false, false, kLargeD});
    cases.push_back({kind, 1.0, Points::Offset, false, false, kLargeD});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(NumericalRange, KernelLseNumericalRange,
                         ::testing::ValuesIn(lseCases()),
                         [](const auto &info) { return lseName(info.param); });

//===----------------------------------------------------------------------===//
// sinkhorn: eps down to 1e-3, all-equal and duplicated points
//===----------------------------------------------------------------------===//

struct SinkhornCase {
  ref::Kernel kind;
  double eps;
  Points layout;
  bool naive = false;
};

std::string sinkhornName(const SinkhornCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_eps" << c.eps << "_" << pointsName(c.layout)
     << (c.naive ? "_naive" : "");
  return identifier(os.str());
}

constexpr int64_t kSinkhornN = 60, kSinkhornM = 50, kIterations = 30;

/// func @sinkhorn(x, y, log_a, log_b, eps, f, g, cost) -> (f, g, cost).
std::string sinkhornModule(ref::Kernel kind) {
  std::string x = tensorType({kSinkhornN, kD}),
              y = tensorType({kSinkhornM, kD});
  std::string la = tensorType({kSinkhornN}), lb = tensorType({kSinkhornM});
  std::ostringstream os;
  os << "func.func @sinkhorn(%x: " << x << ", %y: " << y << ", %la: " << la
     << ", %lb: " << lb << ", %eps: tensor<f32>, %f0: " << la
     << " {bufferization.writable = true}, %g0: " << lb
     << " {bufferization.writable = true}, %c0: tensor<f32> "
        "{bufferization.writable = true}) -> ("
     << la << ", " << lb << ", tensor<f32>) {\n"
     << "  %f, %g, %c = mixer.sinkhorn cost(" << ref::kernelName(kind)
     << ") iterations(" << kIterations << ") ins(%x, %y, %la, %lb, %eps : " << x
     << ", " << y << ", " << la << ", " << lb
     << ", tensor<f32>) outs(%f0, %g0, %c0 : " << la << ", " << lb
     << ", tensor<f32>) -> " << la << ", " << lb << ", tensor<f32>\n"
     << "  return %f, %g, %c : " << la << ", " << lb << ", tensor<f32>\n}\n";
  return os.str();
}

/// The error of a dual potential relative to max(max|ref|, eps): potentials
/// are resolved to eps (f / eps is what enters the plan), and where the
/// points all coincide the exact potentials are 0 and the reference holds
/// only the rounding of the log-weights.
double potentialError(const float *out, const ref::Tensor &want, double eps) {
  return maxAbsError(out, want) / std::max(maxAbs(want), eps);
}

class SinkhornNumericalRange : public NumericalRangeSuite<SinkhornCase> {};

TEST_P(SinkhornNumericalRange, PotentialsAndCostMatchReference) {
  const SinkhornCase &c = GetParam();
  CompiledModule &m = compiled(sinkhornModule(c.kind), c.naive);
  ASSERT_TRUE(m.ok()) << "compilation failed";
  // Points in [-1, 1]^D: costs are O(1).
  auto [x, y] = points(c.layout, kSinkhornN, kSinkhornM, kD, 1.0, 31);
  Buffer la{{kSinkhornN},
            std::vector<float>(kSinkhornN, -std::log(float(kSinkhornN)))};
  Buffer lb{{kSinkhornM},
            std::vector<float>(kSinkhornM, -std::log(float(kSinkhornM)))};
  Buffer eps{{}, {static_cast<float>(c.eps)}};
  Buffer f{{kSinkhornN}, std::vector<float>(kSinkhornN, 0.0f)};
  Buffer g{{kSinkhornM}, std::vector<float>(kSinkhornM, 0.0f)};
  Buffer cost{{}, {0.0f}};
  m.callBuffers("sinkhorn", {&x, &y, &la, &lb, &eps, &f, &g, &cost});
  ref::SinkhornResult want =
      ref::sinkhorn(c.kind, tensorOf(x), tensorOf(y), tensorOf(la),
                    tensorOf(lb), eps.data[0], kIterations);
  double fErr = potentialError(f.data.data(), want.f, c.eps);
  double gErr = potentialError(g.data.data(), want.g, c.eps);
  double costErr =
      ref::relativeError(cost.data.data(), ref::Tensor({}, want.cost));
  // The transport plan is exp((f_i + g_j - C_ij) / eps) a_i b_j: errors
  // in the potentials change it by up to (max|df| + max|dg|) / eps.
  double planErr = (maxAbsError(f.data.data(), want.f) +
                    maxAbsError(g.data.data(), want.g)) /
                   c.eps;
  std::printf("sinkhorn numerical range %s: relative error f %.3g, g %.3g, "
              "cost %.3g (cost %.6g, reference %.6g); plan changed by up to "
              "%.3g\n",
              sinkhornName(c).c_str(), fErr, gErr, costErr, cost.data[0],
              want.cost, planErr);
  EXPECT_TRUE(allFinite(f.data) && allFinite(g.data) &&
              std::isfinite(cost.data[0]));
  EXPECT_LE(fErr, 1e-4);
  EXPECT_LE(gErr, 1e-4);
  EXPECT_LE(costErr, 1e-4);
}

std::vector<SinkhornCase> sinkhornCases() {
  using K = ref::Kernel;
  std::vector<SinkhornCase> cases;
  for (K kind : {K::SqEuclidean, K::Gaussian, K::Laplacian}) {
    for (double eps : {1e-1, 1e-2, 1e-3})
      cases.push_back({kind, eps, Points::Random});
    for (Points layout : {Points::AllEqual, Points::Duplicated})
      for (double eps : {1e-3, 0.5})
        cases.push_back({kind, eps, layout});
  }
  // Laplacian costs at coincident points (see kernel_lse) on the naive
  // lowering as well.
  for (double eps : {1e-3, 0.5})
    cases.push_back({K::Laplacian, eps, Points::Duplicated, /*naive=*/true});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(NumericalRange, SinkhornNumericalRange,
                         ::testing::ValuesIn(sinkhornCases()),
                         [](const auto &info) {
                           return sinkhornName(info.param);
                         });

} // namespace
