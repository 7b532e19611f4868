// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" | FileCheck %s --check-prefix=AVX2
// RUN: mixer-opt %s --mixer-set-target="cpu=skylake-avx512" | FileCheck %s --check-prefix=AVX512
// RUN: mixer-opt %s --mixer-set-target="cpu=znver4" | FileCheck %s --check-prefix=AVX512
// RUN: mixer-opt %s --mixer-set-target="cpu=znver5" | FileCheck %s --check-prefix=AVX512
// RUN: mixer-opt %s --mixer-set-target="cpu=sapphirerapids" | FileCheck %s --check-prefix=AVX512
// RUN: mixer-opt %s --mixer-set-target="cpu=znver5 features=-avx512f" | FileCheck %s --check-prefix=AVX2
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3 features=+avx512f" | FileCheck %s --check-prefix=AVX512
// RUN: mixer-opt %s --mixer-set-target="cpu=x86-64" | FileCheck %s --check-prefix=SSE
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" | FileCheck %s --check-prefix=CACHE-ZEN3
// RUN: mixer-opt %s --mixer-set-target="cpu=skylake-avx512" | FileCheck %s --check-prefix=CACHE-SKX
// RUN: mixer-opt %s --mixer-set-target="cpu=znver4" | FileCheck %s --check-prefix=CACHE-ZEN4
// RUN: mixer-opt %s --mixer-set-target="cpu=znver5" | FileCheck %s --check-prefix=CACHE-ZEN5
// RUN: mixer-opt %s --mixer-set-target="cpu=sapphirerapids" | FileCheck %s --check-prefix=CACHE-SPR
// RUN: mixer-opt %s --mixer-set-target="cpu=znver5 features=-avx512f" | FileCheck %s --check-prefix=CACHE-ZEN5
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3 features=+avx512f" | FileCheck %s --check-prefix=CACHE-ZEN3
// RUN: mixer-opt %s --mixer-set-target="cpu=x86-64" | FileCheck %s --check-prefix=CACHE-DEFAULT
// RUN: not mixer-opt %s --mixer-set-target="cpu=no-such-cpu" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// The description of a CPU follows its vector registers. With AVX2 (Zen 3):
// 16 registers of 8 f32 lanes, register blocks of 6 rows (12 accumulators,
// as many as its wide blocks hold); the block sizes of the lowerings are
// the CPU's.

// AVX2: module attributes {mixer.target = {kernel_column_block = 64 : i64,
// AVX2-SAME: l1_cache_bytes = {{[0-9]+}} : i64, l2_cache_bytes = {{[0-9]+}} : i64,
// AVX2-SAME: moe_slab_rows = 16 : i64, parallel_row_block = 64 : i64,
// AVX2-SAME: register_block_accumulators = 12 : i64, register_tile_rows = 6 : i64, scan_channel_block_limit = 64 : i64,
// AVX2-SAME: scan_chunk_limit = 16 : i64,
// AVX2-SAME: scan_head_block_limit = 4 : i64, scan_time_block = 16 : i64, transposed_states = true,
// AVX2-SAME: vector_registers = 16 : i64, vector_width = 8 : i64}}

// With AVX-512 (Skylake-X, Zen 5, Sapphire Rapids): 32 registers of 16 lanes, blocks of 8
// rows (16 accumulators) and wide blocks of 24 accumulators: the default
// target.

// AVX512: module attributes {mixer.target = {kernel_column_block = 64 : i64,
// AVX512-SAME: l1_cache_bytes = {{[0-9]+}} : i64, l2_cache_bytes = {{[0-9]+}} : i64,
// AVX512-SAME: moe_slab_rows = 16 : i64, parallel_row_block = 64 : i64,
// AVX512-SAME: register_block_accumulators = 24 : i64, register_tile_rows = 8 : i64, scan_channel_block_limit = 64 : i64,
// AVX512-SAME: scan_chunk_limit = 16 : i64,
// AVX512-SAME: scan_head_block_limit = 4 : i64, scan_time_block = 16 : i64, transposed_states = true,
// AVX512-SAME: vector_registers = 32 : i64, vector_width = 16 : i64}}

// The caches are the CPU's own, per core (features do not change them):
// L1 data and L2 of Zen 3, Skylake-X, Zen 4, Zen 5 and Sapphire Rapids; a
// CPU the table lacks that is not this machine's gets those of its vector
// ISA (x86-64: SSE's).

// CACHE-ZEN3: l1_cache_bytes = 32768 : i64, l2_cache_bytes = 524288 : i64
// CACHE-SKX: l1_cache_bytes = 32768 : i64, l2_cache_bytes = 1048576 : i64
// CACHE-ZEN4: l1_cache_bytes = 32768 : i64, l2_cache_bytes = 1048576 : i64
// CACHE-ZEN5: l1_cache_bytes = 49152 : i64, l2_cache_bytes = 1048576 : i64
// CACHE-SPR: l1_cache_bytes = 49152 : i64, l2_cache_bytes = 2097152 : i64
// CACHE-DEFAULT: l1_cache_bytes = 32768 : i64, l2_cache_bytes = 262144 : i64

// Without AVX: 16 registers of 4 lanes.

// SSE: register_tile_rows = 6 : i64
// SSE-SAME: vector_registers = 16 : i64, vector_width = 4 : i64

// UNKNOWN: error: mixer-set-target: unknown CPU 'no-such-cpu'

func.func @f() {
  return
}
