// RUN: mixer-opt %s --mixer-tile-parallel-dims | FileCheck %s

// A grouped GEMM over packed weights [E, P, K, W] is tiled over its output
// columns in whole panels: the column block (here 128 of N = 256, two tiles)
// is a multiple of W = 32, and each tile reads the panels from
// column floordiv W, 128 / 32 = 4 of them.

// CHECK-LABEL: func.func @grouped_matmul_packed_column_blocks
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<?x32xf32>, %[[RHS:[^:]*]]: tensor<4x8x32x32xf32>
// CHECK:         scf.forall (%[[J:.*]]) = (0) to (256) step (128)
// CHECK:           %[[P:.+]] = affine.apply #{{.*}}(%[[J]])
// CHECK:           %[[W:.+]] = tensor.extract_slice %[[RHS]][0, %[[P]], 0, 0] [4, 4, 32, 32] [1, 1, 1, 1] : tensor<4x8x32x32xf32> to tensor<4x4x32x32xf32>
// CHECK:           mixer.grouped_matmul ins(%[[LHS]], %[[W]], %{{.*}} : tensor<?x32xf32>, tensor<4x4x32x32xf32>, tensor<4xi32>) outs(%{{.*}} : tensor<?x128xf32>)
func.func @grouped_matmul_packed_column_blocks(%lhs: tensor<?x32xf32>, %rhs: tensor<4x8x32x32xf32>, %gs: tensor<4xi32>, %o: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x32xf32>, tensor<4x8x32x32xf32>, tensor<4xi32>) outs(%o : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %out : tensor<?x256xf32>
}

// Both weights of grouped_swiglu take the same panels. With W = 24 no
// column block of 32..256 is whole panels: the op stays untiled.
// CHECK-LABEL: func.func @grouped_swiglu_packed
// CHECK:         scf.forall (%[[J:.*]]) = (0) to (512) step (256)
// CHECK:           %[[P:.+]] = affine.apply #{{.*}}(%[[J]])
// CHECK-DAG:       tensor.extract_slice %{{.*}}[0, %[[P]], 0, 0] [8, 16, 64, 16] [1, 1, 1, 1] : tensor<8x32x64x16xf32> to tensor<8x16x64x16xf32>
// CHECK-DAG:       tensor.extract_slice %{{.*}}[0, %[[P]], 0, 0] [8, 16, 64, 16] [1, 1, 1, 1] : tensor<8x32x64x16xf32> to tensor<8x16x64x16xf32>
// CHECK:           mixer.grouped_swiglu
// CHECK-NOT:     scf.forall (
// CHECK:         mixer.grouped_swiglu {{.*}} tensor<4x3x32x24xf32>, tensor<4x3x32x24xf32>
func.func @grouped_swiglu_packed(%x: tensor<?x64xf32>, %wg: tensor<8x32x64x16xf32>, %wu: tensor<8x32x64x16xf32>, %gs: tensor<8xi64>, %o: tensor<?x512xf32>,
                                 %x2: tensor<?x32xf32>, %wg2: tensor<4x3x32x24xf32>, %wu2: tensor<4x3x32x24xf32>, %gs2: tensor<4xi32>, %o2: tensor<?x72xf32>) -> (tensor<?x512xf32>, tensor<?x72xf32>) {
  %out = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<?x64xf32>, tensor<8x32x64x16xf32>, tensor<8x32x64x16xf32>, tensor<8xi64>) outs(%o : tensor<?x512xf32>) -> tensor<?x512xf32>
  %out2 = mixer.grouped_swiglu ins(%x2, %wg2, %wu2, %gs2 : tensor<?x32xf32>, tensor<4x3x32x24xf32>, tensor<4x3x32x24xf32>, tensor<4xi32>) outs(%o2 : tensor<?x72xf32>) -> tensor<?x72xf32>
  return %out, %out2 : tensor<?x512xf32>, tensor<?x72xf32>
}
