// RUN: mixer-opt %s --split-input-file --mixer-tile-parallel-dims --convert-mixer-to-linalg \
// RUN:   --verify-diagnostics | FileCheck %s

// The passes read the module's `mixer.target`; entries it omits are the
// default target's. A parallel row block of 32: kernel_lse tiles of 32 rows.

// CHECK-LABEL: func.func @kernel_lse_rows
// CHECK:         scf.forall (%{{.*}}) = (0) to (100) step (32)
// CHECK:           bufferization.alloc_tensor() : tensor<32x3xf32>
module attributes {mixer.target = {parallel_row_block = 32 : i64}} {
  func.func @kernel_lse_rows(%x: tensor<100x3xf32>, %y: tensor<50x3xf32>, %eps: tensor<f32>, %g: tensor<50xf32>, %o: tensor<100xf32>) -> tensor<100xf32> {
    %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<100x3xf32>, tensor<50x3xf32>, tensor<f32>) g(%g : tensor<50xf32>) outs(%o : tensor<100xf32>) -> tensor<100xf32>
    return %r : tensor<100xf32>
  }
}

// -----

// 12 vector registers: grouped GEMM micro-kernels of 4 rows (4 x 2
// accumulators, 2 vectors of the weight panel, 2 broadcasts), so slabs of 4
// rows, then one of the rest's height (1, 2 or 3 rows, each one register
// block); temporaries in memory space 3: the packed panel of
// each 32-column tile is allocated there. (Without a memory space, as in
// the kernel_lse above, temporaries have none.)

// CHECK-LABEL: func.func @grouped_matmul
// CHECK-NOT:     arith.constant 16 : index
// CHECK-NOT:     arith.constant 8 : index
// CHECK:         scf.forall (%{{.*}}) = (0) to (64) step (32)
// CHECK:           bufferization.alloc_tensor() {memory_space = 3 : i64} : tensor<1x32x32xf32>
// CHECK-NOT:       arith.constant 16 : index
// CHECK-NOT:       arith.constant 8 : index
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x32xf32>, tensor<32x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 4 : i64}
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x32xf32>, tensor<32x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 1 : i64}
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x32xf32>, tensor<32x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 2 : i64}
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<3x32xf32>, tensor<32x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 3 : i64}
module attributes {mixer.target = {vector_registers = 12 : i64, temp_memory_space = 3 : i64}} {
  func.func @grouped_matmul(%lhs: tensor<?x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
    %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x32xf32>, tensor<4x32x64xf32>, tensor<4xi32>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
    return %out : tensor<?x64xf32>
  }
}

// -----

// The selective scan in blocks of 8 tokens and channel blocks of at most 16
// (32 channels per group): tiles of 16 channels, 12 blocks of [8, 16] tokens
// for 100 tokens.

// CHECK-LABEL: func.func @selective_scan_blocks
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : index
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2, 64) step (1, 16)
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[C12]]
// CHECK:             tensor.extract_slice {{.*}} [1, 8, 16] [1, 1, 1] : tensor<1x100x16xf32> to tensor<8x16xf32>
module attributes {mixer.target = {scan_time_block = 8 : i64, scan_channel_block_limit = 16 : i64}} {
  func.func @selective_scan_blocks(%u: tensor<2x100x64xf32>, %dt: tensor<2x100x64xf32>, %A: tensor<64x16xf32>, %b: tensor<2x100x2x16xf32>, %c: tensor<2x100x2x16xf32>,
      %y0: tensor<2x100x64xf32>, %s0: tensor<2x64x16xf32>) -> (tensor<2x100x64xf32>, tensor<2x64x16xf32>) {
    %y, %s = mixer.selective_scan
        ins(%u, %dt, %A, %b, %c : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<64x16xf32>, tensor<2x100x2x16xf32>, tensor<2x100x2x16xf32>)
        outs(%y0, %s0 : tensor<2x100x64xf32>, tensor<2x64x16xf32>) -> tensor<2x100x64xf32>, tensor<2x64x16xf32>
    return %y, %s : tensor<2x100x64xf32>, tensor<2x64x16xf32>
  }
}

// -----

// A malformed description is an error naming the entry.

// expected-error @+1 {{'mixer.target' entry 'parallel_row_block' must be a positive integer, got 0}}
module attributes {mixer.target = {parallel_row_block = 0 : i64}} {
  func.func @f() {
    return
  }
}

// -----

// expected-error @+1 {{'mixer.target' entry 'scan_channel_block_limit' must be a positive power of two, got 48}}
module attributes {mixer.target = {scan_channel_block_limit = 48 : i64}} {
  func.func @f() {
    return
  }
}

// -----

// expected-error @+1 {{'mixer.target' has no entry 'vector_lanes'}}
module attributes {mixer.target = {vector_lanes = 8 : i64}} {
  func.func @f() {
    return
  }
}

// -----

// expected-error @+1 {{'mixer.target' entry 'vector_width' must be an i64, got 8 : i32}}
module attributes {mixer.target = {vector_width = 8 : i32}} {
  func.func @f() {
    return
  }
}

// -----

// expected-error @+1 {{'mixer.target' must be a dictionary}}
module attributes {mixer.target = "znver3"} {
  func.func @f() {
    return
  }
}

// -----

// expected-error @+1 {{'mixer.target' entry 'threads' must be a positive integer, got 0}}
module attributes {mixer.target = {threads = 0 : i64}} {
  func.func @f() {
    return
  }
}

// -----

// scan_chunk_limit may be 0 (the op's chunk), never negative.
// expected-error @+1 {{'mixer.target' entry 'scan_chunk_limit' must be a positive integer or 0, got -16}}
module attributes {mixer.target = {scan_chunk_limit = -16 : i64}} {
  func.func @f() {
    return
  }
}
