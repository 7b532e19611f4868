// RUN: mixer-opt %s --mixer-set-target="chip=sm_80" | FileCheck %s --check-prefix=SM80
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90a threads-per-block=256" | FileCheck %s --check-prefix=SM90A
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90" \
// RUN:   | mixer-opt --pass-pipeline="builtin.module(func.func(mixer-tile-parallel-dims))" \
// RUN:   | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: not mixer-opt %s --mixer-set-target="chip=sm_70" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mixer-opt %s --mixer-set-target="chip=sm_90 threads-per-block=100" 2>&1 | FileCheck %s --check-prefix=THREADS

// The description of a GPU: warps of 32, 48 KiB of static shared memory per
// block for the temporaries (workgroup memory), 128 threads per block, one
// thread per element (no vector lanes); the tiles of
// mixer-tile-parallel-dims are the CPU's (one block per head or 64 rows).

// SM80: module attributes {mixer.target = {kernel_column_block = 64 : i64,
// SM80-SAME: l1_cache_bytes = 196608 : i64, l2_cache_bytes = 41943040 : i64,
// SM80-SAME: moe_slab_rows = 16 : i64, parallel_row_block = 64 : i64,
// SM80-SAME: register_tile_rows = 1 : i64, scan_channel_block_limit = 64 : i64,
// SM80-SAME: scan_chunk_limit = 0 : i64,
// SM80-SAME: scan_head_block_limit = 1 : i64, scan_time_block = 16 : i64, shared_memory_bytes = 49152 : i64,
// SM80-SAME: temp_memory_space = #gpu.address_space<workgroup>,
// SM80-SAME: threads_per_block = 128 : i64, transposed_states = true,
// SM80-SAME: vector_registers = 1 : i64, vector_width = 1 : i64,
// SM80-SAME: warp_size = 32 : i64}}

// SM90A: l1_cache_bytes = 262144 : i64, l2_cache_bytes = 52428800 : i64
// SM90A-SAME: threads_per_block = 256 : i64

// The attribute parses back (mixer-tile-parallel-dims reads it).
// ROUNDTRIP: shared_memory_bytes = 49152 : i64, temp_memory_space = #gpu.address_space<workgroup>, threads_per_block = 128 : i64

// UNKNOWN: error: mixer-set-target: unknown GPU chip 'sm_70' (sm_80, sm_90 or sm_90a)
// THREADS: error: mixer-set-target: threads per block must be a multiple of 32 up to 1024, got 100

func.func @f() {
  return
}
