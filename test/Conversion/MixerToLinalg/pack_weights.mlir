// RUN: mixer-opt %s --mixer-set-target="cpu=skylake-avx512" --convert-mixer-to-linalg --canonicalize --cse | FileCheck %s

// mixer.pack_weights copies each expert's [K, N] weight into its panels of W
// columns, the same copies as the grouped GEMMs' own packing: N = 80 in two
// full panels of 32 and a last one of 16 columns whose other 16 stay zero
// (the whole result is zeroed first because N is not a multiple of W).

// CHECK-LABEL: func.func @pack_weights
// CHECK-SAME:    (%[[W:[^:]*]]: tensor<4x32x80xf32>, %[[P0:[^:]*]]: tensor<4x3x32x32xf32>)
// CHECK:         %[[Z:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[P0]] : tensor<4x3x32x32xf32>)
// CHECK:         scf.for %[[E:.+]] = %{{.*}} to %c4 step %c1 iter_args(%[[ACC:.+]] = %[[Z]])
// CHECK:           %[[EXP:.+]] = tensor.extract_slice %[[ACC]][%[[E]], 0, 0, 0] [1, 3, 32, 32] [1, 1, 1, 1] : tensor<4x3x32x32xf32> to tensor<3x32x32xf32>
// CHECK:           scf.for %[[PAN:.+]] = %{{.*}} to %c2 step %c1
// CHECK:             %[[COL:.+]] = arith.muli %[[PAN]], %c32
// CHECK:             %[[SRC:.+]] = tensor.extract_slice %[[W]][%[[E]], 0, %[[COL]]] [1, 32, 32] [1, 1, 1] : tensor<4x32x80xf32> to tensor<32x32xf32>
// CHECK:             linalg.copy ins(%[[SRC]] : tensor<32x32xf32>)
// CHECK:           tensor.extract_slice %[[W]][%[[E]], 0, 64] [1, 32, 16] [1, 1, 1] : tensor<4x32x80xf32> to tensor<32x16xf32>
// CHECK:           tensor.extract_slice %{{.*}}[2, 0, 0] [1, 32, 16] [1, 1, 1] : tensor<3x32x32xf32> to tensor<32x16xf32>
// CHECK:           linalg.copy
// CHECK:           tensor.insert_slice %{{.*}} into %[[ACC]][%[[E]], 0, 0, 0] [1, 3, 32, 32]
func.func @pack_weights(%w: tensor<4x32x80xf32>, %p0: tensor<4x3x32x32xf32>) -> tensor<4x3x32x32xf32> {
  %p = mixer.pack_weights ins(%w : tensor<4x32x80xf32>) outs(%p0 : tensor<4x3x32x32xf32>) -> tensor<4x3x32x32xf32>
  return %p : tensor<4x3x32x32xf32>
}

// A multiple of W: no zeroing.
// CHECK-LABEL: func.func @pack_weights_whole_panels
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for
// CHECK:         return
func.func @pack_weights_whole_panels(%w: tensor<2x16x64xf32>, %p0: tensor<2x2x16x32xf32>) -> tensor<2x2x16x32xf32> {
  %p = mixer.pack_weights ins(%w : tensor<2x16x64xf32>) outs(%p0 : tensor<2x2x16x32xf32>) -> tensor<2x2x16x32xf32>
  return %p : tensor<2x2x16x32xf32>
}

// grouped_matmul over packed weights packs nothing (no buffer, no copy): each
// slab's product reads its panel straight from rhs[e, p] ([K, 32]); the last
// panel of N = 80 is the first 16 columns of rhs[e, 2]. Each product asks
// for the same panel of the next expert, P * K = 96 rows of the panel's
// buffer further, to be prefetched (mixer-prefetch-rows).
// CHECK-LABEL: func.func @grouped_matmul_packed
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<?x32xf32>, %[[RHS:[^:]*]]: tensor<4x3x32x32xf32>
// CHECK-NOT:     bufferization.alloc_tensor
// CHECK-NOT:     linalg.copy
// CHECK:         scf.for %[[E:.+]] = %{{.*}} to %c4
// CHECK:           scf.for %[[PAN:.+]] = %{{.*}} to %c2
// CHECK:             %[[PANEL:.+]] = tensor.extract_slice %[[RHS]][%[[E]], %[[PAN]], 0, 0] [1, 1, 32, 32] [1, 1, 1, 1] : tensor<4x3x32x32xf32> to tensor<32x32xf32>
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %[[PANEL]] : tensor<14x32xf32>, tensor<32x32xf32>) {{.*}} attrs = {mixer.prefetch_rows_ahead = 96 : i64, mixer.register_tile_rows = 14 : i64}
// CHECK:           %[[REST:.+]] = tensor.extract_slice %[[RHS]][%[[E]], 2, 0, 0] [1, 1, 32, 16] [1, 1, 1, 1] : tensor<4x3x32x32xf32> to tensor<32x16xf32>
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %[[REST]] : tensor<14x32xf32>, tensor<32x16xf32>) {{.*}} attrs = {mixer.prefetch_rows_ahead = 96 : i64, mixer.register_tile_rows = 14 : i64}
// CHECK-NOT:     linalg.copy
// CHECK:         return
func.func @grouped_matmul_packed(%lhs: tensor<?x32xf32>, %rhs: tensor<4x3x32x32xf32>, %gs: tensor<4xi32>, %o: tensor<?x80xf32>) -> tensor<?x80xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x32xf32>, tensor<4x3x32x32xf32>, tensor<4xi32>) outs(%o : tensor<?x80xf32>) -> tensor<?x80xf32>
  return %out : tensor<?x80xf32>
}

// grouped_swiglu reads both packed weights' panels p of expert e.
// CHECK-LABEL: func.func @grouped_swiglu_packed
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?x32xf32>, %[[WG:[^:]*]]: tensor<4x2x32x32xf32>, %[[WU:[^:]*]]: tensor<4x2x32x32xf32>
// CHECK-NOT:     linalg.copy
// CHECK:         scf.for %[[E:.+]] = %{{.*}} to %c4
// CHECK:           scf.for %[[PAN:.+]] = %{{.*}} to %c2
// CHECK-DAG:         tensor.extract_slice %[[WG]][%[[E]], %[[PAN]], 0, 0] [1, 1, 32, 32]
// CHECK-DAG:         tensor.extract_slice %[[WU]][%[[E]], %[[PAN]], 0, 0] [1, 1, 32, 32]
// CHECK-NOT:     linalg.copy
// CHECK:         return
func.func @grouped_swiglu_packed(%x: tensor<?x32xf32>, %wg: tensor<4x2x32x32xf32>, %wu: tensor<4x2x32x32xf32>, %gs: tensor<4xi64>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<?x32xf32>, tensor<4x2x32x32xf32>, tensor<4x2x32x32xf32>, tensor<4xi64>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}

// A thread's tile of packed weights (panels 0..2 of 6, as
// mixer-tile-parallel-dims slices them): the next expert's panel is P * K
// rows further in the whole tensor, 6 * 32 = 192, not the tile's 3 * 32.
// CHECK-LABEL: func.func @grouped_matmul_packed_tile
// CHECK:         linalg.generic {{.*}} attrs = {mixer.prefetch_rows_ahead = 192 : i64, mixer.register_tile_rows = 14 : i64}
func.func @grouped_matmul_packed_tile(%lhs: tensor<?x32xf32>, %rhs: tensor<4x6x32x32xf32>, %gs: tensor<4xi32>, %o: tensor<?x96xf32>) -> tensor<?x96xf32> {
  %tile = tensor.extract_slice %rhs[0, 0, 0, 0] [4, 3, 32, 32] [1, 1, 1, 1] : tensor<4x6x32x32xf32> to tensor<4x3x32x32xf32>
  %out = mixer.grouped_matmul ins(%lhs, %tile, %gs : tensor<?x32xf32>, tensor<4x3x32x32xf32>, tensor<4xi32>) outs(%o : tensor<?x96xf32>) -> tensor<?x96xf32>
  return %out : tensor<?x96xf32>
}
