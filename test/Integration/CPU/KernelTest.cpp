//===- KernelTest.cpp - compiled kernel reductions against the reference --===//
//
// Builds a function holding one mixer.kernel_lse (or kernel_mv,
// transport_cost, sinkhorn), compiles it through the CPU pipeline (optimized
// and naive), runs it through the JIT on random inputs and compares with
// mixer::ref. Each case prints its
// relative error max|out - ref| / max|ref|.
//
// MIXER_KERNEL_TIMING=1 in the environment also runs the timing cases
// (kernel_lse N = M = 4096, D = 16, optimized and naive; sinkhorn
// N = M = 2048, D = 16, 1 and 21 iterations).
//
//===----------------------------------------------------------------------===//

#include "KernelTestInputs.h"
#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

/// A buffer of zeros.
Buffer zeros(std::vector<int64_t> shape) { return filledBuffer(shape, 0.0f); }

//===----------------------------------------------------------------------===//
// kernel_lse
//===----------------------------------------------------------------------===//

/// Bt = 0: unbatched.
struct LseCase {
  ref::Kernel kind;
  int64_t Bt, N, M, D;
  bool withG;
  double eps;
  bool naive;
};

std::string lseName(const LseCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_Bt" << c.Bt << "_N" << c.N << "_M" << c.M << "_D"
     << c.D << (c.withG ? "_g" : "") << (c.naive ? "_naive" : "");
  return os.str();
}

/// func @lse(x, y, eps, [g,] out) -> out.
std::string lseModule(const LseCase &c) {
  std::string x = tensorType(withBatch(c.Bt, {c.N, c.D}));
  std::string y = tensorType(withBatch(c.Bt, {c.M, c.D}));
  std::string g = tensorType(withBatch(c.Bt, {c.M}));
  std::string out = tensorType(withBatch(c.Bt, {c.N}));
  std::ostringstream os;
  os << "func.func @lse(%x: " << x << ", %y: " << y << ", %eps: tensor<f32>";
  if (c.withG)
    os << ", %g: " << g;
  os << ", %o: " << out << " {bufferization.writable = true}) -> " << out
     << " {\n  %r = mixer.kernel_lse kernel(" << ref::kernelName(c.kind)
     << ") ins(%x, %y, %eps : " << x << ", " << y << ", tensor<f32>)";
  if (c.withG)
    os << " g(%g : " << g << ")";
  os << " outs(%o : " << out << ") -> " << out << "\n  return %r : " << out
     << "\n}\n";
  return os.str();
}

class KernelLse : public ::testing::TestWithParam<LseCase> {};

TEST_P(KernelLse, RelativeErrorWithinTolerance) {
  const LseCase &c = GetParam();
  CompiledModule compiled(lseModule(c), c.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(42);
  auto [x, rx] = randomInput(rng, withBatch(c.Bt, {c.N, c.D}), -1.0, 1.0);
  auto [y, ry] = randomInput(rng, withBatch(c.Bt, {c.M, c.D}), -1.0, 1.0);
  auto [g, rg] = randomInput(rng, withBatch(c.Bt, {c.M}), -2.0, 2.0);
  Buffer eps{{}, {static_cast<float>(c.eps)}};
  Buffer out = zeros(withBatch(c.Bt, {c.N}));
  std::vector<Buffer *> args = {&x, &y, &eps};
  if (c.withG)
    args.push_back(&g);
  args.push_back(&out);
  compiled.callBuffers("lse", args);

  ref::Tensor expected =
      ref::kernelLse(c.kind, rx, ry, c.withG ? &rg : nullptr, eps.data[0]);
  double err = ref::relativeError(out.data.data(), expected);
  std::printf("kernel_lse %s: relative error %.3g\n", lseName(c).c_str(), err);
  EXPECT_LE(err, 1e-5);
}

std::vector<LseCase> lseCases() {
  using K = ref::Kernel;
  std::vector<LseCase> cases;
  for (K kind : {K::SqEuclidean, K::Gaussian, K::Laplacian}) {
    for (bool naive : {false, true}) {
      // One point; M not a multiple of the column block; a ragged last row
      // tile; batched with and without g.
      cases.push_back({kind, 0, 1, 1, 3, true, 0.5, naive});
      cases.push_back({kind, 0, 100, 200, 16, true, 0.5, naive});
      cases.push_back({kind, 2, 70, 130, 3, false, 1.0, naive});
      cases.push_back({kind, 3, 64, 64, 8, true, 0.1, naive});
    }
  }
  // Larger: several row tiles and column blocks, a small eps (large -c/eps).
  cases.push_back({K::SqEuclidean, 0, 1000, 777, 16, true, 0.05, false});
  cases.push_back({K::Laplacian, 2, 300, 500, 5, true, 0.2, false});
  // D past 8 (see kernel_mv).
  cases.push_back({K::SqEuclidean, 2, 70, 130, 32, true, 2.0, false});
  cases.push_back({K::Gaussian, 0, 100, 200, 40, false, 2.0, false});
  cases.push_back({K::Laplacian, 2, 70, 130, 32, true, 1.0, false});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Kernel, KernelLse, ::testing::ValuesIn(lseCases()),
                         [](const auto &info) { return lseName(info.param); });

//===----------------------------------------------------------------------===//
// kernel_mv
//===----------------------------------------------------------------------===//

/// Bt = 0: unbatched.
struct MvCase {
  ref::Kernel kind;
  int64_t Bt, N, M, D, C;
  double bandwidth;
  bool naive;
};

std::string mvName(const MvCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_Bt" << c.Bt << "_N" << c.N << "_M" << c.M << "_D"
     << c.D << "_C" << c.C << (c.naive ? "_naive" : "");
  return os.str();
}

/// func @mv(x, y, v, h, out) -> out.
std::string mvModule(const MvCase &c) {
  std::string x = tensorType(withBatch(c.Bt, {c.N, c.D}));
  std::string y = tensorType(withBatch(c.Bt, {c.M, c.D}));
  std::string v = tensorType(withBatch(c.Bt, {c.M, c.C}));
  std::string out = tensorType(withBatch(c.Bt, {c.N, c.C}));
  std::ostringstream os;
  os << "func.func @mv(%x: " << x << ", %y: " << y << ", %v: " << v
     << ", %h: tensor<f32>, %o: " << out
     << " {bufferization.writable = true}) -> " << out
     << " {\n  %r = mixer.kernel_mv kernel(" << ref::kernelName(c.kind)
     << ") ins(%x, %y, %v, %h : " << x << ", " << y << ", " << v
     << ", tensor<f32>) outs(%o : " << out << ") -> " << out
     << "\n  return %r : " << out << "\n}\n";
  return os.str();
}

class KernelMv : public ::testing::TestWithParam<MvCase> {};

TEST_P(KernelMv, RelativeErrorWithinTolerance) {
  const MvCase &c = GetParam();
  CompiledModule compiled(mvModule(c), c.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(17);
  auto [x, rx] = randomInput(rng, withBatch(c.Bt, {c.N, c.D}), -1.0, 1.0);
  auto [y, ry] = randomInput(rng, withBatch(c.Bt, {c.M, c.D}), -1.0, 1.0);
  auto [v, rv] = randomInput(rng, withBatch(c.Bt, {c.M, c.C}), -1.0, 1.0);
  Buffer h{{}, {static_cast<float>(c.bandwidth)}};
  Buffer out = zeros(withBatch(c.Bt, {c.N, c.C}));
  compiled.callBuffers("mv", {&x, &y, &v, &h, &out});

  ref::Tensor expected = ref::kernelMv(c.kind, rx, ry, rv, h.data[0]);
  double err = ref::relativeError(out.data.data(), expected);
  std::printf("kernel_mv %s: relative error %.3g\n", mvName(c).c_str(), err);
  EXPECT_LE(err, 1e-5);
}

std::vector<MvCase> mvCases() {
  using K = ref::Kernel;
  std::vector<MvCase> cases;
  for (K kind : {K::Gaussian, K::Laplacian, K::Matern32, K::InverseMultiquadric,
                 K::Linear}) {
    for (bool naive : {false, true}) {
      // One point; M not a multiple of the column block with a ragged last
      // row tile; batched with one channel.
      cases.push_back({kind, 0, 1, 1, 3, 4, 0.7, naive});
      cases.push_back({kind, 0, 100, 200, 16, 8, 1.5, naive});
      cases.push_back({kind, 2, 70, 130, 3, 1, 0.5, naive});
    }
  }
  // Several row tiles and column blocks, C a multiple of the vector width and
  // C not one.
  cases.push_back({K::Gaussian, 0, 1000, 777, 16, 32, 1.0, false});
  cases.push_back({K::Matern32, 3, 130, 300, 5, 40, 0.8, false});
  // D past 8: squared distances expanded around the dot products of points
  // centred per batch entry (summed at every D for laplacian and matern32).
  cases.push_back({K::Gaussian, 2, 70, 130, 32, 4, 3.0, false});
  cases.push_back({K::InverseMultiquadric, 0, 100, 200, 40, 8, 2.0, false});
  cases.push_back({K::Laplacian, 2, 70, 130, 32, 4, 3.0, false});
  cases.push_back({K::Linear, 2, 70, 130, 32, 4, 1.0, false});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Kernel, KernelMv, ::testing::ValuesIn(mvCases()),
                         [](const auto &info) { return mvName(info.param); });

//===----------------------------------------------------------------------===//
// transport_cost
//===----------------------------------------------------------------------===//

/// Bt = 0: unbatched.
struct CostCase {
  ref::Kernel kind;
  int64_t Bt, N, M, D;
  double eps;
  bool naive;
};

std::string costName(const CostCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_Bt" << c.Bt << "_N" << c.N << "_M" << c.M << "_D"
     << c.D << (c.naive ? "_naive" : "");
  return os.str();
}

/// func @cost(x, y, log_u, log_v, eps, out) -> out.
std::string costModule(const CostCase &c) {
  std::string x = tensorType(withBatch(c.Bt, {c.N, c.D}));
  std::string y = tensorType(withBatch(c.Bt, {c.M, c.D}));
  std::string u = tensorType(withBatch(c.Bt, {c.N}));
  std::string v = tensorType(withBatch(c.Bt, {c.M}));
  std::ostringstream os;
  os << "func.func @cost(%x: " << x << ", %y: " << y << ", %u: " << u
     << ", %v: " << v << ", %eps: tensor<f32>, %o: " << u
     << " {bufferization.writable = true}) -> " << u
     << " {\n  %r = mixer.transport_cost cost(" << ref::kernelName(c.kind)
     << ") ins(%x, %y, %u, %v, %eps : " << x << ", " << y << ", " << u << ", "
     << v << ", tensor<f32>) outs(%o : " << u << ") -> " << u
     << "\n  return %r : " << u << "\n}\n";
  return os.str();
}

class TransportCost : public ::testing::TestWithParam<CostCase> {};

TEST_P(TransportCost, RelativeErrorWithinTolerance) {
  const CostCase &c = GetParam();
  CompiledModule compiled(costModule(c), c.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(7);
  auto [x, rx] = randomInput(rng, withBatch(c.Bt, {c.N, c.D}), -1.0, 1.0);
  auto [y, ry] = randomInput(rng, withBatch(c.Bt, {c.M, c.D}), -0.5, 1.5);
  // Log-scalings of a plan: log(1/n) plus potentials over eps of order 1.
  auto [u, ru] = randomInput(rng, withBatch(c.Bt, {c.N}), -2.0, 0.0);
  auto [v, rv] = randomInput(rng, withBatch(c.Bt, {c.M}), -2.0, 0.0);
  Buffer eps{{}, {static_cast<float>(c.eps)}};
  Buffer out = zeros(withBatch(c.Bt, {c.N}));
  compiled.callBuffers("cost", {&x, &y, &u, &v, &eps, &out});

  ref::Tensor expected =
      ref::transportCost(c.kind, rx, ry, ru, rv, eps.data[0]);
  double err = ref::relativeError(out.data.data(), expected);
  std::printf("transport_cost %s: relative error %.3g\n", costName(c).c_str(),
              err);
  EXPECT_LE(err, 1e-5);
}

std::vector<CostCase> costCases() {
  using K = ref::Kernel;
  std::vector<CostCase> cases;
  for (K kind : {K::SqEuclidean, K::Gaussian, K::Laplacian}) {
    for (bool naive : {false, true}) {
      // One point; M not a multiple of the column block; a ragged last row
      // tile, batched.
      cases.push_back({kind, 0, 1, 1, 3, 0.5, naive});
      cases.push_back({kind, 0, 100, 200, 16, 0.5, naive});
      cases.push_back({kind, 2, 70, 130, 3, 0.1, naive});
    }
  }
  // Larger: several row tiles and column blocks, a small eps.
  cases.push_back({K::SqEuclidean, 0, 1000, 777, 8, 0.05, false});
  // D past 8 (see kernel_mv).
  cases.push_back({K::SqEuclidean, 2, 70, 130, 32, 2.0, false});
  cases.push_back({K::Gaussian, 0, 100, 200, 40, 2.0, false});
  cases.push_back({K::Laplacian, 2, 70, 130, 32, 1.0, false});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Kernel, TransportCost,
                         ::testing::ValuesIn(costCases()),
                         [](const auto &info) { return costName(info.param); });

//===----------------------------------------------------------------------===//
// sinkhorn
//===----------------------------------------------------------------------===//

struct SinkhornCase {
  ref::Kernel kind;
  int64_t N, M, D, iterations;
  double eps;
  bool naive;
};

std::string sinkhornName(const SinkhornCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_N" << c.N << "_M" << c.M << "_D" << c.D << "_it"
     << c.iterations << (c.naive ? "_naive" : "");
  return os.str();
}

/// func @sinkhorn(x, y, log_a, log_b, eps, f, g, cost) -> (f, g, cost).
std::string sinkhornModule(const SinkhornCase &c) {
  std::string x = tensorType({c.N, c.D}), y = tensorType({c.M, c.D});
  std::string la = tensorType({c.N}), lb = tensorType({c.M});
  std::ostringstream os;
  os << "func.func @sinkhorn(%x: " << x << ", %y: " << y << ", %la: " << la
     << ", %lb: " << lb << ", %eps: tensor<f32>, %f0: " << la
     << " {bufferization.writable = true}, %g0: " << lb
     << " {bufferization.writable = true}, %c0: tensor<f32> "
        "{bufferization.writable = true}) -> ("
     << la << ", " << lb << ", tensor<f32>) {\n"
     << "  %f, %g, %c = mixer.sinkhorn cost(" << ref::kernelName(c.kind)
     << ") iterations(" << c.iterations
     << ") ins(%x, %y, %la, %lb, %eps : " << x << ", " << y << ", " << la
     << ", " << lb << ", tensor<f32>) outs(%f0, %g0, %c0 : " << la << ", " << lb
     << ", tensor<f32>) -> " << la << ", " << lb << ", tensor<f32>\n"
     << "  return %f, %g, %c : " << la << ", " << lb << ", tensor<f32>\n}\n";
  return os.str();
}

/// Uniform log-weights log(1/n).
std::pair<Buffer, ref::Tensor> uniformLogWeights(int64_t n) {
  ref::Tensor t({n}, -std::log(static_cast<double>(n)));
  Buffer b{{n}, ref::toFloats(t)};
  return {b, ref::fromFloats({n}, b.data.data())};
}

class Sinkhorn : public ::testing::TestWithParam<SinkhornCase> {};

TEST_P(Sinkhorn, RelativeErrorWithinTolerance) {
  const SinkhornCase &c = GetParam();
  CompiledModule compiled(sinkhornModule(c), c.naive);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(3);
  auto [x, rx] = randomInput(rng, {c.N, c.D}, -1.0, 1.0);
  auto [y, ry] = randomInput(rng, {c.M, c.D}, -0.5, 1.5);
  auto [la, rla] = uniformLogWeights(c.N);
  auto [lb, rlb] = uniformLogWeights(c.M);
  Buffer eps{{}, {static_cast<float>(c.eps)}};
  Buffer f = zeros({c.N}), g = zeros({c.M}), cost = zeros({});
  compiled.callBuffers("sinkhorn", {&x, &y, &la, &lb, &eps, &f, &g, &cost});

  ref::SinkhornResult expected =
      ref::sinkhorn(c.kind, rx, ry, rla, rlb, eps.data[0], c.iterations);
  double fErr = ref::relativeError(f.data.data(), expected.f);
  double gErr = ref::relativeError(g.data.data(), expected.g);
  double costErr =
      ref::relativeError(cost.data.data(), ref::Tensor({}, expected.cost));
  std::printf("sinkhorn %s: relative error f %.3g, g %.3g, cost %.3g\n",
              sinkhornName(c).c_str(), fErr, gErr, costErr);
  EXPECT_LE(fErr, 1e-4);
  EXPECT_LE(gErr, 1e-4);
  EXPECT_LE(costErr, 1e-4);
}

std::vector<SinkhornCase> sinkhornCases() {
  using K = ref::Kernel;
  std::vector<SinkhornCase> cases;
  for (K kind : {K::SqEuclidean, K::Gaussian, K::Laplacian}) {
    for (bool naive : {false, true}) {
      cases.push_back({kind, 1, 5, 3, 3, 0.5, naive});
      cases.push_back({kind, 100, 70, 3, 20, 0.1, naive});
    }
  }
  // Many iterations, several row tiles and column blocks.
  cases.push_back({K::SqEuclidean, 300, 200, 8, 100, 0.05, false});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Kernel, Sinkhorn, ::testing::ValuesIn(sinkhornCases()),
                         [](const auto &info) {
                           return sinkhornName(info.param);
                         });

//===----------------------------------------------------------------------===//
// Timing (MIXER_KERNEL_TIMING=1)
//===----------------------------------------------------------------------===//

TEST(KernelTiming, LseOptimizedVsNaive) {
  if (!std::getenv("MIXER_KERNEL_TIMING"))
    GTEST_SKIP() << "set MIXER_KERNEL_TIMING=1 to time kernel_lse";
  LseCase c{ref::Kernel::SqEuclidean, 0, 4096, 4096, 16, true, 0.5, false};
  ref::Rng rng(5);
  auto [x, rx] = randomInput(rng, {c.N, c.D}, -1.0, 1.0);
  auto [y, ry] = randomInput(rng, {c.M, c.D}, -1.0, 1.0);
  auto [g, rg] = randomInput(rng, {c.M}, -2.0, 2.0);
  Buffer eps{{}, {0.5f}};
  for (bool naive : {false, true}) {
    c.naive = naive;
    CompiledModule compiled(lseModule(c), naive);
    ASSERT_TRUE(compiled.ok());
    Buffer out = zeros({c.N});
    compiled.callBuffers("lse", {&x, &y, &eps, &g, &out}); // warm up
    int reps = naive ? 1 : 5;
    auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      compiled.callBuffers("lse", {&x, &y, &eps, &g, &out});
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count() /
                reps;
    std::printf("kernel_lse N=M=4096 D=16 %s: %.2f ms\n",
                naive ? "naive" : "optimized", ms);
  }
}

/// Sinkhorn N = M = 2048, D = 16: 1 and 21 iterations, so that the cost of
/// an iteration (two kernel_lse) and of the transport-cost pass show.
TEST(KernelTiming, SinkhornIterations) {
  if (!std::getenv("MIXER_KERNEL_TIMING"))
    GTEST_SKIP() << "set MIXER_KERNEL_TIMING=1 to time sinkhorn";
  ref::Rng rng(6);
  const int64_t N = 2048, M = 2048, D = 16;
  auto [x, rx] = randomInput(rng, {N, D}, -1.0, 1.0);
  auto [y, ry] = randomInput(rng, {M, D}, -1.0, 1.0);
  auto [la, rla] = uniformLogWeights(N);
  auto [lb, rlb] = uniformLogWeights(M);
  Buffer eps{{}, {0.1f}};
  for (int64_t iterations : {1, 21}) {
    SinkhornCase c{ref::Kernel::SqEuclidean, N, M, D, iterations, 0.1, false};
    CompiledModule compiled(sinkhornModule(c), false);
    ASSERT_TRUE(compiled.ok());
    Buffer f = zeros({N}), g = zeros({M}), cost = zeros({});
    compiled.callBuffers("sinkhorn", {&x, &y, &la, &lb, &eps, &f, &g, &cost});
    auto start = std::chrono::steady_clock::now();
    compiled.callBuffers("sinkhorn", {&x, &y, &la, &lb, &eps, &f, &g, &cost});
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    std::printf("sinkhorn N=M=2048 D=16 %lld iterations: %.2f ms\n",
                (long long)iterations, ms);
  }
}

} // namespace
