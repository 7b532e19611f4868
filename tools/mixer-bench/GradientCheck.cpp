//===- GradientCheck.cpp - a gradient against a difference of the forward -===//

#include "GradientCheck.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using namespace mixer::bench;

namespace {
/// The central difference at step s, and <g, v> along the perturbation the
/// float32 inputs actually got: (x(+s) - x(-s)) / 2s per element.
struct Difference {
  double measured = 0, predicted = 0;
};
} // namespace

llvm::Expected<DirectionalCheck> mixer::bench::checkDirectionalDerivative(
    llvm::ArrayRef<CheckedInput> inputs,
    llvm::function_ref<llvm::Expected<double>()> loss, uint64_t seed,
    double h) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<std::vector<float>> saved;
  std::vector<std::vector<double>> direction;
  for (const CheckedInput &in : inputs) {
    saved.emplace_back(in.values.begin(), in.values.end());
    double scale = 0;
    for (float x : in.values)
      scale = std::max(scale, double(std::fabs(x)));
    if (scale == 0)
      scale = 1;
    std::vector<double> v(in.values.size(), 0.0);
    for (size_t j = 0; j < v.size() && !in.fixed; ++j) {
      double x = in.values[j], vj = scale * uniform(engine);
      bool crosses = x != 0 && (x - h * std::fabs(vj)) * (x + h * std::fabs(vj)) <= 0;
      v[j] = crosses ? 0.0 : vj;
    }
    direction.push_back(std::move(v));
  }
  auto setInputs = [&](double step) {
    for (size_t i = 0; i < inputs.size(); ++i)
      for (size_t j = 0; j < saved[i].size(); ++j)
        inputs[i].values[j] =
            static_cast<float>(saved[i][j] + step * direction[i][j]);
  };
  auto restore = [&] {
    for (size_t i = 0; i < inputs.size(); ++i)
      std::copy(saved[i].begin(), saved[i].end(), inputs[i].values.begin());
  };
  auto differenceAt = [&](double step) -> llvm::Expected<Difference> {
    Difference d;
    for (size_t i = 0; i < inputs.size(); ++i)
      for (size_t j = 0; j < saved[i].size(); ++j) {
        float plus = static_cast<float>(saved[i][j] + step * direction[i][j]),
              minus = static_cast<float>(saved[i][j] - step * direction[i][j]);
        d.predicted += double(inputs[i].gradient[j]) *
                       (double(plus) - double(minus)) / (2 * step);
      }
    setInputs(step);
    llvm::Expected<double> plus = loss();
    if (!plus)
      return plus.takeError();
    setInputs(-step);
    llvm::Expected<double> minus = loss();
    if (!minus)
      return minus.takeError();
    d.measured = (*plus - *minus) / (2 * step);
    return d;
  };
  llvm::Expected<Difference> coarse = differenceAt(h);
  if (!coarse) {
    restore();
    return coarse.takeError();
  }
  llvm::Expected<Difference> fine = differenceAt(h / 2);
  restore();
  if (!fine)
    return fine.takeError();
  // The truncation error is c s^2 + O(s^4): extrapolated away from the
  // errors at s = h and h / 2.
  double coarseError = coarse->measured - coarse->predicted,
         fineError = fine->measured - fine->predicted;
  double error = (4 * fineError - coarseError) / 3;
  double scale = std::max(std::fabs(fine->measured), std::fabs(fine->predicted));
  DirectionalCheck check;
  check.relError = scale > 0 ? std::fabs(error) / scale : 0;
  check.differenceError = scale > 0 ? std::fabs(fineError - error) / scale : 0;
  if (!std::isfinite(fine->predicted) || !std::isfinite(fine->measured) ||
      !std::isfinite(coarse->measured))
    check.relError = check.differenceError = INFINITY;
  return check;
}

std::string mixer::bench::directionalCheckName(double h) {
  char name[160];
  std::snprintf(name, sizeof(name),
                "directional central differences of the compiled forward, "
                "steps %g and %g of each input's magnitude, extrapolated",
                h, h / 2);
  return name;
}
