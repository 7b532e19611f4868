//===- TestHelpers.h - Shared helpers of the reference tests ----*- C++ -*-===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TEST_UNIT_REFERENCE_TESTHELPERS_H
#define MIXER_TEST_UNIT_REFERENCE_TESTHELPERS_H

#include "mixer/Reference/Reference.h"

#include "gtest/gtest.h"

#include <cmath>

namespace mixer::ref::test {

/// Expects `actual` to have the shape of `expected` and every element within
/// `tolerance` of it.
inline void expectTensorNear(const Tensor &actual, const Tensor &expected,
                             double tolerance) {
  ASSERT_EQ(actual.shape, expected.shape);
  for (int64_t i = 0; i < expected.numel(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "at flat index " << i;
}

/// A tensor of `shape` holding `values` (row-major).
inline Tensor makeTensor(std::vector<int64_t> shape,
                         std::vector<double> values) {
  Tensor t(std::move(shape));
  EXPECT_EQ(t.numel(), static_cast<int64_t>(values.size()));
  t.data = std::move(values);
  return t;
}

/// silu(x) = x sigmoid(x) written out here, independent of ref::silu.
inline double siluOf(double x) { return x / (1.0 + std::exp(-x)); }

} // namespace mixer::ref::test

#endif // MIXER_TEST_UNIT_REFERENCE_TESTHELPERS_H
