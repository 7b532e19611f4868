//===- Passes.td - GPU code generation passes --------------*- tablegen -*-===//

#ifndef MIXER_CODEGEN_GPU_PASSES_TD
#define MIXER_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def MixerMapForallToGpuPass
    : Pass<"mixer-map-forall-to-gpu", "func::FuncOp"> {
  let summary = "Map bufferized scf.forall ops to gpu.launch blocks and "
                "their linalg ops to threads";
  let description = [{
    Runs on bufferized functions whose independent units of work are the
    iterations of outermost scf.forall ops (mixer-tile-parallel-dims: batch
    x head for the scans, row blocks for the kernel sums, column blocks for
    the grouped GEMMs). Every such forall becomes a gpu.launch with one
    block per iteration and `threads-per-block` threads:

    - each linalg op in the block is tiled to single elements of its
      parallel dimensions and distributed cyclically over the block's
      threads (reductions stay sequential within a thread), followed by a
      gpu.barrier;
    - scalar stores outside linalg ops are made by thread 0, followed by a
      barrier; scalar code without stores runs in every thread;
    - the block's temporaries (memref.alloc) become views of one workgroup
      (shared memory) buffer while they fit in `shared-memory-bytes`, the
      rest views of a global scratch buffer with one slice per block that
      the host allocates around the launch.

    Linalg ops outside any forall become a launch of their own whose blocks
    and threads share their elements; other host code that writes memory
    (the sequential counting sort of mixer.moe_dispatch) runs in a launch of
    one thread. Scalars loaded on the host from buffers are loaded in the
    kernels instead.

    Without options the sizes come from the module's `mixer.target` (a GPU
    description, mixer-set-target chip=...).
  }];
  let options = [
    Option<"threadsPerBlock", "threads-per-block", "int64_t", /*default=*/"0",
           "Threads per block (0: the target's)">,
    Option<"sharedMemoryBytes", "shared-memory-bytes", "int64_t",
           /*default=*/"-1",
           "Shared memory for a block's temporaries, in bytes (-1: the "
           "target's)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def MixerGpuHostAllocsPass : Pass<"mixer-gpu-host-allocs", "func::FuncOp"> {
  let summary = "Allocate the host code's buffers in device memory";
  let description = [{
    memref.alloc and memref.dealloc outside gpu.launch ops (the temporaries
    between kernels and the per-block scratch buffers) become gpu.alloc and
    gpu.dealloc: the host code of the NVVM pipeline only passes device
    pointers around.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def MixerGpuLaunchToCpuPass : Pass<"mixer-gpu-launch-to-cpu", "ModuleOp"> {
  let summary = "Run gpu.launch ops on the CPU with one OpenMP thread per "
                "GPU thread";
  let description = [{
    Emulates the thread-mapped kernels of mixer-map-forall-to-gpu on the
    CPU, so that their numbers can be checked without a GPU: every
    gpu.launch becomes a sequential loop over its blocks, each block an
    omp.parallel region with one OpenMP thread per GPU thread. The
    workgroup buffer is shared by the threads of a block (the blocks run
    one after another and reuse it), thread ids are omp_get_thread_num(),
    gpu.barrier is omp.barrier. The tiling, shared-memory staging and
    barriers are those that reach NVVM.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // MIXER_CODEGEN_GPU_PASSES_TD
