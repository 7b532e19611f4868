//===- Random.cpp - Deterministic random inputs ---------------------------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// The transforms from raw 64-bit draws to uniform and normal numbers are
// written out so that a seed gives the same inputs with every standard
// library (the <random> distributions are implementation-defined).
//
//===----------------------------------------------------------------------===//

#include "mixer/Reference/Reference.h"

#include <cmath>

using namespace mixer::ref;

Rng::Rng(uint64_t seed) : engine(seed) {}

/// Uniform in [0, 1) from the top 53 bits of one draw.
static double unitUniform(std::mt19937_64 &engine) {
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

double Rng::uniform(double lo, double hi) {
  return lo + (hi - lo) * unitUniform(engine);
}

double Rng::normal(double mean, double stddev) {
  if (hasSpareNormal) {
    hasSpareNormal = false;
    return mean + stddev * spareNormal;
  }
  // Box-Muller; 1 - u lies in (0, 1], so the log is finite.
  const double pi = 3.14159265358979323846;
  double radius = std::sqrt(-2.0 * std::log(1.0 - unitUniform(engine)));
  double angle = 2.0 * pi * unitUniform(engine);
  spareNormal = radius * std::sin(angle);
  hasSpareNormal = true;
  return mean + stddev * radius * std::cos(angle);
}

Tensor Rng::uniformTensor(std::vector<int64_t> shape, double lo, double hi) {
  Tensor t(std::move(shape));
  for (double &value : t.data)
    value = uniform(lo, hi);
  return t;
}

Tensor Rng::normalTensor(std::vector<int64_t> shape, double mean,
                         double stddev) {
  Tensor t(std::move(shape));
  for (double &value : t.data)
    value = normal(mean, stddev);
  return t;
}
