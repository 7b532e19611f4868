//===- Passes.td - target description passes ---------------*- tablegen -*-===//

#ifndef MIXER_TARGET_PASSES_TD
#define MIXER_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

def MixerSetTargetPass : Pass<"mixer-set-target", "ModuleOp"> {
  let summary = "Attach the description of a CPU or a GPU to the module";
  let description = [{
    Sets the module's `mixer.target` attribute to the description of the
    CPU named by `cpu` with the LLVM features `features` (what `llc -mcpu`
    and `-mattr` take; `host` is this machine). Every pass that depends on
    the target reads that attribute: the block sizes of
    convert-mixer-to-linalg, the tiles of mixer-tile-parallel-dims and the
    register tiles of mixer-vectorize-cpu. A module without it compiles for
    the default target, a CPU with AVX-512.

    The vector registers decide the description: 32 registers of 16 f32
    lanes with AVX-512 (register blocks of 8 rows), 16 of 8 lanes with AVX2
    (6 rows), 16 of 4 with SSE only.

    With `chip` (sm_80, sm_90, sm_90a) the description is the GPU's
    instead: warps of 32 threads, `threads-per-block` threads per block,
    48 KiB of static shared memory per block for the per-block temporaries
    (temp_memory_space = #gpu.address_space<workgroup>).

    The description has no `threads` entry: the passes assume the
    compiling machine's threads unless mixer-set-threads states them.

    Example (`cpu=znver3`, AVX2):

    ```mlir
    module attributes {mixer.target = {kernel_column_block = 64 : i64,
        l1_cache_bytes = 32768 : i64, l2_cache_bytes = 524288 : i64,
        moe_slab_rows = 16 : i64, parallel_row_block = 64 : i64,
        register_tile_rows = 6 : i64, scan_channel_block_limit = 64 : i64,
        scan_chunk_limit = 16 : i64,
        scan_head_block_limit = 4 : i64, scan_time_block = 16 : i64,
        transposed_states = true,
        vector_registers = 16 : i64, vector_width = 8 : i64}} {
      ...
    }
    ```
  }];
  let options = [
    Option<"cpu", "cpu", "std::string", /*default=*/"\"host\"",
           "The CPU, as LLVM names it (znver3, skylake-avx512); host: this "
           "machine's; empty, with no features or chip: the module's own "
           "description, for `overrides` to change">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "LLVM target features to add or remove, e.g. +avx2,-avx512f">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "An NVIDIA GPU (sm_80, sm_90, sm_90a) instead of a CPU">,
    Option<"threadsPerBlock", "threads-per-block", "int64_t", /*default=*/"0",
           "Threads per block of the GPU (0: 128)">,
    Option<"overrides", "overrides", "std::string", /*default=*/"\"\"",
           "Entries of the description to change, name=value separated by "
           "commas (l1_cache_bytes=65536,register_tile_rows=2): to measure "
           "one of its choices at a time">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def MixerSetThreadsPass : Pass<"mixer-set-threads", "ModuleOp"> {
  let summary = "Set the threads of the module's target description";
  let description = [{
    Sets the `threads` entry of the module's `mixer.target` (attaching the
    default target's description when it has none), keeping the rest: the
    number of threads that will run the parallel loops, which the tiles of
    mixer-tile-parallel-dims keep busy. The CPU pipeline runs it with its
    `num-threads` when that is set. Without the entry the passes assume
    the compiling machine's hardware threads.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"0",
           "Threads that will run the parallel loops (positive)">
  ];
}

#endif // MIXER_TARGET_PASSES_TD
