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

  PassOptions::Option<std::string> targetOverrides{
      *this, "target-overrides",
      llvm::cl::desc("Entries of the target's description to change, "
                     "name=value separated by commas (e.g. "
                     "l1_cache_bytes=65536): of the target named by "
                     "target-cpu/target-features, else of the module's "
                     "mixer.target (else of the default target)"),
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
                     "runtime's default, OMP_NUM_THREADS; 1: sequential "
                     "loops, no OpenMP runtime needed)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("f32 lanes of the register tiles; overrides the "
                     "target's (16 for AVX-512, 8 for AVX2)"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> fpContract{
      *this, "fp-contract",
      llvm::cl::desc("Let LLVM fuse each floating-point multiply with the "
                     "add that consumes it into one FMA "
                     "(mixer-contract-float-ops; not on the naive path)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> preferVectorWidth{
      *this, "prefer-vector-width",
      llvm::cl::desc("Let LLVM vectorize the loops the lowerings leave "
                     "scalar at the target's vector width, not at the "
                     "256 bits it prefers on AVX-512 CPUs "
                     "(mixer-prefer-vector-width)"),
      llvm::cl::init(true)};
};

/// Options of `mixer-lower-to-nvvm-pipeline` and
/// `mixer-lower-gpu-mapped-to-cpu`. The GPU pipelines compile no run-time
/// checks (they would read device buffers on the host): `runtime-checks`
/// is ignored.
struct NvvmPipelineOptions : public TensorPipelineOptions {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("The NVIDIA GPU: sm_80, sm_90 or sm_90a"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary embeds: isa (PTX), bin "
                     "(cubin through ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<int64_t> threadsPerBlock{
      *this, "threads-per-block",
      llvm::cl::desc("Threads of each block (a multiple of 32 up to 1024; "
                     "0: the target's, 128)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> cudaToolkit{
      *this, "cuda-toolkit",
      llvm::cl::desc("The CUDA toolkit whose libdevice gives the kernels' "
                     "math functions (empty: the one found at build time, "
                     "else $CUDA_HOME)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> sharedMemoryBytes{
      *this, "shared-memory-bytes",
      llvm::cl::desc("Shared memory for a block's temporaries, in bytes "
                     "(-1: the target's, 48 KiB); the rest go to global "
                     "scratch"),
      llvm::cl::init(-1)};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Run the f32 matmul-shaped products of each block on "
                     "tensor cores (mma.sync m16n8k8 tf32) where the chip "
                     "has them (sm_80 and later); the CPU-mapped pipeline "
                     "always uses the SIMT form"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> tensorCorePrecision{
      *this, "tensor-core-precision",
      llvm::cl::desc("3xtf32 (three products, fp32 accuracy) or tf32 (one "
                     "product, about 1e-3 relative)"),
      llvm::cl::init("3xtf32")};
  PassOptions::Option<bool> fpContract{
      *this, "fp-contract",
      llvm::cl::desc("Let NVPTX fuse each floating-point multiply of the "
                     "kernels with the add that consumes it into one "
                     "fma.rn (mixer-contract-float-ops)"),
      llvm::cl::init(true)};
};

/// Lowers a module of func.func ops on tensors holding mixer ops (and any
/// linalg/arith/math/tensor ops around them) to the LLVM dialect, with
/// OpenMP for the parallel loops and `_mlir_ciface_` wrappers for every
/// public function.
void buildLowerToCpuPipeline(OpPassManager &pm,
                             const CpuPipelineOptions &options);

/// Lowers the same input for an NVIDIA GPU: one gpu.launch per independent
/// unit of work (a block per head or row block, the linalg ops of a block
/// over its threads), kernels outlined into a gpu.module compiled to PTX
/// (`format`) for `chip`, host code in the LLVM dialect calling the mgpu*
/// runtime functions with device buffers.
void buildLowerToNvvmPipeline(OpPassManager &pm,
                              const NvvmPipelineOptions &options);

/// The thread-mapped kernels of the NVVM pipeline (the same tiling,
/// workgroup buffers and barriers) lowered for the CPU instead: each
/// block's threads run as OpenMP threads. For checking the GPU kernels'
/// numbers without a GPU.
void buildLowerGpuMappedToCpuPipeline(OpPassManager &pm,
                                      const NvvmPipelineOptions &options);

/// Registers the pipelines with the global pass registry (for mixer-opt).
void registerPipelines();

} // namespace mixer
} // namespace mlir

#endif // MIXER_PIPELINES_PIPELINES_H
