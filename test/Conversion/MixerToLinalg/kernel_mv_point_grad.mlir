// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// mixer.kernel_mv_point_grad in the blocks of mixer.kernel_mv: per block of
// rows (here all 16), the 64-column blocks of y then one padded tail step
// for the last 36 columns. Each step forms G = dout_blk v_blk^T (a
// contraction), the squared distances of the block, W = G * dk/d(r^2)
// (gaussian: a exp(a r^2)), and updates s += sum_j W and t += W y_blk. The
// block's dx = 2 (s x - t) is written into its rows of the output.

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @kernel_mv_point_grad
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<16x3xf32>, %[[Y:[^:]*]]: tensor<100x3xf32>, %[[V:[^:]*]]: tensor<100x4xf32>, %[[D:[^:]*]]: tensor<16x4xf32>, %[[H:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<16x3xf32>)
// CHECK:         scf.for %[[R0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %[[O]]) -> (tensor<16x3xf32>)
// CHECK:           %[[XB:.*]] = linalg.copy ins(%{{.*}} : tensor<16x3xf32>)
// CHECK:           %[[DB:.*]] = linalg.copy ins(%{{.*}} : tensor<16x4xf32>)
// CHECK:           %[[FULL:.*]]:2 = scf.for %{{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[T:.*]] = %{{.*}}) -> (tensor<16xf32>, tensor<16x3xf32>)
// CHECK:             %[[VT:.*]] = linalg.transpose ins(%{{.*}} : tensor<64x4xf32>) outs(%{{.*}} : tensor<4x64xf32>)
// CHECK:             %[[G:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}}} ins(%[[DB]], %[[VT]] : tensor<16x4xf32>, tensor<4x64xf32>) outs(%{{.*}} : tensor<16x64xf32>)
// CHECK:             %[[R2:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<16x64xf32>)
// CHECK:             %[[W:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<16x64xf32>) outs(%[[R2]] : tensor<16x64xf32>)
// CHECK:               math.exp
// CHECK:             linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[W]] : tensor<16x64xf32>) outs(%[[S]] : tensor<16xf32>)
// CHECK:             linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}}} ins(%[[W]], %{{.*}} : tensor<16x64xf32>, tensor<64x3xf32>) outs(%[[T]] : tensor<16x3xf32>)
// The padded tail: zero rows of v past M.
// CHECK:           %[[TAIL:.*]]:2 = scf.for %{{.*}} iter_args(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1)
// CHECK:           %[[DX:.*]] = linalg.generic {{.*}} ins(%[[TAIL]]#0, %[[XB]], %[[TAIL]]#1 : tensor<16xf32>, tensor<16x3xf32>, tensor<16x3xf32>)
// CHECK:             arith.subf
// CHECK:             arith.mulf
// CHECK:           tensor.insert_slice %[[DX]] into %[[OUT]][%[[R0]], 0] [16, 3] [1, 1]
func.func @kernel_mv_point_grad(%x: tensor<16x3xf32>, %y: tensor<100x3xf32>, %v: tensor<100x4xf32>, %d: tensor<16x4xf32>, %h: tensor<f32>, %o: tensor<16x3xf32>) -> tensor<16x3xf32> {
  %dx = mixer.kernel_mv_point_grad kernel(gaussian) ins(%x, %y, %v, %d, %h : tensor<16x3xf32>, tensor<100x3xf32>, tensor<100x4xf32>, tensor<16x4xf32>, tensor<f32>) outs(%o : tensor<16x3xf32>) -> tensor<16x3xf32>
  return %dx : tensor<16x3xf32>
}
