//===- Pipelines.cpp - the CPU and NVVM lowering pipelines ----------------===//
//
// The whole lowering path of each target, in numbered steps. Each step
// states its contract: what IR enters and what leaves.
//
//===----------------------------------------------------------------------===//

#include "mixer/Pipelines/Pipelines.h"

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Codegen/Common/Passes.h"
#include "mixer/Conversion/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Target/CpuTarget.h"
#include "mixer/Target/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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
  if (failed(target))
    return std::nullopt;
  return *target;
}

static void buildTensorPipeline(OpPassManager &pm,
                                const TensorPipelineOptions &options) {
  // Every pass that depends on the target reads the module's `mixer.target`
  // (the default target when there is none). A target named by the options
  // replaces it.
  if (options.namesTarget()) {
    MixerSetTargetPassOptions setTarget;
    setTarget.cpu =
        options.targetCpu.empty() ? "host" : options.targetCpu.getValue();
    setTarget.features = options.targetFeatures;
    pm.addPass(createMixerSetTargetPass(setTarget));
  }

  // Step 0. On request, the vector-Jacobian product @f_vjp of every public
  // function @f, as more functions on tensors (a no-op for functions that
  // already have one).
  if (options.generateVjp)
    pm.addPass(createMixerGenerateVjpPass());

  // Then check what the verifiers could not: dynamic sizes that must
  // agree and operand values (indices, eps, log-decays), before each op.
  // In: mixer ops on tensors. Out: each checked op inside an scf.if.
  if (options.runtimeChecks)
    pm.addPass(createMixerInsertRuntimeChecksPass());

  OpPassManager &funcPm = pm.nest<func::FuncOp>();

  // Step 1. Decompose composite ops (sinkhorn) into loops of the mixer ops
  // they are made of.
  // In: mixer ops on tensors. Out: no composite op left.
  funcPm.addPass(createMixerDecomposeCompositesPass());

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

//===----------------------------------------------------------------------===//
// CPU: linalg on tensors -> LLVM dialect with OpenMP
//===----------------------------------------------------------------------===//

void mlir::mixer::buildLowerToCpuPipeline(OpPassManager &pm,
                                          const CpuPipelineOptions &options) {
  buildTensorPipeline(pm, options);

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
  // Per-chunk temporaries: allocate once outside the loops, on the stack
  // when small (a 64x64 f32 block is 16 KiB).
  pm.nest<func::FuncOp>().addPass(bufferization::createBufferLoopHoistingPass());
  bufferization::PromoteBuffersToStackPassOptions toStack;
  toStack.maxAllocSizeInBytes = 64 * 1024;
  toStack.maxRankOfAllocatedMemRef = 2;
  pm.nest<func::FuncOp>().addPass(
      bufferization::createPromoteBuffersToStackPass(toStack));
  bufferization::buildBufferDeallocationPipeline(pm);

  // Step 7. Polynomial exp/log so that they stay vectorized.
  pm.addPass(createMixerApproximateMathPass());
  // Copies between strided tiles as vector code, not runtime calls.
  pm.nest<func::FuncOp>().addPass(createMixerLowerMemrefCopiesPass());

  // Step 8. Parallel loops to OpenMP, the rest to LLVM.
  // In: memrefs, scf.forall, vector, linalg leftovers. Out: LLVM dialect
  // with `_mlir_ciface_` wrappers.
  pm.addPass(createMixerEmitCInterfacePass());
  pm.nest<func::FuncOp>().addPass(createForallToParallelLoopPass());
  ConvertSCFToOpenMPPassOptions openmp;
  openmp.numThreads = options.numThreads;
  pm.addPass(createConvertSCFToOpenMPPass(openmp));
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
  pm.addPass(createCanonicalizerPass());
}

void mlir::mixer::registerPipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "mixer-lower-to-cpu-pipeline",
      "Lower mixer ops to vectorized, multi-threaded LLVM dialect for the CPU",
      buildLowerToCpuPipeline);
}
