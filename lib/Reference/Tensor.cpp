//===- Tensor.cpp - fp64 tensors, conversions and error measure -----------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// The dense tensor of the reference, its float conversions, slicing, the
// relative error that every numerical check reports, and the argument checks
// shared by the op implementations.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

using namespace mixer::ref;

//===----------------------------------------------------------------------===//
// Argument checks
//===----------------------------------------------------------------------===//

void detail::fail(const char *function, const std::string &message) {
  std::fprintf(stderr, "mixer::ref::%s: %s\n", function, message.c_str());
  std::fflush(stderr);
  std::abort();
}

std::string detail::shapeToString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

void detail::checkRank(const char *function, const char *argument,
                       const Tensor &t, int64_t rank) {
  if (t.rank() != rank)
    fail(function, std::string("argument '") + argument + "' has shape " +
                       shapeToString(t.shape) + ", expected rank " +
                       std::to_string(rank));
}

void detail::checkShape(const char *function, const char *argument,
                        const Tensor &t, const std::vector<int64_t> &expected) {
  if (t.shape != expected)
    fail(function, std::string("argument '") + argument + "' has shape " +
                       shapeToString(t.shape) + ", expected " +
                       shapeToString(expected));
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

static int64_t numelOf(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Tensor::Tensor(std::vector<int64_t> dims, double fill)
    : shape(std::move(dims)) {
  for (int64_t d : shape)
    detail::check(d >= 0, "Tensor",
                  "negative dimension in shape " +
                      detail::shapeToString(shape));
  data.assign(numelOf(shape), fill);
}

int64_t Tensor::numel() const { return numelOf(shape); }

int64_t Tensor::rank() const { return static_cast<int64_t>(shape.size()); }

int64_t Tensor::dim(int64_t i) const {
  detail::check(i >= 0 && i < rank(), "Tensor::dim",
                "dimension " + std::to_string(i) + " out of range for shape " +
                    detail::shapeToString(shape));
  return shape[i];
}

int64_t Tensor::offset(std::initializer_list<int64_t> index) const {
  detail::check(static_cast<int64_t>(index.size()) == rank(), "Tensor::at",
                std::to_string(index.size()) + " indices for shape " +
                    detail::shapeToString(shape));
  int64_t flat = 0, i = 0;
  for (int64_t idx : index) {
    detail::check(idx >= 0 && idx < shape[i], "Tensor::at",
                  "index " + std::to_string(idx) +
                      " out of range in dimension " + std::to_string(i) +
                      " of shape " + detail::shapeToString(shape));
    flat = flat * shape[i] + idx;
    ++i;
  }
  return flat;
}

Tensor mixer::ref::fromFloats(std::vector<int64_t> shape, const float *values) {
  Tensor t(std::move(shape));
  for (int64_t i = 0, e = t.numel(); i < e; ++i)
    t[i] = values[i];
  return t;
}

std::vector<float> mixer::ref::toFloats(const Tensor &t) {
  std::vector<float> out(t.data.size());
  for (size_t i = 0; i < t.data.size(); ++i)
    out[i] = static_cast<float>(t.data[i]);
  return out;
}

Tensor mixer::ref::slice(const Tensor &t, int64_t dim, int64_t begin,
                         int64_t end) {
  detail::check(dim >= 0 && dim < t.rank(), "slice",
                "dimension " + std::to_string(dim) +
                    " out of range for shape " +
                    detail::shapeToString(t.shape));
  detail::check(0 <= begin && begin <= end && end <= t.shape[dim], "slice",
                "range [" + std::to_string(begin) + ", " + std::to_string(end) +
                    ") out of bounds for dimension " + std::to_string(dim) +
                    " of shape " + detail::shapeToString(t.shape));
  // View t as [outer, t.shape[dim], inner] and copy the middle range.
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < dim; ++i)
    outer *= t.shape[i];
  for (int64_t i = dim + 1; i < t.rank(); ++i)
    inner *= t.shape[i];
  std::vector<int64_t> shape = t.shape;
  shape[dim] = end - begin;
  Tensor out(shape);
  int64_t o = 0;
  for (int64_t a = 0; a < outer; ++a)
    for (int64_t m = begin; m < end; ++m)
      for (int64_t i = 0; i < inner; ++i)
        out[o++] = t[(a * t.shape[dim] + m) * inner + i];
  return out;
}

double mixer::ref::relativeError(const float *out, const Tensor &ref) {
  double maxError = 0.0, maxRef = 0.0;
  for (int64_t i = 0, e = ref.numel(); i < e; ++i) {
    double error = std::fabs(static_cast<double>(out[i]) - ref[i]);
    // NaN compares false with everything: catch it before std::max drops it.
    if (!std::isfinite(error))
      return std::numeric_limits<double>::infinity();
    maxError = std::max(maxError, error);
    maxRef = std::max(maxRef, std::fabs(ref[i]));
  }
  return maxRef == 0.0 ? maxError : maxError / maxRef;
}
