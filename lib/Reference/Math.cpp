//===- Math.cpp - Scalar functions of the op definitions ------------------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//

#include "mixer/Reference/Reference.h"

#include <cmath>

using namespace mixer::ref;

double mixer::ref::silu(double x) { return x / (1.0 + std::exp(-x)); }

double mixer::ref::softplus(double x) {
  // The threshold of the op spec (and of PyTorch): log1p(exp(x)) == x in
  // float beyond it.
  return x > 20.0 ? x : std::log1p(std::exp(x));
}

void OnlineLogSumExp::add(double a) {
  // exp(-inf) = 0: skipping also avoids the NaN of -inf - -inf.
  if (a == -std::numeric_limits<double>::infinity())
    return;
  if (a > max) {
    sum = sum * std::exp(max - a) + 1.0;
    max = a;
  } else {
    sum += std::exp(a - max);
  }
}

double OnlineLogSumExp::value() const {
  if (sum == 0.0)
    return -std::numeric_limits<double>::infinity();
  return max + std::log(sum);
}
