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

    With `tensor-cores`, the f32 matmul-shaped linalg ops of a block that
    the tensor cores take (see mixer-gpu-tensor-core-contractions) become
    warp-level nvgpu.mma.sync code instead; the others are spread as above.

    Without options the sizes come from the module's `mixer.target` (a GPU
    description, mixer-set-target chip=...).
  }];
  let options = [
    Option<"threadsPerBlock", "threads-per-block", "int64_t", /*default=*/"0",
           "Threads per block (0: the target's)">,
    Option<"sharedMemoryBytes", "shared-memory-bytes", "int64_t",
           /*default=*/"-1",
           "Shared memory for a block's temporaries, in bytes (-1: the "
           "target's)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"false",
           "Run a block's f32 matmul-shaped linalg ops on tensor cores "
           "(mixer-gpu-tensor-core-contractions' code) instead of spreading "
           "their elements over threads">,
    Option<"tensorCorePrecision", "tensor-core-precision", "std::string",
           /*default=*/"\"3xtf32\"",
           "3xtf32 (fp32 accuracy) or tf32 (one product)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
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

def MixerGpuTensorCoreContractionsPass
    : Pass<"mixer-gpu-tensor-core-contractions"> {
  let summary = "Run the f32 contractions of a GPU block on tensor cores";
  let description = [{
    Rewrites each matmul-shaped linalg op on f32 buffers that a whole thread
    block executes (linalg.matmul and batch_matmul, transposed operands
    included, and linalg.generic contractions with one M, one N and one K
    dimension plus batch dimensions) into warp-level tensor-core code:

    - the output is cut into warp tiles (up to 32 x 32); warp w of the block
      takes tiles w, w + W, w + 2W, ... where W is the number of whole warps
      in the block (read from the block size at run time);
    - each warp tile is a grid of 16 x 8 accumulators held in registers
      (nvgpu.mma.sync fragments, loaded from and stored to the output);
    - the K loop steps by 8: each lane loads its elements of the A and B
      fragments straight from the operands (global or shared memory) and the
      warp issues `nvgpu.mma.sync` of shape m16n8k8 on tf32;
    - with `precision=3xtf32` (the default) each operand is split into
      a_hi = tf32(a) and a_lo = a - a_hi and the product is
      a_lo b_hi + a_hi b_lo + a_hi b_hi, within about 1e-6 of fp32; with
      `precision=tf32` one product, about 1e-3 relative.

    A barrier before and after the rewritten op orders it with the
    thread-mapped code around it. Ops on tensors, with dynamic shapes,
    other element types, M not a multiple of 16, N or K not a multiple of
    8, or inside thread-level loops are left alone for the SIMT path.

    ```mlir
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                %c: memref<64x64xf32>) kernel {
      linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                    outs(%c : memref<64x64xf32>)
      gpu.return
    }
    ```
    becomes a loop over 32 x 32 warp tiles with 8 accumulators of
    vector<2x2xf32> and, per K step, 24 `nvgpu.mma.sync ... {mmaShape =
    [16, 8, 8], tf32Enabled}`.
  }];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"3xtf32\"",
           "Products per K step: 3xtf32 (fp32 accuracy) or tf32 (one "
           "product, 10-bit mantissas)">,
    Option<"warpTileM", "warp-tile-m", "int64_t", /*default=*/"32",
           "Largest rows of a warp tile (a multiple of 16)">,
    Option<"warpTileN", "warp-tile-n", "int64_t", /*default=*/"32",
           "Largest columns of a warp tile (a multiple of 8)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // MIXER_CODEGEN_GPU_PASSES_TD
