// RUN: mixer-opt %s --mixer-set-target="cpu=znver3 overrides=l1_cache_bytes=65536,register_tile_rows=2,transposed_states=false" | FileCheck %s
// RUN: mixer-opt %s --verify-diagnostics --mixer-set-target="cpu=znver3 overrides=l1_cache_bytes=64k"
// RUN: not mixer-opt %s --mixer-set-target="cpu=znver3 overrides=vector_width=6" 2>&1 | FileCheck %s --check-prefix=POWER
// RUN: not mixer-opt %s --mixer-set-target="cpu=znver3 overrides=no_such_entry=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="target-cpu=znver3 target-overrides=register_tile_rows=2" --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PIPE
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" --mixer-set-target="cpu= overrides=register_tile_rows=2" | FileCheck %s --check-prefix=OWN
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" --mixer-lower-to-cpu-pipeline="target-overrides=register_tile_rows=2" --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OWN-PIPE

// overrides changes the entries it names of the CPU's description and
// keeps the others: one choice of the description measured at a time
// (mixer-bench --ab "target-overrides=...").

// CHECK: module attributes {mixer.target = {kernel_column_block = 64 : i64,
// CHECK-SAME: l1_cache_bytes = 65536 : i64, l2_cache_bytes = 524288 : i64,
// CHECK-SAME: register_tile_rows = 2 : i64,
// CHECK-SAME: transposed_states = false,
// CHECK-SAME: vector_registers = 16 : i64, vector_width = 8 : i64}}

// Each value is checked as the attribute's own entries are.
// POWER: error: mixer-set-target: 'mixer.target' entry 'vector_width' must be a positive power of two, got 6
// UNKNOWN: error: mixer-set-target: 'mixer.target' has no entry 'no_such_entry'

// The pipeline attaches the target with its overrides and gives the
// vectorizer the overridden rows.
// PIPE: mixer-set-target{chip= cpu=znver3 features= overrides=register_tile_rows=2 threads-per-block=0},
// PIPE: mixer-vectorize-cpu{block-accumulators=12 row-tile=2 vector-width=8},

// Without a CPU, the overrides change the module's own description: here
// znver3's, attached before (mixer-compile attaches its --mcpu CPU's), not
// the compiling machine's; the pipeline's overrides alone do the same.
// OWN: module attributes {mixer.target = {{{.*}}register_tile_rows = 2 : i64
// OWN-SAME: vector_registers = 16 : i64, vector_width = 8 : i64}}
// OWN-PIPE: mixer-set-target{chip= cpu= features= overrides=register_tile_rows=2 threads-per-block=0},

// expected-error @+1 {{mixer-set-target: target override 'l1_cache_bytes=64k' is not name=integer (or name=true|false)}}
module {
}
