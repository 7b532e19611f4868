// RUN: mixer-opt %s --split-input-file --mixer-set-threads=threads=6 | FileCheck %s
// RUN: not mixer-opt %s --split-input-file --mixer-set-threads=threads=0 2>&1 | FileCheck %s --check-prefix=ZERO

// mixer-set-threads states the threads and keeps the module's other entries;
// a module without a description gets the default target's. The passes read
// the entry back (the tile sizes of mixer.ssd depend on it).

// CHECK: module attributes {mixer.target = {kernel_column_block = 64 : i64,
// CHECK-SAME: parallel_row_block = 32 : i64,
// CHECK-SAME: threads = 6 : i64, transposed_states = true,
module attributes {mixer.target = {parallel_row_block = 32 : i64}} {
}

// -----

// CHECK: module attributes {mixer.target = {kernel_column_block = 64 : i64,
// CHECK-SAME: parallel_row_block = 64 : i64,
// CHECK-SAME: threads = 6 : i64, transposed_states = true,
module {
}

// ZERO: error: mixer-set-threads: 'threads' must be positive, got 0
