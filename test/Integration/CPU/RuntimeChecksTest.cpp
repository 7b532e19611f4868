//===- RuntimeChecksTest.cpp - compiled code rejects bad arguments --------===//
//
// Each case calls compiled code with arguments that break an op's contract
// in a way only visible at run time (dynamic sizes that disagree, indices
// out of range, eps <= 0, positive log-decays) and expects the message of
// the failed check and no write to the outputs. The short operands sit
// right before a page that traps on access, so an op that ran anyway and
// read or wrote past them would crash the test.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <limits>

using namespace mixer::test;

namespace {

/// `count` elements ending right before a page that traps on any access.
template <typename T> class Guarded {
public:
  Guarded(const std::vector<int64_t> &shape, T fill) : shape(shape) {
    int64_t count = 1;
    for (int64_t size : shape)
      count *= size;
    size_t page = sysconf(_SC_PAGESIZE), bytes = count * sizeof(T);
    size_t dataPages = (bytes + page - 1) / page;
    mappedBytes = (dataPages + 1) * page;
    base =
        static_cast<char *>(mmap(nullptr, mappedBytes, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    EXPECT_NE(base, MAP_FAILED);
    EXPECT_EQ(mprotect(base + dataPages * page, page, PROT_NONE), 0);
    data = reinterpret_cast<T *>(base + dataPages * page - bytes);
    std::fill(data, data + count, fill);
    descriptor = std::make_unique<Descriptor<T>>(data, shape);
  }
  ~Guarded() { munmap(base, mappedBytes); }

  void *arg() { return descriptor.get(); }
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    return n;
  }
  /// Whether every element still holds `value`.
  bool allEqual(T value) const {
    return std::all_of(data, data + numElements(),
                       [&](T x) { return x == value; });
  }

  std::vector<int64_t> shape;
  T *data = nullptr;

private:
  char *base = nullptr;
  size_t mappedBytes = 0;
  std::unique_ptr<Descriptor<T>> descriptor;
};

constexpr float kSentinel = 12345.0f;

/// Compiles `source` (optimized and naive, or as `naiveModes` says) and
/// returns the check failure of calling `name` with `args` in each.
std::vector<std::string>
failuresOf(const std::string &source, llvm::StringRef name,
           std::vector<void *> args,
           std::vector<bool> naiveModes = {false, true}) {
  std::vector<std::string> failures;
  for (bool naive : naiveModes) {
    CompiledModule compiled(source, naive);
    EXPECT_TRUE(compiled.ok()) << "compilation failed:\n" << source;
    if (!compiled.ok())
      return failures;
    failures.push_back(compiled.callReportingCheckFailure(name, args));
    std::printf("%s%s: %s\n", name.str().c_str(), naive ? " (naive)" : "",
                failures.back().empty() ? "no check failed"
                                        : failures.back().c_str());
  }
  return failures;
}

void expectAllEqual(const std::vector<std::string> &failures,
                    const std::string &expected) {
  ASSERT_FALSE(failures.empty());
  for (const std::string &failure : failures)
    EXPECT_EQ(failure, expected);
}

//===----------------------------------------------------------------------===//
// Sizes that must agree
//===----------------------------------------------------------------------===//

const char *kSsdDynamicLength = R"(
func.func @ssd(%x: tensor<1x?x2x4xf32>, %la: tensor<1x?x2xf32>,
               %b: tensor<1x?x1x8xf32>, %c: tensor<1x?x1x8xf32>,
               %y0: tensor<1x?x2x4xf32> {bufferization.writable = true},
               %s0: tensor<1x2x4x8xf32> {bufferization.writable = true})
    -> (tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(16)
      ins(%x, %la, %b, %c : tensor<1x?x2x4xf32>, tensor<1x?x2xf32>, tensor<1x?x1x8xf32>, tensor<1x?x1x8xf32>)
      outs(%y0, %s0 : tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>
}
)";

// log_a of L = 50 with x of L = 100: the op would read past log_a.
TEST(RuntimeChecks, SsdLengthsDisagree) {
  Guarded<float> x({1, 100, 2, 4}, 0.5f), logA({1, 50, 2}, -0.1f),
      b({1, 100, 1, 8}, 0.25f), c({1, 100, 1, 8}, 0.25f),
      y({1, 100, 2, 4}, kSentinel), state({1, 2, 4, 8}, kSentinel);
  expectAllEqual(
      failuresOf(kSsdDynamicLength, "ssd",
                 {x.arg(), logA.arg(), b.arg(), c.arg(), y.arg(), state.arg()}),
      "mixer.ssd: 'log_a' dim 1 (L) is 50, but 'x' dim 1 (L) is 100");
  EXPECT_TRUE(y.allEqual(kSentinel) && state.allEqual(kSentinel))
      << "the op ran although a check failed";
}

// y of L = 100 with inputs of L = 120: the op would write past y.
TEST(RuntimeChecks, SsdOutputTooShort) {
  Guarded<float> x({1, 120, 2, 4}, 0.5f), logA({1, 120, 2}, -0.1f),
      b({1, 120, 1, 8}, 0.25f), c({1, 120, 1, 8}, 0.25f),
      y({1, 100, 2, 4}, kSentinel), state({1, 2, 4, 8}, kSentinel);
  expectAllEqual(
      failuresOf(kSsdDynamicLength, "ssd",
                 {x.arg(), logA.arg(), b.arg(), c.arg(), y.arg(), state.arg()}),
      "mixer.ssd: 'y' dim 1 (L) is 100, but 'x' dim 1 (L) is 120");
  EXPECT_TRUE(y.allEqual(kSentinel));
}

const char *kSsdDynamicGroups = R"(
func.func @ssd(%x: tensor<1x4x6x4xf32>, %la: tensor<1x4x6xf32>,
               %b: tensor<1x4x?x8xf32>, %c: tensor<1x4x?x8xf32>,
               %y0: tensor<1x4x6x4xf32> {bufferization.writable = true},
               %s0: tensor<1x6x4x8xf32> {bufferization.writable = true})
    -> (tensor<1x4x6x4xf32>, tensor<1x6x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(16)
      ins(%x, %la, %b, %c : tensor<1x4x6x4xf32>, tensor<1x4x6xf32>, tensor<1x4x?x8xf32>, tensor<1x4x?x8xf32>)
      outs(%y0, %s0 : tensor<1x4x6x4xf32>, tensor<1x6x4x8xf32>) -> tensor<1x4x6x4xf32>, tensor<1x6x4x8xf32>
  return %y, %s : tensor<1x4x6x4xf32>, tensor<1x6x4x8xf32>
}
)";

// 6 heads in 4 groups: head h would read group h / (H / G) = h, past b for
// h >= 4. (Only the naive lowering takes a dynamic group count; the tiled
// one needs static heads and groups.)
TEST(RuntimeChecks, SsdHeadsNotAMultipleOfGroups) {
  Guarded<float> x({1, 4, 6, 4}, 0.5f), logA({1, 4, 6}, -0.1f),
      b({1, 4, 4, 8}, 0.25f), c({1, 4, 4, 8}, 0.25f),
      y({1, 4, 6, 4}, kSentinel), state({1, 6, 4, 8}, kSentinel);
  expectAllEqual(
      failuresOf(kSsdDynamicGroups, "ssd",
                 {x.arg(), logA.arg(), b.arg(), c.arg(), y.arg(), state.arg()},
                 /*naiveModes=*/{true}),
      "mixer.ssd: heads 'x' dim 2 (H) = 6 must be a multiple of a positive "
      "number of groups 'b' dim 2 (G) = 4");
  EXPECT_TRUE(y.allEqual(kSentinel));
}

const char *kGroupedMatmulDynamicRows = R"(
func.func @gm(%lhs: tensor<?x16xf32>, %rhs: tensor<2x16x32xf32>, %gs: tensor<2xi64>,
              %out: tensor<?x32xf32> {bufferization.writable = true}) -> tensor<?x32xf32> {
  %r = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x16xf32>, tensor<2x16x32xf32>, tensor<2xi64>)
      outs(%out : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}
)";

// lhs of 64 rows, out of 2: the op would zero rows past out.
TEST(RuntimeChecks, GroupedMatmulOutputRowsDisagree) {
  Guarded<float> lhs({64, 16}, 0.5f), rhs({2, 16, 32}, 0.25f),
      out({2, 32}, kSentinel);
  Guarded<int64_t> sizes({2}, 1);
  expectAllEqual(
      failuresOf(kGroupedMatmulDynamicRows, "gm",
                 {lhs.arg(), rhs.arg(), sizes.arg(), out.arg()}),
      "mixer.grouped_matmul: 'out' dim 0 (T) is 2, but 'lhs' dim 0 (T) is 64");
  EXPECT_TRUE(out.allEqual(kSentinel));
}

const char *kTopkDynamicExperts = R"(
func.func @route(%logits: tensor<8x?xf32>,
                 %w0: tensor<8x3xf32> {bufferization.writable = true},
                 %i0: tensor<8x3xi32> {bufferization.writable = true})
    -> (tensor<8x3xf32>, tensor<8x3xi32>) {
  %w, %ids = mixer.topk_router k(3) ins(%logits : tensor<8x?xf32>)
      outs(%w0, %i0 : tensor<8x3xf32>, tensor<8x3xi32>) -> tensor<8x3xf32>, tensor<8x3xi32>
  return %w, %ids : tensor<8x3xf32>, tensor<8x3xi32>
}
)";

TEST(RuntimeChecks, TopkMoreThanExperts) {
  Guarded<float> logits({8, 2}, 0.5f), weights({8, 3}, kSentinel);
  Guarded<int32_t> ids({8, 3}, -7);
  expectAllEqual(failuresOf(kTopkDynamicExperts, "route",
                            {logits.arg(), weights.arg(), ids.arg()}),
                 "mixer.topk_router: attribute 'k' = 3 must not exceed "
                 "'logits' dim 1 (E) = 2");
  EXPECT_TRUE(weights.allEqual(kSentinel) && ids.allEqual(-7));
}

const char *kCombineDynamic = R"(
func.func @combine(%eo: tensor<?x8xf32>, %perm: tensor<?xi32>, %w: tensor<?x2xf32>,
                   %out: tensor<?x8xf32> {bufferization.writable = true}) -> tensor<?x8xf32> {
  %r = mixer.moe_combine ins(%eo, %perm, %w : tensor<?x8xf32>, tensor<?xi32>, tensor<?x2xf32>)
      outs(%out : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
)";

// 10 tokens with k = 2 need 20 slots; 12 are given.
TEST(RuntimeChecks, CombineSlotsAreNotTokensTimesK) {
  Guarded<float> expertOut({12, 8}, 0.5f), weights({10, 2}, 0.5f),
      out({10, 8}, kSentinel);
  Guarded<int32_t> perm({12}, 0);
  expectAllEqual(
      failuresOf(kCombineDynamic, "combine",
                 {expertOut.arg(), perm.arg(), weights.arg(), out.arg()}),
      "mixer.moe_combine: 'expert_out' dim 0 (T*k) is 12, but T*k ('weights' "
      "dim 0 (T) times 'weights' dim 1 (k)) is 20");
  EXPECT_TRUE(out.allEqual(kSentinel));
}

//===----------------------------------------------------------------------===//
// Index operands
//===----------------------------------------------------------------------===//

const char *kGroupedMatmulStatic = R"(
func.func @gm(%lhs: tensor<40x16xf32>, %rhs: tensor<3x16x32xf32>, %gs: tensor<3xi32>,
              %out: tensor<40x32xf32> {bufferization.writable = true}) -> tensor<40x32xf32> {
  %r = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<40x16xf32>, tensor<3x16x32xf32>, tensor<3xi32>)
      outs(%out : tensor<40x32xf32>) -> tensor<40x32xf32>
  return %r : tensor<40x32xf32>
}
)";

TEST(RuntimeChecks, GroupSizes) {
  struct Case {
    std::vector<int32_t> sizes;
    const char *message;
  } cases[] = {
      {{-5, 30, 15},
       "mixer.grouped_matmul: 'group_sizes' holds a negative count -5"},
      {{10, 41, 0},
       "mixer.grouped_matmul: 'group_sizes' holds a count 41 above T = 40 "
       "('lhs' dim 0 (T))"},
      {{20, 15, 6},
       "mixer.grouped_matmul: 'group_sizes' sums to 41, more than T = 40 "
       "('lhs' dim 0 (T))"},
      // Valid: rows past the last group are zero.
      {{20, 0, 15}, ""},
  };
  for (const Case &c : cases) {
    Guarded<float> lhs({40, 16}, 0.5f), rhs({3, 16, 32}, 0.25f),
        out({40, 32}, kSentinel);
    Guarded<int32_t> sizes({3}, 0);
    std::copy(c.sizes.begin(), c.sizes.end(), sizes.data);
    expectAllEqual(failuresOf(kGroupedMatmulStatic, "gm",
                              {lhs.arg(), rhs.arg(), sizes.arg(), out.arg()}),
                   c.message);
    EXPECT_EQ(out.allEqual(kSentinel), *c.message != '\0');
  }
}

const char *kDispatch = R"(
func.func @dispatch(%x: tensor<6x8xf32>, %ids: tensor<6x2xi32>,
                    %s0: tensor<12x8xf32> {bufferization.writable = true},
                    %g0: tensor<4xi64> {bufferization.writable = true},
                    %p0: tensor<12xi32> {bufferization.writable = true})
    -> (tensor<12x8xf32>, tensor<4xi64>, tensor<12xi32>) {
  %sorted, %sizes, %perm = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<6x8xf32>, tensor<6x2xi32>)
      outs(%s0, %g0, %p0 : tensor<12x8xf32>, tensor<4xi64>, tensor<12xi32>) -> tensor<12x8xf32>, tensor<4xi64>, tensor<12xi32>
  return %sorted, %sizes, %perm : tensor<12x8xf32>, tensor<4xi64>, tensor<12xi32>
}
)";

TEST(RuntimeChecks, ExpertIds) {
  struct Case {
    int32_t badId;
    const char *message;
  } cases[] = {
      {4, "mixer.moe_dispatch: 'expert_ids' holds index 4, not below E = 4 "
          "(attribute 'num_experts')"},
      {-1, "mixer.moe_dispatch: 'expert_ids' holds a negative index -1"},
      {1 << 30, "mixer.moe_dispatch: 'expert_ids' holds index 1073741824, not "
                "below E = 4 (attribute 'num_experts')"},
  };
  for (const Case &c : cases) {
    Guarded<float> x({6, 8}, 0.5f), sorted({12, 8}, kSentinel);
    Guarded<int32_t> ids({6, 2}, 1), perm({12}, -7);
    Guarded<int64_t> sizes({4}, -7);
    ids.data[7] = c.badId;
    expectAllEqual(
        failuresOf(kDispatch, "dispatch",
                   {x.arg(), ids.arg(), sorted.arg(), sizes.arg(), perm.arg()}),
        c.message);
    EXPECT_TRUE(sorted.allEqual(kSentinel) && sizes.allEqual(-7) &&
                perm.allEqual(-7));
  }
}

const char *kCombineStatic = R"(
func.func @combine(%eo: tensor<12x8xf32>, %perm: tensor<12xi32>, %w: tensor<6x2xf32>,
                   %out: tensor<6x8xf32> {bufferization.writable = true}) -> tensor<6x8xf32> {
  %r = mixer.moe_combine ins(%eo, %perm, %w : tensor<12x8xf32>, tensor<12xi32>, tensor<6x2xf32>)
      outs(%out : tensor<6x8xf32>) -> tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
)";

TEST(RuntimeChecks, PermutationEntries) {
  Guarded<float> expertOut({12, 8}, 0.5f), weights({6, 2}, 0.5f),
      out({6, 8}, kSentinel);
  Guarded<int32_t> perm({12}, 0);
  for (int i = 0; i < 12; ++i)
    perm.data[i] = i;
  perm.data[3] = 12;
  expectAllEqual(
      failuresOf(kCombineStatic, "combine",
                 {expertOut.arg(), perm.arg(), weights.arg(), out.arg()}),
      "mixer.moe_combine: 'permutation' holds index 12, not below T*k = 12 "
      "('expert_out' dim 0 (T*k))");
  EXPECT_TRUE(out.allEqual(kSentinel));
}

//===----------------------------------------------------------------------===//
// Scalars and decays
//===----------------------------------------------------------------------===//

const char *kKernelLse = R"(
func.func @lse(%x: tensor<5x3xf32>, %y: tensor<7x3xf32>, %eps: tensor<f32>,
               %o: tensor<5xf32> {bufferization.writable = true}) -> tensor<5xf32> {
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<5x3xf32>, tensor<7x3xf32>, tensor<f32>)
      outs(%o : tensor<5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}
)";

TEST(RuntimeChecks, EpsMustBePositive) {
  for (float eps : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN()}) {
    Guarded<float> x({5, 3}, 0.5f), y({7, 3}, 0.25f), e({}, eps),
        out({5}, kSentinel);
    expectAllEqual(
        failuresOf(kKernelLse, "lse", {x.arg(), y.arg(), e.arg(), out.arg()}),
        "mixer.kernel_lse: 'eps' must be positive (it is zero, negative or "
        "NaN)");
    EXPECT_TRUE(out.allEqual(kSentinel));
  }
}

const char *kKernelMv = R"(
func.func @mv(%x: tensor<5x3xf32>, %y: tensor<7x3xf32>, %v: tensor<7x2xf32>, %h: tensor<f32>,
              %o1: tensor<5x2xf32> {bufferization.writable = true},
              %o2: tensor<5x2xf32> {bufferization.writable = true})
    -> (tensor<5x2xf32>, tensor<5x2xf32>) {
  %a = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<5x3xf32>, tensor<7x3xf32>, tensor<7x2xf32>, tensor<f32>)
      outs(%o1 : tensor<5x2xf32>) -> tensor<5x2xf32>
  %b = mixer.kernel_mv kernel(linear) ins(%x, %y, %v, %h : tensor<5x3xf32>, tensor<7x3xf32>, tensor<7x2xf32>, tensor<f32>)
      outs(%o2 : tensor<5x2xf32>) -> tensor<5x2xf32>
  return %a, %b : tensor<5x2xf32>, tensor<5x2xf32>
}
)";

// A zero bandwidth stops the gaussian kernel; the linear one ignores it.
TEST(RuntimeChecks, BandwidthMustBePositive) {
  Guarded<float> x({5, 3}, 0.5f), y({7, 3}, 0.25f), v({7, 2}, 1.0f),
      h({}, 0.0f), gaussian({5, 2}, kSentinel), linear({5, 2}, kSentinel);
  expectAllEqual(failuresOf(kKernelMv, "mv",
                            {x.arg(), y.arg(), v.arg(), h.arg(), gaussian.arg(),
                             linear.arg()}),
                 "mixer.kernel_mv: 'bandwidth' must be positive (it is zero, "
                 "negative or NaN)");
  EXPECT_TRUE(gaussian.allEqual(kSentinel));
  // <x, y> summed over 7 rows of v = 1: 7 * 3 * 0.5 * 0.25.
  EXPECT_FLOAT_EQ(linear.data[0], 7 * 3 * 0.5f * 0.25f);
}

// A positive log_a (A = exp(A_log) instead of -exp(A_log)), a NaN and -inf
// are rejected, on the chunked path (L = 100) and the recurrent one (L = 4).
TEST(RuntimeChecks, SsdDecayMustBeNonPositive) {
  for (int64_t length : {100, 4})
    for (float bad : {0.5f, std::numeric_limits<float>::quiet_NaN(),
                      -std::numeric_limits<float>::infinity()}) {
      Guarded<float> x({1, length, 2, 4}, 0.5f), logA({1, length, 2}, -0.1f),
          b({1, length, 1, 8}, 0.25f), c({1, length, 1, 8}, 0.25f),
          y({1, length, 2, 4}, kSentinel), state({1, 2, 4, 8}, kSentinel);
      logA.data[length / 2] = bad;
      expectAllEqual(failuresOf(kSsdDynamicLength, "ssd",
                                {x.arg(), logA.arg(), b.arg(), c.arg(), y.arg(),
                                 state.arg()}),
                     "mixer.ssd: 'log_a' holds a positive, infinite or NaN "
                     "value; it must be finite and <= 0 (a log-decay or "
                     "log-gate)");
      EXPECT_TRUE(y.allEqual(kSentinel));
    }
}

TEST(RuntimeChecks, LinearAttentionAndDeltaRuleDecays) {
  const char *source = R"(
func.func @la(%q: tensor<1x20x2x4xf32>, %k: tensor<1x20x2x4xf32>, %v: tensor<1x20x2x4xf32>,
              %ld: tensor<1x20x2xf32>,
              %o0: tensor<1x20x2x4xf32> {bufferization.writable = true},
              %s0: tensor<1x2x4x4xf32> {bufferization.writable = true})
    -> (tensor<1x20x2x4xf32>, tensor<1x2x4x4xf32>) {
  %o, %s = mixer.linear_attention chunk_size(8)
      ins(%q, %k, %v : tensor<1x20x2x4xf32>, tensor<1x20x2x4xf32>, tensor<1x20x2x4xf32>)
      log_decay(%ld : tensor<1x20x2xf32>)
      outs(%o0, %s0 : tensor<1x20x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x20x2x4xf32>, tensor<1x2x4x4xf32>
  return %o, %s : tensor<1x20x2x4xf32>, tensor<1x2x4x4xf32>
}
func.func @gdr(%q: tensor<1x20x2x4xf32>, %k: tensor<1x20x2x4xf32>, %v: tensor<1x20x2x4xf32>,
               %g: tensor<1x20x2xf32>, %beta: tensor<1x20x2xf32>,
               %o0: tensor<1x20x2x4xf32> {bufferization.writable = true},
               %s0: tensor<1x2x4x4xf32> {bufferization.writable = true})
    -> (tensor<1x20x2x4xf32>, tensor<1x2x4x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(8)
      ins(%q, %k, %v, %g, %beta : tensor<1x20x2x4xf32>, tensor<1x20x2x4xf32>, tensor<1x20x2x4xf32>, tensor<1x20x2xf32>, tensor<1x20x2xf32>)
      outs(%o0, %s0 : tensor<1x20x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x20x2x4xf32>, tensor<1x2x4x4xf32>
  return %o, %s : tensor<1x20x2x4xf32>, tensor<1x2x4x4xf32>
}
)";
  Guarded<float> q({1, 20, 2, 4}, 0.1f), k({1, 20, 2, 4}, 0.1f),
      v({1, 20, 2, 4}, 0.1f), decay({1, 20, 2}, -0.1f), beta({1, 20, 2}, 0.5f),
      o({1, 20, 2, 4}, kSentinel), s({1, 2, 4, 4}, kSentinel);
  decay.data[17] = 1e-3f;
  expectAllEqual(
      failuresOf(source, "la",
                 {q.arg(), k.arg(), v.arg(), decay.arg(), o.arg(), s.arg()}),
      "mixer.linear_attention: 'log_decay' holds a positive, "
      "infinite or NaN value; it must be finite and <= 0 (a "
      "log-decay or log-gate)");
  expectAllEqual(failuresOf(source, "gdr",
                            {q.arg(), k.arg(), v.arg(), decay.arg(), beta.arg(),
                             o.arg(), s.arg()}),
                 "mixer.gated_delta_rule: 'g' holds a positive, infinite or "
                 "NaN value; it must be finite and <= 0 (a log-decay or "
                 "log-gate)");
  EXPECT_TRUE(o.allEqual(kSentinel) && s.allEqual(kSentinel));
}

} // namespace
