// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// mixer.grouped_matmul_backward with K = 24, not a multiple of the CPU's
// panel width (32 columns; grouped_matmul_backward_packed.mlir has the
// packed form): dlhs is the forward's group walk over
// dout with the transposed weights rhs[e]^T (one [N, K] transpose per
// group), rows past the groups zeroed; then a second walk over the groups
// accumulates drhs[e] = sum over the group's slabs of lhs_slab^T dout_slab
// into a fresh [K, N] block (zero for an empty group), inserted as drhs[e].

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$KI:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @grouped_matmul_backward
// CHECK-SAME:    (%[[L:[^:]*]]: tensor<?x24xf32>, %[[R:[^:]*]]: tensor<4x24x64xf32>, %[[S:[^:]*]]: tensor<4xi64>, %[[D:[^:]*]]: tensor<?x64xf32>, %[[DL0:[^:]*]]: tensor<?x24xf32>, %[[DR0:[^:]*]]: tensor<4x24x64xf32>)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// dlhs: the forward algorithm with rhs[e]^T.
// CHECK:         %[[DLG:.+]]:2 = scf.for %[[E:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%{{.+}} = %[[DL0]], %{{.+}} = %[[C0]]) -> (tensor<?x24xf32>, index)
// CHECK:           %[[W:.+]] = tensor.extract_slice %[[R]][%[[E]], 0, 0] [1, 24, 64] [1, 1, 1] : tensor<4x24x64xf32> to tensor<24x64xf32>
// CHECK:           %[[WT:.+]] = linalg.transpose ins(%[[W]] : tensor<24x64xf32>) outs(%{{.+}} : tensor<64x24xf32>) permutation = [1, 0]
// CHECK:           scf.for
// CHECK:             %[[DS:.+]] = tensor.extract_slice %[[D]][%{{.+}}, 0] [16, 64] [1, 1] : tensor<?x64xf32> to tensor<16x64xf32>
// CHECK:             linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[DS]], %[[WT]] : tensor<16x64xf32>, tensor<64x24xf32>) outs(%{{.+}} : tensor<16x24xf32>)
// Rows past the groups: zero.
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<16x24xf32>)
// drhs: per group, lhs_slab^T dout_slab accumulated into one [K, N] block.
// CHECK:         %[[DRG:.+]]:2 = scf.for %[[E2:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[DRA:.+]] = %[[DR0]], %{{.+}} = %[[C0]]) -> (tensor<4x24x64xf32>, index)
// CHECK:           %[[ACC0:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<24x64xf32>)
// CHECK:           %[[ACC:.+]] = scf.for %{{.+}} iter_args(%[[A:.+]] = %[[ACC0]]) -> (tensor<24x64xf32>)
// CHECK:             %[[LS:.+]] = tensor.extract_slice %[[L]][%{{.+}}, 0] [16, 24] [1, 1] : tensor<?x24xf32> to tensor<16x24xf32>
// CHECK:             %[[DS2:.+]] = tensor.extract_slice %[[D]][%{{.+}}, 0] [16, 64] [1, 1] : tensor<?x64xf32> to tensor<16x64xf32>
// CHECK:             linalg.generic {indexing_maps = [#[[$KI]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[LS]], %[[DS2]] : tensor<16x24xf32>, tensor<16x64xf32>) outs(%[[A]] : tensor<24x64xf32>)
// CHECK:           tensor.insert_slice %{{.+}} into %[[DRA]][%[[E2]], 0, 0] [1, 24, 64] [1, 1, 1] : tensor<24x64xf32> into tensor<4x24x64xf32>
// CHECK:         return %{{.+}}, %[[DRG]]#0
func.func @grouped_matmul_backward(%l: tensor<?x24xf32>, %r: tensor<4x24x64xf32>, %s: tensor<4xi64>, %d: tensor<?x64xf32>, %dl0: tensor<?x24xf32>, %dr0: tensor<4x24x64xf32>) -> (tensor<?x24xf32>, tensor<4x24x64xf32>) {
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<?x24xf32>, tensor<4x24x64xf32>, tensor<4xi64>, tensor<?x64xf32>) outs(%dl0, %dr0 : tensor<?x24xf32>, tensor<4x24x64xf32>) -> tensor<?x24xf32>, tensor<4x24x64xf32>
  return %g#0, %g#1 : tensor<?x24xf32>, tensor<4x24x64xf32>
}
