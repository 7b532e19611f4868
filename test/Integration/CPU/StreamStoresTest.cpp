//===- StreamStoresTest.cpp - outputs written with non-temporal stores ----===//
//
// Outputs larger than any core's L2 (4 MiB) that the function only writes
// take non-temporal stores where a row starts a cache line
// (mixer-stream-stores) and ordinary ones elsewhere. Each case runs the same
// compiled function into an output on a 64-byte boundary (the streamed
// branch) and into one a float past it (the cached branch), compares both
// with the fp64 reference and checks that they are bit-equal: only the
// stores differ. The output starts as NaNs, so an element left unwritten
// shows.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

/// `count` floats at a 64-byte boundary plus `shift` floats, NaN-filled.
class OutputBuffer {
public:
  OutputBuffer(int64_t count, int64_t shift)
      : storage(count + shift + 16, std::nanf("")) {
    auto address = reinterpret_cast<std::uintptr_t>(storage.data());
    std::uintptr_t aligned = (address + 63) / 64 * 64;
    begin = reinterpret_cast<float *>(aligned) + shift;
  }
  float *data() { return begin; }

private:
  std::vector<float> storage;
  float *begin;
};

const char *placement(int64_t shift) {
  return shift == 0 ? "on a line" : "off a line";
}

TEST(StreamStores, LinearAttentionOutputOnAndOffLines) {
  const int64_t B = 1, L = 2048, H = 8, D = 64;
  std::string qkv = tensorType({B, L, H, D}), ld = tensorType({B, L, H}),
              st = tensorType({B, H, D, D});
  std::string module =
      "func.func @la(%q: " + qkv + ", %k: " + qkv + ", %v: " + qkv +
      ", %ld: " + ld + ", %o0: " + qkv +
      " {bufferization.writable = true}, %s0: " + st +
      " {bufferization.writable = true}) -> (" + qkv + ", " + st +
      ") {\n  %o, %s = mixer.linear_attention chunk_size(64) scale(0.125) "
      "ins(%q, %k, %v : " +
      qkv + ", " + qkv + ", " + qkv + ") log_decay(%ld : " + ld +
      ") outs(%o0, %s0 : " + qkv + ", " + st + ") -> " + qkv + ", " + st +
      "\n  return %o, %s : " + qkv + ", " + st + "\n}\n";
  CompiledModule compiled(module, /*naive=*/false);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(2024);
  ref::Tensor q = rng.uniformTensor({B, L, H, D}, -1.0, 1.0);
  ref::Tensor k = rng.uniformTensor({B, L, H, D}, -1.0, 1.0);
  ref::Tensor v = rng.uniformTensor({B, L, H, D}, -1.0, 1.0);
  ref::Tensor g = rng.uniformTensor({B, L, H}, -0.5, 0.0);
  std::vector<float> qf = ref::toFloats(q), kf = ref::toFloats(k),
                     vf = ref::toFloats(v), gf = ref::toFloats(g);
  ref::ScanResult want =
      ref::linearAttention(q, k, v, &g, /*init=*/nullptr, /*window=*/0, 0.125);

  std::vector<std::vector<float>> outs;
  for (int64_t shift : {0, 1}) {
    OutputBuffer o(B * L * H * D, shift);
    std::vector<float> state(B * H * D * D);
    std::vector<std::pair<float *, std::vector<int64_t>>> args = {
        {qf.data(), {B, L, H, D}}, {kf.data(), {B, L, H, D}},
        {vf.data(), {B, L, H, D}}, {gf.data(), {B, L, H}},
        {o.data(), {B, L, H, D}},  {state.data(), {B, H, D, D}}};
    compiled.call("la", std::move(args));
    double err = ref::relativeError(o.data(), want.out);
    double stateErr = ref::relativeError(state.data(), want.finalState);
    std::printf("linear_attention L=%lld, o %s: relative error o %.3g, final "
                "state %.3g\n",
                static_cast<long long>(L), placement(shift), err, stateErr);
    EXPECT_LE(err, 1e-4);
    EXPECT_LE(stateErr, 1e-4);
    outs.emplace_back(o.data(), o.data() + B * L * H * D);
  }
  EXPECT_EQ(std::memcmp(outs[0].data(), outs[1].data(),
                        outs[0].size() * sizeof(float)),
            0)
      << "the streamed and the cached stores wrote different outputs";
}

TEST(StreamStores, GroupedMatmulOutputOnAndOffLines) {
  // Uneven groups summing to less than T: the rows past the sum are
  // written zeros.
  const int64_t T = 4096, K = 128, N = 256, E = 8;
  const std::vector<int64_t> sizes = {900, 17, 0, 1200, 333, 64, 1, 1000};
  std::string lhs = tensorType({T, K}), rhs = tensorType({E, K, N}),
              gs = tensorType({E}, "i64"), out = tensorType({T, N});
  std::string module =
      "func.func @gm(%lhs: " + lhs + ", %rhs: " + rhs + ", %gs: " + gs +
      ", %o: " + out + " {bufferization.writable = true}) -> " + out +
      " {\n  %r = mixer.grouped_matmul ins(%lhs, %rhs, %gs : " + lhs + ", " +
      rhs + ", " + gs + ") outs(%o : " + out + ") -> " + out +
      "\n  return %r : " + out + "\n}\n";
  CompiledModule compiled(module, /*naive=*/false);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(77);
  ref::Tensor a = rng.uniformTensor({T, K}, -1.0, 1.0);
  ref::Tensor w = rng.uniformTensor({E, K, N}, -1.0, 1.0);
  std::vector<float> af = ref::toFloats(a), wf = ref::toFloats(w);
  std::vector<int64_t> sizesArg = sizes;
  ref::Tensor want = ref::groupedMatmul(a, w, sizes);

  std::vector<std::vector<float>> outs;
  for (int64_t shift : {0, 1}) {
    OutputBuffer o(T * N, shift);
    Descriptor<float> dl(af.data(), {T, K}), dr(wf.data(), {E, K, N}),
        dout(o.data(), {T, N});
    Descriptor<int64_t> ds(sizesArg.data(), {E});
    compiled.call("gm", {&dl, &dr, &ds, &dout});
    double err = ref::relativeError(o.data(), want);
    std::printf("grouped_matmul T=%lld N=%lld, output %s: relative error "
                "%.3g\n",
                static_cast<long long>(T), static_cast<long long>(N),
                placement(shift), err);
    EXPECT_LE(err, 1e-5);
    outs.emplace_back(o.data(), o.data() + T * N);
  }
  EXPECT_EQ(std::memcmp(outs[0].data(), outs[1].data(),
                        outs[0].size() * sizeof(float)),
            0)
      << "the streamed and the cached stores wrote different outputs";
}

} // namespace
