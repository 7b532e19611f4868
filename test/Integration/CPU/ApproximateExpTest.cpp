//===- ApproximateExpTest.cpp - the pipeline's exps against libm ----------===//
//
// The CPU pipeline's two exps (mixer-approximate-math): the one for values
// it knows to be <= 0 (exp(min(x, 0)), the form of the lowerings'
// expOfNonPositive) and the one for any x. Each is compiled through the CPU
// pipeline as an element-wise linalg.generic, so that it runs vectorized,
// on a sweep of [-104, 0] (and [-88, 88] for the general exp) with the
// special values appended (up to overflow and +inf), and compared with
// std::exp in double. Each case prints its largest relative error over the
// results that are normal floats; a result below that must be 0 or
// subnormal.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace mixer::test;

namespace {

constexpr int64_t kSweep = 1 << 16;
const float kInf = std::numeric_limits<float>::infinity();
// Above 88.38 the general exp's n stops at 127 and its polynomial takes
// r beyond ln(2) / 2; from 88.72 on exp overflows.
const float kSpecial[] = {0.0f,   -0.0f,  -1e-30f, -87.3f,        -87.8f,
                          -88.0f, -1e30f, -kInf,   std::nanf(""), 88.5f,
                          88.7f,  88.75f, 89.0f,   1e30f,         kInf};
constexpr int64_t kSpecials = sizeof(kSpecial) / sizeof(kSpecial[0]);
constexpr int64_t kCount = kSweep + kSpecials;

/// func @f(x, y): y = exp(min(x, 0)) when `nonPositive`, else exp(x).
std::string expModule(bool nonPositive) {
  std::string type = tensorType({kCount});
  std::string body = nonPositive ? "    %z = arith.constant 0.0 : f32\n"
                                   "    %m = arith.minimumf %a, %z : f32\n"
                                   "    %v = math.exp %m : f32\n"
                                 : "    %v = math.exp %a : f32\n";
  return "func.func @f(%x: " + type + ", %y: " + type +
         " {bufferization.writable = true}) -> " + type +
         " {\n"
         "  %e = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, "
         "affine_map<(i) -> (i)>], iterator_types = [\"parallel\"]} ins(%x : " +
         type + ") outs(%y : " + type + ") {\n  ^bb0(%a: f32, %b: f32):\n" +
         body + "    linalg.yield %v : f32\n  } -> " + type +
         "\n  return %e : " + type + "\n}\n";
}

struct Range {
  float lo, hi;
};

void checkExp(bool nonPositive, Range sweep, double tolerance) {
  CompiledModule compiled(expModule(nonPositive), /*naive=*/false);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";
  Buffer x{{kCount}, std::vector<float>(kCount)};
  Buffer y{{kCount}, std::vector<float>(kCount, 0.0f)};
  for (int64_t i = 0; i < kSweep; ++i)
    x.data[i] = sweep.lo + (sweep.hi - sweep.lo) * float(i) / float(kSweep - 1);
  for (int64_t i = 0; i < kSpecials; ++i)
    x.data[kSweep + i] = kSpecial[i];
  compiled.callBuffers("f", {&x, &y});

  double worst = 0;
  for (int64_t i = 0; i < kCount; ++i) {
    // arith.minimumf keeps a NaN, where std::fmin would drop it.
    float in = x.data[i];
    if (nonPositive && !std::isnan(in))
      in = std::fmin(in, 0.0f);
    float out = y.data[i];
    if (std::isnan(in)) {
      EXPECT_TRUE(std::isnan(out)) << "exp(NaN) = " << out;
      continue;
    }
    double want = std::exp(double(in));
    if (want < FLT_MIN) {
      EXPECT_TRUE(out >= 0.0f && out < FLT_MIN)
          << "exp(" << in << ") = " << out << ", want " << want;
      continue;
    }
    if (want > FLT_MAX) {
      EXPECT_EQ(out, kInf) << "exp(" << in << ")";
      continue;
    }
    double error = std::fabs(double(out) - want) / want;
    EXPECT_LE(error, tolerance)
        << "exp(" << in << ") = " << out << ", want " << want;
    worst = std::max(worst, error);
  }
  // exp(0) is exactly 1: the maximum's term of every log-sum-exp.
  EXPECT_EQ(y.data[kSweep], 1.0f);
  EXPECT_EQ(y.data[kSweep + 7], 0.0f) << "exp(-inf)";
  std::printf("%s on [%g, %g]: relative error %.3g\n",
              nonPositive ? "exp(min(x, 0))" : "exp(x)", double(sweep.lo),
              double(sweep.hi), worst);
}

// About 2 ulp (2^-23 is 1.2e-7): the polynomial and the range reduction
// of Cephes' expf, which both forms share.
constexpr double kTolerance = 2.5e-7;

TEST(ApproximateExp, NonPositiveMatchesLibm) {
  checkExp(/*nonPositive=*/true, {-104.0f, 0.0f}, kTolerance);
}

TEST(ApproximateExp, GeneralMatchesLibm) {
  checkExp(/*nonPositive=*/false, {-88.0f, 88.0f}, kTolerance);
}

} // namespace
