//===- Pipelines.h - the CPU and NVVM lowering pipelines --------*- C++ -*-===//
//
// mixer-opt, mixer-compile, mixer-bench and the C API all lower through these
// functions; lib/Pipelines/Pipelines.cpp shows each path in numbered steps.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_PIPELINES_PIPELINES_H
#define MIXER_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace mixer {

/// Options of the target-independent front half of every pipeline (mixer
/// ops on tensors to linalg on tensors), including the target.
struct TensorPipelineOptions
    : public PassPipelineOptions<TensorPipelineOptions> {
  PassOptions::Option<bool> naive{
      *this, "naive",
      llvm::cl::desc("Lower mixer ops through convert-mixer-to-loops (scalar "
                     "loops, no tiling or vectorization): the oracle path"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> generateVjp{
      *this, "generate-vjp",
      llvm::cl::desc("First emit @f_vjp, the vector-Jacobian product, beside "
                     "every public function @f (mixer-generate-vjp)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> runtimeChecks{
      *this, "runtime-checks",
      llvm::cl::desc("Check dynamic sizes and operand values (indices, "
                     "eps > 0, log-decays <= 0) before each mixer op; a "
                     "failed check skips the op and is reported through the "
                     "mixer runtime (mixer-insert-runtime-checks)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> recurrentThreshold{
      *this, "recurrent-threshold",
      llvm::cl::desc("Scans of at most this many tokens use the recurrent "
                     "form instead of the chunked one"),
      llvm::cl::init(8)};
  PassOptions::Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("Compile for this CPU (LLVM's name, e.g. znver3; host: "
                     "this machine's): mixer-set-target attaches its "
                     "description to the module. Empty, with no "
                     "target-features: the module's mixer.target, else the "
                     "default target (a CPU with AVX-512)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("LLVM features added to or removed from the target CPU "
                     "(e.g. -avx512f); alone: applied to this machine's"),
      llvm::cl::init("")};

  /// Whether the options name a target (then the pipeline attaches it).
  bool namesTarget() const {
    return !targetCpu.empty() || !targetFeatures.empty();
  }
};

/// Options of `mixer-lower-to-cpu-pipeline`.
struct CpuPipelineOptions : public TensorPipelineOptions {
  PassOptions::Option<int64_t> numThreads{
      *this, "num-threads",
      llvm::cl::desc("OpenMP threads of the parallel loops (0: the OpenMP "
                     "runtime's default, OMP_NUM_THREADS)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("f32 lanes of the register tiles; overrides the "
                     "target's (16 for AVX-512, 8 for AVX2)"),
      llvm::cl::init(16)};
};

/// Lowers a module of func.func ops on tensors holding mixer ops (and any
/// linalg/arith/math/tensor ops around them) to the LLVM dialect, with
/// OpenMP for the parallel loops and `_mlir_ciface_` wrappers for every
/// public function.
void buildLowerToCpuPipeline(OpPassManager &pm,
                             const CpuPipelineOptions &options);

/// Registers the pipelines with the global pass registry (for mixer-opt).
void registerPipelines();

} // namespace mixer
} // namespace mlir

#endif // MIXER_PIPELINES_PIPELINES_H
