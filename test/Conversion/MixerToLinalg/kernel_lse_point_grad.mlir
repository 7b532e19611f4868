// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// mixer.kernel_lse_point_grad in the blocks of mixer.kernel_lse: per block
// of columns, the squared distances, then Q = w_j exp(min(-c / eps + a_i +
// b_j, 0)) (laplacian: c = r), then W = Q / r in place of the distances;
// s += sum_j W, t += W y_blk and sums += sum_j Q. grad = -(s x - t) / eps
// and sums are written into the rows of both outputs.

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @kernel_lse_point_grad
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<16x3xf32>, %[[Y:[^:]*]]: tensor<64x3xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[A:[^:]*]]: tensor<16xf32>, %[[B:[^:]*]]: tensor<64xf32>, %[[W:[^:]*]]: tensor<64xf32>, %[[G0:[^:]*]]: tensor<16x3xf32>, %[[S0:[^:]*]]: tensor<16xf32>)
// CHECK:         %[[ROWS:.*]]:2 = scf.for %[[R0:.*]] = {{.*}} iter_args(%[[GO:.*]] = %[[G0]], %[[SO:.*]] = %[[S0]]) -> (tensor<16x3xf32>, tensor<16xf32>)
// CHECK:           %[[XB:.*]] = linalg.copy ins(%{{.*}} : tensor<16x3xf32>)
// CHECK:           %[[ACC:.*]]:3 = scf.for {{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[T:.*]] = %{{.*}}, %[[SUMS:.*]] = %{{.*}}) -> (tensor<16xf32>, tensor<16x3xf32>, tensor<16xf32>)
// CHECK:             %[[R2:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<16x64xf32>)
// CHECK:             %[[Q:.*]] = linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$COL]], #[[$ID2]], #[[$ID2]]], {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[R2]] : tensor<16xf32>, tensor<64xf32>, tensor<64xf32>, tensor<16x64xf32>)
// CHECK:               math.exp
// CHECK:             %[[WB:.*]] = linalg.generic {{.*}} ins(%[[Q]] : tensor<16x64xf32>) outs(%[[R2]] : tensor<16x64xf32>)
// CHECK:               math.sqrt
// CHECK:             linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[WB]] : tensor<16x64xf32>) outs(%[[S]] : tensor<16xf32>)
// CHECK:             linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[WB]], %{{.*}} : tensor<16x64xf32>, tensor<64x3xf32>) outs(%[[T]] : tensor<16x3xf32>)
// CHECK:             linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[Q]] : tensor<16x64xf32>) outs(%[[SUMS]] : tensor<16xf32>)
// CHECK:           %[[GRAD:.*]] = linalg.generic {{.*}} ins(%[[ACC]]#0, %[[XB]], %[[ACC]]#1 : tensor<16xf32>, tensor<16x3xf32>, tensor<16x3xf32>)
// CHECK:           %[[SUMSB:.*]] = linalg.copy ins(%[[ACC]]#2 : tensor<16xf32>)
// CHECK:           tensor.insert_slice %[[GRAD]] into %[[GO]][%[[R0]], 0] [16, 3] [1, 1]
// CHECK:           tensor.insert_slice %[[SUMSB]] into %[[SO]][%[[R0]]] [16] [1]
// CHECK:         return %[[ROWS]]#0, %[[ROWS]]#1
func.func @kernel_lse_point_grad(%x: tensor<16x3xf32>, %y: tensor<64x3xf32>, %eps: tensor<f32>, %a: tensor<16xf32>, %b: tensor<64xf32>, %w: tensor<64xf32>, %g0: tensor<16x3xf32>, %s0: tensor<16xf32>) -> (tensor<16x3xf32>, tensor<16xf32>) {
  %grad, %sums = mixer.kernel_lse_point_grad kernel(laplacian) ins(%x, %y, %eps, %a, %b, %w : tensor<16x3xf32>, tensor<64x3xf32>, tensor<f32>, tensor<16xf32>, tensor<64xf32>, tensor<64xf32>) outs(%g0, %s0 : tensor<16x3xf32>, tensor<16xf32>) -> tensor<16x3xf32>, tensor<16xf32>
  return %grad, %sums : tensor<16x3xf32>, tensor<16xf32>
}
