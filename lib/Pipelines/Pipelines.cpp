//===- Pipelines.cpp - the CPU and NVVM lowering pipelines ----------------===//
//
// The whole lowering path of each target, in numbered steps. Each step
// states its contract: what IR enters and what leaves.
//
//===----------------------------------------------------------------------===//

#include "mixer/Pipelines/Pipelines.h"

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Codegen/Common/Passes.h"
#include "mixer/Codegen/GPU/Passes.h"
#include "mixer/Conversion/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Target/CpuTarget.h"
#include "mixer/Target/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <optional>

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// Common: mixer ops on tensors -> linalg/scf on tensors
//===----------------------------------------------------------------------===//

/// The description of the target the options name, when they name one
/// that LLVM knows (else mixer-set-target reports the error when it runs).
static std::optional<TargetDescription>
getNamedTarget(const TensorPipelineOptions &options) {
  if (!options.namesTarget())
    return std::nullopt;
  std::string error;
  FailureOr<TargetDescription> target = getCpuTargetDescription(
      options.targetCpu.getValue(), options.targetFeatures.getValue(), error);
  if (succeeded(target) && !options.targetOverrides.empty()) {
    // Only to build and check the entries' attributes: no threads needed.
    MLIRContext context(MLIRContext::Threading::DISABLED);
    target = overrideTargetEntries(&context, *target, options.targetOverrides,
                                   [] { return InFlightDiagnostic(); });
  }
  if (failed(target))
    return std::nullopt;
  return *target;
}

/// `gpuTarget`, when given, is attached instead of any CPU and the run-time
/// checks are left out (they would read device buffers on the host).
/// `numThreads`, when positive, is the number of threads the CPU code will
/// run on.
static void
buildTensorPipeline(OpPassManager &pm, const TensorPipelineOptions &options,
                    const MixerSetTargetPassOptions *gpuTarget = nullptr,
                    int64_t numThreads = 0) {
  // Every pass that depends on the target reads the module's `mixer.target`
  // (the default target when there is none). A target named by the options
  // replaces it; overrides alone change the module's own (cpu empty).
  if (gpuTarget) {
    pm.addPass(createMixerSetTargetPass(*gpuTarget));
  } else if (options.namesTarget() || !options.targetOverrides.empty()) {
    MixerSetTargetPassOptions setTarget;
    setTarget.cpu = !options.namesTarget()      ? ""
                    : options.targetCpu.empty() ? "host"
                                                : options.targetCpu.getValue();
    setTarget.features = options.targetFeatures;
    setTarget.overrides = options.targetOverrides;
    pm.addPass(createMixerSetTargetPass(setTarget));
  }
  // The tiles keep that many threads busy (else the compiling machine's).
  if (numThreads > 0) {
    MixerSetThreadsPassOptions setThreads;
    setThreads.threads = numThreads;
    pm.addPass(createMixerSetThreadsPass(setThreads));
  }

  // Step 0. On request, the vector-Jacobian product @f_vjp of every public
  // function @f, as more functions on tensors (a no-op for functions that
  // already have one).
  if (options.generateVjp)
    pm.addPass(createMixerGenerateVjpPass());

  // Then check what the verifiers could not: dynamic sizes that must
  // agree and operand values (indices, eps, log-decays), before each op.
  // In: mixer ops on tensors. Out: each checked op inside an scf.if.
  if (options.runtimeChecks && !gpuTarget)
    pm.addPass(createMixerInsertRuntimeChecksPass());

  OpPassManager &funcPm = pm.nest<func::FuncOp>();

  // Step 1. Decompose composite ops (sinkhorn) into loops of the mixer ops
  // they are made of.
  // In: mixer ops on tensors. Out: no composite op left.
  // The naive pipeline's scalar loops have no backward of ssd: it becomes
  // forward scans there.
  MixerDecomposeCompositesPassOptions decompose;
  decompose.ssdBackwardToScans = options.naive;
  funcPm.addPass(createMixerDecomposeCompositesPass(decompose));

  // Step 2. Fuse the elementwise ops around mixer ops (dt scaling, gates)
  // with each other. Mixer ops are not linalg ops, so they stay whole; this
  // runs before lowering because its rewrite of `outs` operands into inputs
  // would turn the lowered algorithms' in-place state updates into copies.
  // Then tile the parallel dimensions of every mixer op (batch x heads,
  // row blocks, column blocks) into scf.forall, fusing the elementwise
  // producers of its operands into the tiles.
  // In: mixer ops on tensors. Out: each mixer op inside an scf.forall whose
  // iterations are independent.
  funcPm.addPass(createLinalgElementwiseOpFusionPass());
  if (!options.naive) {
    // The options of a named target are spelled out, so that the printed
    // pipeline states the tiles it uses.
    if (std::optional<TargetDescription> target = getNamedTarget(options)) {
      MixerTileParallelDimsPassOptions tile;
      tile.rowBlock = target->parallelRowBlock;
      funcPm.addPass(createMixerTileParallelDimsPass(tile));
    } else {
      funcPm.addPass(createMixerTileParallelDimsPass());
    }
  }

  // Step 3. Lower each op's algorithm: the blocked algorithm in linalg with
  // an scf.for over the sequential dimension, or (naive) the scalar loops of
  // its definition.
  // In: mixer ops. Out: linalg, scf, tensor, arith, math; no mixer op left.
  if (options.naive) {
    funcPm.addPass(createConvertMixerToLoopsPass());
  } else {
    ConvertMixerToLinalgPassOptions toLinalg;
    toLinalg.recurrentThreshold = options.recurrentThreshold;
    funcPm.addPass(createConvertMixerToLinalgPass(toLinalg));
  }

  // Step 4. Clean up. (The lowerings slice their operands rank-reduced, so
  // no unit dimensions are left to fold.)
  // In/out: linalg on tensors.
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
}

/// Bufferizes so that every public function writes its results into
/// caller-provided buffers and returns nothing.
static void buildBufferizeToOuts(OpPassManager &pm) {
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Canonicalize first: a loop that threads a buffer through its iter_args
  // returns that same buffer, and only after folding is a returned loop
  // result seen to be the argument it is. Then drop such results from every
  // function and its call sites (private callees would otherwise return
  // clones); what remains in a public function is an error.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  pm.addPass(createMixerDropReturnedArgumentsPass());
  pm.addPass(createCSEPass());
}

/// Polynomial math, then memrefs, loops and OpenMP to the LLVM dialect with
/// `_mlir_ciface_` wrappers; `fpContract`: multiplies and adds fused into
/// FMAs where LLVM finds them; `preferVectorWidth`: LLVM vectorizes the
/// loops left scalar at the target's vector width.
static void buildCpuToLLVM(OpPassManager &pm, int64_t numThreads,
                           bool fpContract, bool preferVectorWidth) {
  // The prefetches the lowerings asked for: the next expert's weights, the
  // next chunk's rows.
  pm.nest<func::FuncOp>().addPass(createMixerPrefetchRowsPass());
  // Polynomial exp/log so that they stay vectorized.
  pm.addPass(createMixerApproximateMathPass());
  if (fpContract)
    pm.addPass(createMixerContractFloatOpsPass());
  // Copies between strided tiles as vector code, not runtime calls; then
  // the rows of outputs larger than L2 that nothing reads back bypass the
  // caches.
  OpPassManager &stores = pm.nest<func::FuncOp>();
  stores.addPass(createMixerLowerMemrefCopiesPass());
  stores.addPass(createMixerStreamStoresPass());

  // Parallel loops to OpenMP, the rest to LLVM.
  // In: memrefs, scf.forall, vector, linalg leftovers. Out: LLVM dialect
  // with `_mlir_ciface_` wrappers.
  pm.addPass(createMixerEmitCInterfacePass());
  pm.nest<func::FuncOp>().addPass(createForallToParallelLoopPass());
  // One thread: the parallel loops become sequential loops (scf-to-cf), so
  // the object needs no OpenMP runtime.
  if (numThreads != 1) {
    ConvertSCFToOpenMPPassOptions openmp;
    openmp.numThreads = numThreads;
    pm.addPass(createConvertSCFToOpenMPPass(openmp));
  }
  pm.nest<func::FuncOp>().addPass(createConvertLinalgToLoopsPass());
  // Full unrolling: partial unrolling emitted aligned stores into unaligned
  // memory.
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // LLVM's vectorizers at the target's width, as the lowerings' vectors.
  if (preferVectorWidth)
    pm.addPass(createMixerPreferVectorWidthPass());
  pm.addPass(createCanonicalizerPass());
}

//===----------------------------------------------------------------------===//
// CPU: linalg on tensors -> LLVM dialect with OpenMP
//===----------------------------------------------------------------------===//

void mlir::mixer::buildLowerToCpuPipeline(OpPassManager &pm,
                                          const CpuPipelineOptions &options) {
  buildTensorPipeline(pm, options, /*gpuTarget=*/nullptr, options.numThreads);

  // Step 5. Register-tile every linalg op and vectorize it: contractions
  // become outer-product FMAs on vector registers.
  // In: linalg on tensors. Out: vector ops and scf loops on tensors.
  if (!options.naive) {
    // Without options the pass reads the register tile from the module's
    // target; explicit ones (a named target's, or `vector-width`) win.
    std::optional<TargetDescription> target = getNamedTarget(options);
    OpPassManager &funcPm = pm.nest<func::FuncOp>();
    if (target || options.vectorWidth.hasValue()) {
      TargetDescription tile = target.value_or(getDefaultTargetDescription());
      MixerVectorizeCpuPassOptions vectorize;
      vectorize.vectorWidth = options.vectorWidth.hasValue()
                                  ? int64_t(options.vectorWidth)
                                  : tile.vectorWidth;
      vectorize.rowTile = tile.registerTileRows;
      vectorize.blockAccumulators = tile.registerBlockAccumulators;
      funcPm.addPass(createMixerVectorizeCpuPass(vectorize));
    } else {
      funcPm.addPass(createMixerVectorizeCpuPass());
    }
    // Drops the loop-carried values that hoisting left unchanged, so that
    // bufferization sees plain in-place updates.
    funcPm.addPass(createCanonicalizerPass());
    funcPm.addPass(createCSEPass());
  }

  // Step 6. Bufferize. Results computed in place into `outs` arguments are
  // dropped from the signatures, so every public function writes its
  // results into caller-provided buffers and returns nothing.
  // In: tensors. Out: memrefs; temporaries as memref.alloc/alloca.
  buildBufferizeToOuts(pm);
  // One thread: the parallel loops run in sequence, so their per-iteration
  // buffers can be hoisted too (left inside, each iteration's stack buffer
  // would stay until the function returns and overflow the stack).
  if (options.numThreads == 1)
    pm.nest<func::FuncOp>().addPass(createForallToForLoopPass());
  // Per-chunk temporaries: allocate once outside the loops, on the stack
  // when small (a 64x64 f32 block is 16 KiB).
  pm.nest<func::FuncOp>().addPass(bufferization::createBufferLoopHoistingPass());
  bufferization::PromoteBuffersToStackPassOptions toStack;
  toStack.maxAllocSizeInBytes = 64 * 1024;
  toStack.maxRankOfAllocatedMemRef = 2;
  pm.nest<func::FuncOp>().addPass(
      bufferization::createPromoteBuffersToStackPass(toStack));
  bufferization::buildBufferDeallocationPipeline(pm);

  // Steps 7 and 8. Polynomial exp/log; parallel loops to OpenMP, the rest
  // to LLVM.
  buildCpuToLLVM(pm, options.numThreads, options.fpContract && !options.naive,
                 options.preferVectorWidth);
}

//===----------------------------------------------------------------------===//
// GPU: linalg on tensors -> thread-mapped gpu.launch -> NVVM (or the CPU)
//===----------------------------------------------------------------------===//

/// Whether `chip` (sm_XY) has the tf32 mma.sync of sm_80 and later.
static bool chipHasTf32TensorCores(StringRef chip) {
  unsigned version = 0;
  return chip.consume_front("sm_") &&
         !chip.take_while(llvm::isDigit).getAsInteger(10, version) &&
         version >= 80;
}

/// Steps 0 to 6 of the GPU pipelines: the front half for the GPU target,
/// bufferization, and the mapping to blocks and threads.
static void buildGpuMappedPipeline(OpPassManager &pm,
                                   const NvvmPipelineOptions &options,
                                   bool tensorCores) {
  MixerSetTargetPassOptions gpuTarget;
  gpuTarget.chip = options.chip;
  gpuTarget.threadsPerBlock = options.threadsPerBlock;
  buildTensorPipeline(pm, options, &gpuTarget);

  // Step 5. Bufferize, results into the callers' buffers.
  // In: tensors. Out: memrefs; the temporaries of each forall iteration as
  // memref.alloc inside it.
  buildBufferizeToOuts(pm);

  // Step 6. Map to the GPU: each outermost scf.forall becomes a gpu.launch
  // with one block per iteration; its linalg ops are spread over the
  // block's threads with a barrier after each, its temporaries are views
  // of shared memory while they fit (global scratch beyond). Linalg ops
  // between foralls get launches of their own; sequential host code that
  // writes memory runs in a one-thread launch.
  // In: memrefs, scf.forall. Out: gpu.launch ops holding scf loops over
  // single-element linalg ops; host code with memref.alloc scratch.
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  MixerMapForallToGpuPassOptions map;
  map.threadsPerBlock = options.threadsPerBlock;
  map.sharedMemoryBytes = options.sharedMemoryBytes;
  map.tensorCores = tensorCores;
  map.tensorCorePrecision = options.tensorCorePrecision;
  funcPm.addPass(createMixerMapForallToGpuPass(map));
  // Foralls nested in a block run sequentially in each thread.
  funcPm.addPass(createForallToForLoopPass());
  funcPm.addPass(createConvertLinalgToLoopsPass());
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
}

void mlir::mixer::buildLowerToNvvmPipeline(OpPassManager &pm,
                                           const NvvmPipelineOptions &options) {
  buildGpuMappedPipeline(
      pm, options, options.tensorCores && chipHasTf32TensorCores(options.chip));

  // Step 7. Device buffers on the host; kernels outlined into a gpu.module.
  // In: gpu.launch, host memref.alloc. Out: gpu.launch_func of gpu.func
  // kernels; gpu.alloc/gpu.dealloc on the host, async.
  pm.nest<func::FuncOp>().addPass(createMixerGpuHostAllocsPass());
  pm.addPass(createMixerEmitCInterfacePass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.nest<func::FuncOp>().addPass(createGpuAsyncRegionPass());

  // Step 8. To NVVM and the LLVM dialect: kernels through convert-gpu-to-nvvm
  // for `chip` (PTX 8.0, which sm_90 needs), the host through gpu-to-llvm
  // (mgpu* runtime calls); then the gpu.module, linked with libdevice for
  // the math functions (__nv_expf), to a gpu.binary holding PTX, a cubin
  // or a fatbin.
  // In: scf, memref, arith, math, gpu. Out: LLVM dialect and gpu.binary.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  GpuNVVMAttachTargetOptions attach;
  attach.chip = options.chip;
  attach.features = "+ptx80";
  attach.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(attach));
  OpPassManager &kernelPm = pm.nest<gpu::GPUModuleOp>();
  // Without the flag NVPTX keeps each multiply and add apart (mul.rn,
  // add.rn: PTX that ptxas may not fuse either).
  if (options.fpContract)
    kernelPm.addPass(createMixerContractFloatOpsPass());
  // The tensor-core code first: nvgpu.mma.sync to nvvm.mma.sync.
  kernelPm.addPass(createConvertNVGPUToNVVMPass());
  kernelPm.addPass(createConvertGpuOpsToNVVMOps());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.cudaToolkit.empty()
                           ? std::string(MIXER_CUDA_TOOLKIT_DIR)
                           : options.cudaToolkit.getValue();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
}

void mlir::mixer::buildLowerGpuMappedToCpuPipeline(
    OpPassManager &pm, const NvvmPipelineOptions &options) {
  // mma.sync has no CPU form: the CPU runs the SIMT form of every product.
  buildGpuMappedPipeline(pm, options, /*tensorCores=*/false);

  // Step 7 (CPU). Each gpu.launch becomes a loop over its blocks, each block
  // an omp.parallel region with one thread per GPU thread, meeting at
  // omp.barrier; the workgroup buffer is per block, shared by its threads.
  // In: gpu.launch. Out: scf.for over omp.parallel.
  pm.addPass(createMixerGpuLaunchToCpuPass());

  // Step 8 (CPU). As the CPU pipeline's steps 7 and 8, with the multiplies
  // and adds fused where the NVVM pipeline fuses them (fp-contract); the
  // module's target is the GPU's, whose width mixer-prefer-vector-width
  // would not set.
  buildCpuToLLVM(pm, /*numThreads=*/0, options.fpContract,
                 /*preferVectorWidth=*/false);
}

void mlir::mixer::registerPipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "mixer-lower-to-cpu-pipeline",
      "Lower mixer ops to vectorized, multi-threaded LLVM dialect for the CPU",
      buildLowerToCpuPipeline);
  PassPipelineRegistration<NvvmPipelineOptions>(
      "mixer-lower-to-nvvm-pipeline",
      "Lower mixer ops to thread-mapped GPU kernels compiled to PTX for an "
      "NVIDIA GPU, with host code calling the mgpu* runtime",
      buildLowerToNvvmPipeline);
  PassPipelineRegistration<NvvmPipelineOptions>(
      "mixer-lower-gpu-mapped-to-cpu",
      "Lower mixer ops to the thread-mapped kernels of the NVVM pipeline and "
      "run them on the CPU (each block's threads as OpenMP threads)",
      buildLowerGpuMappedToCpuPipeline);
}
