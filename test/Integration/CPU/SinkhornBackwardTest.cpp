//===- SinkhornBackwardTest.cpp - sinkhorn's compiled gradients -----------===//
//
// Builds a function running mixer.sinkhorn and then mixer.sinkhorn_backward
// on its potentials, compiles it through the optimized CPU pipeline and
// runs it through the JIT on random points with random probability
// weights. Every gradient is compared with
//   - the fp64 reference gradient (ref::sinkhornBackward at the fp64
//     potentials after the same iterations), elementwise, and
//   - central finite differences of the fp64 entropic OT value
//     <a, f> + <b, g> (the quantity the op differentiates), along random
//     directions: x and y anywhere, log_a and log_b along changes that keep
//     sum a and sum b fixed (the only ones along which the value exists).
// Each prints its relative error; the tolerance is 1e-3, as for every
// implicit gradient.
//
//===----------------------------------------------------------------------===//

#include "BackwardCases.h"

#include "mixer/Reference/KernelMoEGradients.h"

#include <cmath>
#include <cstdio>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

constexpr double kTolerance = 1e-3;

std::string caseName(const SinkhornCase &c) {
  std::ostringstream os;
  os << ref::kernelName(c.kind) << "_N" << c.N << "_M" << c.M << "_D" << c.D
     << "_it" << c.iterations;
  return os.str();
}

std::string module(const SinkhornCase &c) {
  std::string x = tensorType({c.N, c.D}), y = tensorType({c.M, c.D}),
              n = tensorType({c.N}), m = tensorType({c.M}), s = "tensor<f32>";
  std::string kind = ref::kernelName(c.kind);
  std::string grads = x + ", " + y + ", " + n + ", " + m;
  std::string w = " {bufferization.writable = true}";
  std::ostringstream os;
  os << "func.func @bwd(%x: " << x << ", %y: " << y << ", %la: " << n
     << ", %lb: " << m << ", %eps: " << s << ", %dc: " << s << ", %dx0: " << x
     << w << ", %dy0: " << y << w << ", %dla0: " << n << w << ", %dlb0: " << m
     << w << ") -> (" << grads << ") {\n"
     << "  %f0 = tensor.empty() : " << n << "\n"
     << "  %g0 = tensor.empty() : " << m << "\n"
     << "  %c0 = tensor.empty() : " << s << "\n"
     << "  %f, %g, %c = mixer.sinkhorn cost(" << kind << ") iterations("
     << c.iterations << ") ins(%x, %y, %la, %lb, %eps : " << x << ", " << y
     << ", " << n << ", " << m << ", " << s << ") outs(%f0, %g0, %c0 : " << n
     << ", " << m << ", " << s << ") -> " << n << ", " << m << ", " << s
     << "\n"
     << "  %r:4 = mixer.sinkhorn_backward cost(" << kind
     << ") ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : " << x << ", " << y
     << ", " << n << ", " << m << ", " << s << ", " << n << ", " << m << ", "
     << s << ") outs(%dx0, %dy0, %dla0, %dlb0 : " << grads << ") -> " << grads
     << "\n  return %r#0, %r#1, %r#2, %r#3 : " << grads << "\n}\n";
  return os.str();
}

/// A float-rounded random tensor (the values the compiled code sees).
ref::Tensor rounded(ref::Tensor t) {
  std::vector<float> f = ref::toFloats(t);
  return ref::fromFloats(t.shape, f.data());
}

/// Log-weights of random probability weights.
ref::Tensor randomLogWeights(ref::Rng &rng, int64_t n) {
  ref::Tensor w = rng.uniformTensor({n}, 0.5, 1.5);
  double sum = 0.0;
  for (double v : w.data)
    sum += v;
  for (double &v : w.data)
    v = std::log(v / sum);
  return rounded(w);
}

Buffer bufferOf(const ref::Tensor &t) { return Buffer{t.shape, ref::toFloats(t)}; }

double dot(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

void expectError(const std::string &what, double err) {
  std::printf("%s: relative error %.3g\n", what.c_str(), err);
  EXPECT_LE(err, kTolerance) << what;
}

} // namespace

void mixer::test::sinkhornBackwardCase(const SinkhornCase &c,
                                       const GradientRunner &runner) {
  std::unique_ptr<CompiledModule> compiled = runner.compile(module(c));
  ASSERT_TRUE(compiled->ok()) << "compilation failed";

  ref::Rng rng(31 + c.N + c.M + c.D);
  ref::Tensor x = rounded(rng.uniformTensor({c.N, c.D}, 0.0, 1.0));
  ref::Tensor y = rounded(rng.uniformTensor({c.M, c.D}, 0.0, 1.0));
  ref::Tensor logA = randomLogWeights(rng, c.N);
  ref::Tensor logB = randomLogWeights(rng, c.M);
  double dCost = 1.5;
  Buffer bx = bufferOf(x), by = bufferOf(y), bla = bufferOf(logA),
         blb = bufferOf(logB), eps{{}, {static_cast<float>(c.eps)}},
         dc{{}, {static_cast<float>(dCost)}};
  Buffer dx{x.shape, std::vector<float>(x.numel(), NAN)},
      dy{y.shape, std::vector<float>(y.numel(), NAN)},
      dla{logA.shape, std::vector<float>(c.N, NAN)},
      dlb{logB.shape, std::vector<float>(c.M, NAN)};
  compiled->callBuffers(
      "bwd", {&bx, &by, &bla, &blb, &eps, &dc, &dx, &dy, &dla, &dlb});

  double epsD = eps.data[0];
  ref::SinkhornResult fwd =
      ref::sinkhorn(c.kind, x, y, logA, logB, epsD, c.iterations);
  ref::SinkhornGradients expected = ref::sinkhornBackward(
      c.kind, x, y, logA, logB, epsD, fwd.f, fwd.g, dCost);
  std::string name = runner.label + "sinkhorn_backward " + caseName(c);
  expectError(name + " dx against the reference",
              ref::relativeError(dx.data.data(), expected.dx));
  expectError(name + " dy against the reference",
              ref::relativeError(dy.data.data(), expected.dy));
  expectError(name + " dlog_a against the reference",
              ref::relativeError(dla.data.data(), expected.dlogA));
  expectError(name + " dlog_b against the reference",
              ref::relativeError(dlb.data.data(), expected.dlogB));

  // Central differences of the fp64 OT value along a random direction v of
  // one input: (OT(p + h v) - OT(p - h v)) / 2h against <grad, v>, the
  // error relative to |grad| |v|.
  auto value = [&](const ref::Tensor &px, const ref::Tensor &py,
                   const ref::Tensor &la, const ref::Tensor &lb) {
    ref::SinkhornResult r =
        ref::sinkhorn(c.kind, px, py, la, lb, epsD, c.iterations);
    double ot = 0.0;
    for (int64_t i = 0; i < c.N; ++i)
      ot += std::exp(la[i]) * r.f[i];
    for (int64_t j = 0; j < c.M; ++j)
      ot += std::exp(lb[j]) * r.g[j];
    return dCost * ot;
  };
  const double h = 1e-4;
  auto check = [&](const std::string &what, const Buffer &grad,
                   const std::vector<double> &v,
                   const std::function<double(double)> &at) {
    std::vector<double> g(grad.data.begin(), grad.data.end());
    double fd = (at(h) - at(-h)) / (2 * h);
    double err = std::abs(fd - dot(g, v)) / std::sqrt(dot(g, g) * dot(v, v));
    expectError(name + " " + what + " against finite differences", err);
  };
  auto moved = [&](const ref::Tensor &t, const std::vector<double> &v,
                   double step) {
    ref::Tensor m = t;
    for (int64_t i = 0; i < m.numel(); ++i)
      m[i] += step * v[i];
    return m;
  };
  // A direction of log-weight changes keeping sum exp(logW) fixed, and the
  // move renormalized so that it stays fixed exactly.
  auto massPreserving = [&](const ref::Tensor &logW) {
    std::vector<double> v = rng.uniformTensor(logW.shape, -1.0, 1.0).data;
    double av = 0.0, aa = 0.0;
    for (int64_t i = 0; i < logW.numel(); ++i) {
      av += std::exp(logW[i]) * v[i];
      aa += std::exp(2 * logW[i]);
    }
    for (int64_t i = 0; i < logW.numel(); ++i)
      v[i] -= std::exp(logW[i]) * av / aa;
    return v;
  };
  auto renormalized = [&](const ref::Tensor &logW, const std::vector<double> &v,
                          double step) {
    ref::Tensor m = moved(logW, v, step);
    double before = 0.0, after = 0.0;
    for (int64_t i = 0; i < m.numel(); ++i) {
      before += std::exp(logW[i]);
      after += std::exp(m[i]);
    }
    for (int64_t i = 0; i < m.numel(); ++i)
      m[i] -= std::log(after / before);
    return m;
  };
  std::vector<double> vx = rng.uniformTensor(x.shape, -1.0, 1.0).data;
  std::vector<double> vy = rng.uniformTensor(y.shape, -1.0, 1.0).data;
  check("dx", dx, vx,
        [&](double s) { return value(moved(x, vx, s), y, logA, logB); });
  check("dy", dy, vy,
        [&](double s) { return value(x, moved(y, vy, s), logA, logB); });
  if (c.N > 1) {
    std::vector<double> va = massPreserving(logA);
    check("dlog_a (mass-preserving)", dla, va, [&](double s) {
      return value(x, y, renormalized(logA, va, s), logB);
    });
  }
  std::vector<double> vb = massPreserving(logB);
  check("dlog_b (mass-preserving)", dlb, vb, [&](double s) {
    return value(x, y, logA, renormalized(logB, vb, s));
  });
}

namespace {

class SinkhornBackward : public ::testing::TestWithParam<SinkhornCase> {};

TEST_P(SinkhornBackward, GradientsMatchTheReferenceAndFiniteDifferences) {
  sinkhornBackwardCase(GetParam(), pipelineRunner(false));
}

std::vector<SinkhornCase> cases() {
  using K = ref::Kernel;
  std::vector<SinkhornCase> all;
  for (K kind : {K::SqEuclidean, K::Gaussian, K::Laplacian}) {
    // One point; M not a multiple of the column block and ragged row tiles;
    // D past the direct distance sums.
    all.push_back({kind, 1, 5, 2, 50, 0.5});
    all.push_back({kind, 70, 130, 3, 200, 0.2});
    all.push_back({kind, 200, 100, 16, 200, 1.0});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Kernel, SinkhornBackward, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return caseName(info.param); });

// The naive pipeline (the scalar oracle: kernel_lse_point_grad as dense
// loops) gives the optimized pipeline's gradients.
TEST(SinkhornBackwardNaive, MatchesTheOptimizedPipeline) {
  using K = ref::Kernel;
  for (K kind : {K::SqEuclidean, K::Laplacian}) {
    SinkhornCase c{kind, 37, 70, 3, 30, 0.3};
    CompiledModule naive(module(c), /*naive=*/true),
        optimized(module(c), /*naive=*/false);
    ASSERT_TRUE(naive.ok() && optimized.ok()) << "compilation failed";
    ref::Rng rng(41);
    ref::Tensor x = rounded(rng.uniformTensor({c.N, c.D}, 0.0, 1.0));
    ref::Tensor y = rounded(rng.uniformTensor({c.M, c.D}, 0.0, 1.0));
    Buffer bx = bufferOf(x), by = bufferOf(y),
           bla = bufferOf(randomLogWeights(rng, c.N)),
           blb = bufferOf(randomLogWeights(rng, c.M)),
           eps{{}, {static_cast<float>(c.eps)}}, dc{{}, {0.7f}};
    std::vector<Buffer> grads[2];
    CompiledModule *modules[2] = {&naive, &optimized};
    for (int k = 0; k < 2; ++k) {
      grads[k] = {Buffer{x.shape, std::vector<float>(x.numel(), NAN)},
                  Buffer{y.shape, std::vector<float>(y.numel(), NAN)},
                  Buffer{{c.N}, std::vector<float>(c.N, NAN)},
                  Buffer{{c.M}, std::vector<float>(c.M, NAN)}};
      modules[k]->callBuffers("bwd", {&bx, &by, &bla, &blb, &eps, &dc,
                                      &grads[k][0], &grads[k][1], &grads[k][2],
                                      &grads[k][3]});
    }
    const char *names[] = {"dx", "dy", "dlog_a", "dlog_b"};
    for (int g = 0; g < 4; ++g) {
      ref::Tensor expected = ref::fromFloats(grads[0][g].shape,
                                             grads[0][g].data.data());
      expectError("sinkhorn_backward " + caseName(c) + " " + names[g] +
                      " naive against optimized",
                  ref::relativeError(grads[1][g].data.data(), expected));
    }
  }
}

// The potentials have no gradient: a nonzero cotangent of f or g stops the
// op when the code runs, with a message naming it; zeros pass.
TEST(SinkhornBackwardChecks, NonzeroPotentialCotangentIsAnError) {
  const char *source = R"(
func.func @bwd(%x: tensor<3x2xf32>, %y: tensor<4x2xf32>, %la: tensor<3xf32>,
               %lb: tensor<4xf32>, %eps: tensor<f32>, %f: tensor<3xf32>,
               %g: tensor<4xf32>, %dc: tensor<f32>, %df: tensor<3xf32>,
               %dg: tensor<4xf32>,
               %dx0: tensor<3x2xf32> {bufferization.writable = true},
               %dy0: tensor<4x2xf32> {bufferization.writable = true},
               %dla0: tensor<3xf32> {bufferization.writable = true},
               %dlb0: tensor<4xf32> {bufferization.writable = true})
    -> (tensor<3x2xf32>, tensor<4x2xf32>, tensor<3xf32>, tensor<4xf32>) {
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean)
      ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<3x2xf32>, tensor<4x2xf32>,
          tensor<3xf32>, tensor<4xf32>, tensor<f32>, tensor<3xf32>, tensor<4xf32>,
          tensor<f32>)
      df(%df : tensor<3xf32>) dg(%dg : tensor<4xf32>)
      outs(%dx0, %dy0, %dla0, %dlb0 : tensor<3x2xf32>, tensor<4x2xf32>,
           tensor<3xf32>, tensor<4xf32>)
      -> tensor<3x2xf32>, tensor<4x2xf32>, tensor<3xf32>, tensor<4xf32>
  return %r#0, %r#1, %r#2, %r#3
      : tensor<3x2xf32>, tensor<4x2xf32>, tensor<3xf32>, tensor<4xf32>
}
)";
  CompiledModule compiled(source, /*naive=*/false);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";
  Buffer x{{3, 2}, std::vector<float>(6, 0.5f)}, y{{4, 2}, std::vector<float>(8, 0.25f)},
      la{{3}, std::vector<float>(3, std::log(1.0f / 3))},
      lb{{4}, std::vector<float>(4, std::log(0.25f))}, eps{{}, {1.0f}},
      f{{3}, std::vector<float>(3, 0.0f)}, g{{4}, std::vector<float>(4, 0.0f)},
      dc{{}, {1.0f}}, df{{3}, std::vector<float>(3, 0.0f)},
      dg{{4}, std::vector<float>(4, 0.0f)}, dx{{3, 2}, std::vector<float>(6)},
      dy{{4, 2}, std::vector<float>(8)}, dla{{3}, std::vector<float>(3)},
      dlb{{4}, std::vector<float>(4)};
  auto run = [&] {
    std::vector<Descriptor<>> descriptors;
    std::vector<Buffer *> all = {&x, &y, &la, &lb, &eps, &f, &g, &dc,
                                 &df, &dg, &dx, &dy, &dla, &dlb};
    descriptors.reserve(all.size());
    std::vector<void *> args;
    for (Buffer *buffer : all) {
      descriptors.emplace_back(buffer->data.data(), buffer->shape);
      args.push_back(&descriptors.back());
    }
    return compiled.callReportingCheckFailure("bwd", args);
  };
  EXPECT_EQ(run(), "");
  df.data[1] = 0.5f;
  std::string failure = run();
  std::printf("%s\n", failure.c_str());
  EXPECT_NE(failure.find("'df' holds a nonzero value"), std::string::npos)
      << failure;
  df.data[1] = 0.0f;
  dg.data[3] = NAN;
  failure = run();
  EXPECT_NE(failure.find("'dg' holds a nonzero value"), std::string::npos)
      << failure;
}

} // namespace
