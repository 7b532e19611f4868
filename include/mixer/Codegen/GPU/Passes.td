//===- Passes.td - GPU code generation passes --------------*- tablegen -*-===//

#ifndef MIXER_CODEGEN_GPU_PASSES_TD
#define MIXER_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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
