// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// mixer.grouped_swiglu_backward: one walk over the groups carrying dx and
// both weight gradients. Per group, the transposed weights and two [K, F]
// accumulators; per static slab of the group's rows, gate and up are
// recomputed (two contractions), dgate and dup formed elementwise,
// dx[slab] = dgate w_gate^T + dup w_up^T, and both accumulators take
// x_slab^T dgate and x_slab^T dup. Nothing of size T x F: only [slab, F]
// blocks. The accumulators become dw_gate[e] and dw_up[e].

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$KI:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @grouped_swiglu_backward
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?x32xf32>, %[[WG:[^:]*]]: tensor<4x32x48xf32>, %[[WU:[^:]*]]: tensor<4x32x48xf32>, %[[S:[^:]*]]: tensor<4xi32>, %[[D:[^:]*]]: tensor<?x48xf32>, %[[DX0:[^:]*]]: tensor<?x32xf32>, %[[DG0:[^:]*]]: tensor<4x32x48xf32>, %[[DU0:[^:]*]]: tensor<4x32x48xf32>)
// CHECK:         %[[G:.*]]:4 = scf.for %[[E:.*]] = {{.*}} iter_args(%[[DXA:.*]] = %[[DX0]], %[[DGA:.*]] = %[[DG0]], %[[DUA:.*]] = %[[DU0]], %{{.*}} = %{{.*}}) -> (tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, index)
// CHECK:           %[[WGE:.*]] = tensor.extract_slice %[[WG]][%[[E]], 0, 0] [1, 32, 48] [1, 1, 1]
// CHECK:           %[[WUE:.*]] = tensor.extract_slice %[[WU]][%[[E]], 0, 0] [1, 32, 48] [1, 1, 1]
// CHECK:           %[[WGT:.*]] = linalg.transpose ins(%[[WGE]] : tensor<32x48xf32>)
// CHECK:           %[[WUT:.*]] = linalg.transpose ins(%[[WUE]] : tensor<32x48xf32>)
// CHECK:           scf.for {{.*}} iter_args(%[[DXS:.*]] = %[[DXA]], %[[AG:.*]] = %{{.*}}, %[[AU:.*]] = %{{.*}}) -> (tensor<?x32xf32>, tensor<32x48xf32>, tensor<32x48xf32>)
// CHECK:             %[[XS:.*]] = tensor.extract_slice %[[X]][%{{.*}}, 0] [16, 32] [1, 1]
// CHECK:             %[[GATE:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[XS]], %[[WGE]] : tensor<16x32xf32>, tensor<32x48xf32>)
// CHECK:             %[[UP:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[XS]], %[[WUE]] : tensor<16x32xf32>, tensor<32x48xf32>)
// CHECK:             %[[DGATE:.*]] = linalg.generic {{.*}} ins(%[[GATE]], %[[UP]], %{{.*}} : tensor<16x48xf32>, tensor<16x48xf32>, tensor<16x48xf32>)
// CHECK:             %[[DUP:.*]] = linalg.generic {{.*}} ins(%[[GATE]], %{{.*}} : tensor<16x48xf32>, tensor<16x48xf32>)
// CHECK:             %[[DX1:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[DGATE]], %[[WGT]] : tensor<16x48xf32>, tensor<48x32xf32>)
// CHECK:             %[[DX2:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[DUP]], %[[WUT]] : tensor<16x48xf32>, tensor<48x32xf32>) outs(%[[DX1]] : tensor<16x32xf32>)
// CHECK:             tensor.insert_slice %[[DX2]] into %[[DXS]]
// CHECK:             linalg.generic {indexing_maps = [#[[$KI]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[XS]], %[[DGATE]] : tensor<16x32xf32>, tensor<16x48xf32>) outs(%[[AG]] : tensor<32x48xf32>)
// CHECK:             linalg.generic {indexing_maps = [#[[$KI]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[XS]], %[[DUP]] : tensor<16x32xf32>, tensor<16x48xf32>) outs(%[[AU]] : tensor<32x48xf32>)
// CHECK:           tensor.insert_slice %{{.*}} into %[[DGA]][%[[E]], 0, 0] [1, 32, 48] [1, 1, 1]
// CHECK:           tensor.insert_slice %{{.*}} into %[[DUA]][%[[E]], 0, 0] [1, 32, 48] [1, 1, 1]
// Rows past the groups: dx is zero.
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK:         return %{{.*}}, %[[G]]#1, %[[G]]#2
func.func @grouped_swiglu_backward(%x: tensor<?x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %s: tensor<4xi32>, %d: tensor<?x48xf32>, %dx0: tensor<?x32xf32>, %dg0: tensor<4x32x48xf32>, %du0: tensor<4x32x48xf32>) -> (tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>) {
  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>, tensor<?x48xf32>) outs(%dx0, %dg0, %du0 : tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>) -> tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>
  return %g#0, %g#1, %g#2 : tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>
}
