//===- KernelTestInputs.h - inputs of the kernel and MoE tests --*- C++ -*-===//
//
// Buffers with float-rounded random values and the same values as reference
// tensors, shapes with the optional batch dim Bt, and buffers of one value
// (zeros, or NaNs where every element must be written).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TEST_INTEGRATION_CPU_KERNELTESTINPUTS_H
#define MIXER_TEST_INTEGRATION_CPU_KERNELTESTINPUTS_H

#include "TestSupport.h"

#include "mixer/Reference/Reference.h"

#include <utility>

namespace mixer::test {

/// [(Bt,) dims...]; Bt = 0 is unbatched.
inline std::vector<int64_t> withBatch(int64_t Bt, std::vector<int64_t> dims) {
  if (Bt > 0)
    dims.insert(dims.begin(), Bt);
  return dims;
}

/// A buffer of `shape` with float-rounded random values in [lo, hi), and the
/// same values as a reference tensor.
inline std::pair<Buffer, ::mixer::ref::Tensor>
randomInput(::mixer::ref::Rng &rng, std::vector<int64_t> shape, double lo,
            double hi) {
  ::mixer::ref::Tensor t = rng.uniformTensor(shape, lo, hi);
  Buffer b{shape, ::mixer::ref::toFloats(t)};
  return {b, ::mixer::ref::fromFloats(shape, b.data.data())};
}

/// A buffer of `shape` holding `value` everywhere.
inline Buffer filledBuffer(std::vector<int64_t> shape, float value) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return Buffer{shape, std::vector<float>(n, value)};
}

} // namespace mixer::test

#endif // MIXER_TEST_INTEGRATION_CPU_KERNELTESTINPUTS_H
