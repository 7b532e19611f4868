//===- BackwardCases.h - every backward op's gradient case ------*- C++ -*-===//
//
// One gradient case per backward op, parameterized by its shapes: a
// function holding the op, random inputs and cotangents of realistic
// ranges, and the comparison of every gradient with the fp64 reference
// gradients (printing max|grad - ref| / max|ref|). The runner says how the
// function is compiled: through the CPU pipeline (the gradient tests,
// *BackwardTest.cpp) or after tiling the op with tile sizes other than its
// own (TiledNumericsTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TEST_INTEGRATION_CPU_BACKWARDCASES_H
#define MIXER_TEST_INTEGRATION_CPU_BACKWARDCASES_H

#include "TestSupport.h"

#include "mixer/Reference/KernelMoEGradients.h"

#include <functional>
#include <memory>
#include <string>

namespace mixer::test {

/// How a gradient case compiles its function.
struct GradientRunner {
  /// Printed before the op's name ("naive ", "tiled ... ").
  std::string label;
  std::function<std::unique_ptr<CompiledModule>(const std::string &source)>
      compile;
};

/// The CPU pipeline, naive or optimized.
inline GradientRunner pipelineRunner(bool naive) {
  return {naive ? "naive " : "", [naive](const std::string &source) {
            return std::make_unique<CompiledModule>(source, naive);
          }};
}

//===----------------------------------------------------------------------===//
// ScanBackwardTest.cpp
//===----------------------------------------------------------------------===//

enum class Decays { Realistic, NearZero, NearMinusTen };

struct SsdCase {
  int64_t B, L, H, P, G, N, chunk;
  bool withInit, withDy, withDFinal;
  Decays decays = Decays::Realistic;
  /// The gradient test compiles it with the naive pipeline.
  bool naive = false;
  /// The chunk states from the forward's chunk_states result (else the
  /// backward recomputes them).
  bool savedStates = false;
};
void ssdBackwardCase(const SsdCase &s, const GradientRunner &runner);

struct LinearAttentionCase {
  int64_t B, L, H, Dk, Dv, chunk, window;
  bool withDecay, withInit, withDFinal;
  Decays decays = Decays::Realistic;
  /// The chunk states from the forward's chunk_states result (else the
  /// lowering recomputes them); window 0 only.
  bool savedStates = false;
};
void linearAttentionBackwardCase(const LinearAttentionCase &s,
                                 const GradientRunner &runner);

//===----------------------------------------------------------------------===//
// GatedDeltaRuleBackwardTest.cpp
//===----------------------------------------------------------------------===//

struct GdrbCase {
  int64_t B, L, H, Dk, Dv, chunk;
  bool init;
  double scale = 1.0;
  bool dO = true, dFinal = true;
  /// The chunk states given (computed by the reference).
  bool saved = false;
  /// g down to -20 (gates near 0) and beta up to 2 (an overshooting write).
  bool extreme = false;
};
void gatedDeltaRuleBackwardCase(const GdrbCase &c,
                                const GradientRunner &runner);

//===----------------------------------------------------------------------===//
// SelectiveScanBackwardTest.cpp
//===----------------------------------------------------------------------===//

struct SsbCase {
  int64_t B, L, D, G, N, chunk;
  bool dSkip, z, bias, init, softplus;
  bool dy = true, dFinal = true;
  /// The chunk states given (computed by the reference) instead of
  /// recomputed by the lowering.
  bool saved = false;
  /// delta in [-30, 30] and z in [-10, 10] instead of realistic ranges.
  bool extreme = false;
};
void selectiveScanBackwardCase(const SsbCase &c, const GradientRunner &runner);

//===----------------------------------------------------------------------===//
// KernelMoEBackwardTest.cpp
//===----------------------------------------------------------------------===//

struct MvCase {
  ::mixer::ref::Kernel kind;
  int64_t Bt, N, M, D, C;
};
void kernelMvBackwardCase(const MvCase &c, const GradientRunner &runner);

struct LseCase {
  ::mixer::ref::Kernel kind;
  int64_t Bt, N, M, D;
  bool withG;
  double eps;
};
void kernelLseBackwardCase(const LseCase &c, const GradientRunner &runner);

/// T rows of which `sum` are in groups; N the columns of the output (F for
/// grouped_swiglu).
struct GroupedCase {
  int64_t T, K, N, E, sum;
  bool dynamicT;
  /// x uniform in [-xScale, xScale): 8 drives the gates far into silu's
  /// tails (large activations).
  double xScale = 1.0;
};
void groupedMatmulBackwardCase(const GroupedCase &c,
                               const GradientRunner &runner);
void groupedSwigluBackwardCase(const GroupedCase &c,
                               const GradientRunner &runner);

struct CombineCase {
  int64_t T, k, N;
};
void moeCombineBackwardCase(const CombineCase &c, const GradientRunner &runner);

//===----------------------------------------------------------------------===//
// SinkhornBackwardTest.cpp
//===----------------------------------------------------------------------===//

struct SinkhornCase {
  ::mixer::ref::Kernel kind;
  int64_t N, M, D, iterations;
  double eps;
};
/// Against the reference gradients and finite differences of the fp64
/// entropic OT value.
void sinkhornBackwardCase(const SinkhornCase &c, const GradientRunner &runner);

} // namespace mixer::test

#endif // MIXER_TEST_INTEGRATION_CPU_BACKWARDCASES_H
