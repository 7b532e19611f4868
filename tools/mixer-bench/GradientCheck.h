//===- GradientCheck.h - a gradient against a difference of the forward -*- C++ -*-===//
//
// Checks the compiled backward where the reference gradients are too slow to
// compute (--grad-check fd): <g, v> against the directional derivative of
// the loss along a random v, from central differences of the compiled
// forward. A plain central difference with a step that float32 tolerates
// is not accurate enough: its truncation error is h^2/6 L''' and a nonlinear
// op's L''' is large when v moves the inputs by much more than their own
// size (grouped_swiglu's weights, ~1/sqrt(K), moved by 0.01: a 4e-2
// error). So v is scaled to each input's magnitude, the difference is taken
// at h and h/2 and extrapolated (Richardson: error O(h^4)), and <g, v> is
// taken along the perturbation the float32 inputs really got.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_GRADIENTCHECK_H
#define MIXER_TOOLS_MIXER_BENCH_GRADIENTCHECK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mixer::bench {

/// The step of the difference, relative to each input's largest magnitude.
constexpr double kDifferenceStep = 1e-2;

/// One float input of the forward: its data (perturbed in place, restored
/// on return) and the gradient the backward computed for it. Inputs marked
/// `fixed` (rank-0 hyperparameters) are not moved.
struct CheckedInput {
  llvm::MutableArrayRef<float> values;
  llvm::ArrayRef<float> gradient;
  bool fixed = false;
};

struct DirectionalCheck {
  /// |extrapolated difference - <g, v>| / max(|difference|, |<g, v>|).
  double relError;
  /// |extrapolated - difference at h/2| / the same scale: how far the
  /// differences themselves are from converged.
  double differenceError;
};

/// <g, v> against the Richardson-extrapolated central difference of
/// `loss()` (the forward at the current input values) along a random v
/// drawn from `seed`. v keeps every input's sign: v_j = 0 where x_j +- h v_j
/// would cross 0.
llvm::Expected<DirectionalCheck>
checkDirectionalDerivative(llvm::ArrayRef<CheckedInput> inputs,
                           llvm::function_ref<llvm::Expected<double>()> loss,
                           uint64_t seed, double h = kDifferenceStep);

/// What the check is, in the row's "checked against" column.
std::string directionalCheckName(double h = kDifferenceStep);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_GRADIENTCHECK_H
