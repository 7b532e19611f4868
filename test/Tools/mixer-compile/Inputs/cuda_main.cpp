// Calls the host-array entry points of Inputs/cuda-ops.mlir compiled with
// mixer-compile --target=cuda, on random inputs, and compares them with the
// fp64 reference; where no GPU can run them, prints the CUDA failure.
#include "ops.h"

#include "mixer/Reference/Reference.h"
#include "mixer/Runtime/CudaRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ref = mixer::ref;

static std::vector<float> uniform(ref::Rng &rng, size_t n, double lo,
                                  double hi) {
  std::vector<float> v(n);
  for (float &x : v)
    x = static_cast<float>(rng.uniform(lo, hi));
  return v;
}

/// Prints "NAME: relative error E ok|too large", or the CUDA failure.
static void report(const char *name, const std::vector<float> &out,
                   const ref::Tensor &expected) {
  if (const char *failure = mixerCudaGetFailure()) {
    std::printf("%s: CUDA failure: %s\n", name, failure);
    mixerCudaClearFailure();
    return;
  }
  double maxDiff = 0, maxRef = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    maxDiff = std::max(maxDiff, std::fabs(out[i] - expected[i]));
    maxRef = std::max(maxRef, std::fabs(expected[i]));
  }
  double error = maxDiff / maxRef;
  std::printf("%s: relative error %.2e %s\n", name, error,
              error < 1e-5 ? "ok" : "too large");
}

int main() {
  ref::Rng rng(11);
  {
    std::vector<float> lhs = uniform(rng, 64 * 32, -1, 1);
    std::vector<float> rhs = uniform(rng, 4 * 32 * 16, -0.2, 0.2);
    std::vector<int64_t> sizes = {5, 27, 0, 32};
    std::vector<float> out(64 * 16);
    mixer_memref_f32_2d l = mixer_memref_f32_2d_make(lhs.data(), 64, 32);
    mixer_memref_f32_3d r = mixer_memref_f32_3d_make(rhs.data(), 4, 32, 16);
    mixer_memref_i64_1d s = mixer_memref_i64_1d_make(sizes.data(), 4);
    mixer_memref_f32_2d o = mixer_memref_f32_2d_make(out.data(), 64, 16);
    _mlir_ciface_gmm(&l, &r, &s, &o);
    report("gmm", out,
           ref::groupedMatmul(ref::fromFloats({64, 32}, lhs.data()),
                              ref::fromFloats({4, 32, 16}, rhs.data()), sizes));
  }
  {
    std::vector<float> x = uniform(rng, 100 * 8, -1, 1);
    std::vector<float> y = uniform(rng, 77 * 8, -1, 1);
    std::vector<float> g = uniform(rng, 77, -1, 1);
    float eps = 0.5f;
    std::vector<float> out(100);
    mixer_memref_f32_2d xm = mixer_memref_f32_2d_make(x.data(), 100, 8);
    mixer_memref_f32_2d ym = mixer_memref_f32_2d_make(y.data(), 77, 8);
    mixer_memref_f32_0d em = mixer_memref_f32_0d_make(&eps);
    mixer_memref_f32_1d gm = mixer_memref_f32_1d_make(g.data(), 77);
    mixer_memref_f32_1d om = mixer_memref_f32_1d_make(out.data(), 100);
    _mlir_ciface_lse(&xm, &ym, &em, &gm, &om);
    ref::Tensor gt = ref::fromFloats({77}, g.data());
    report("lse", out,
           ref::kernelLse(ref::Kernel::SqEuclidean,
                          ref::fromFloats({100, 8}, x.data()),
                          ref::fromFloats({77, 8}, y.data()), &gt, eps));
  }
  return 0;
}
