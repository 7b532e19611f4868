// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s

// mixer.transport_cost becomes, per block of rows (here all 16), an scf.for
// over the full blocks of 64 columns of y and one over the padded tail: the
// squared distances of the block transposed ([64, 16], summed as squared
// differences: the laplacian cost needs r itself), then one reduction over
// the columns of exp(u_i + v_j - c / eps) c with c = sqrt(r^2). The tail
// pads y with zero points and log_v with -inf.

// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$J:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[$I:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @transport_cost_tail
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<16x3xf32>, %[[Y:[^:]*]]: tensor<100x3xf32>, %[[U:[^:]*]]: tensor<16xf32>, %[[V:[^:]*]]: tensor<100xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<16xf32>)
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C100:.*]] = arith.constant 100 : index
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[E:.*]] = tensor.extract %[[EPS]][] : tensor<f32>
// CHECK:         %[[INV:.*]] = arith.divf %[[ONE]], %[[E]] : f32
// CHECK:         %[[RES:.*]] = scf.for %[[R0:.*]] = %{{.*}} iter_args(%[[OUT:.*]] = %[[O]])
// CHECK:           %[[XT:.*]] = linalg.transpose ins(%{{.*}} : tensor<16x3xf32>) outs(%{{.*}} : tensor<3x16xf32>)
// CHECK-NOT:       linalg.generic
// CHECK:           %[[UB:.*]] = tensor.extract_slice %[[U]][%[[R0]]] [16] [1]
// CHECK:           %[[ACC0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK:           %[[FULL:.*]] = scf.for %[[J0:.*]] = %{{.*}} to %[[C64]] step %[[C64]] iter_args(%[[ACC:.*]] = %[[ACC0]])
// CHECK:             %[[YB:.*]] = tensor.extract_slice %[[Y]][%[[J0]], 0] [64, 3] [1, 1]
// CHECK:             %[[VB:.*]] = tensor.extract_slice %[[V]][%[[J0]]] [64] [1]
// CHECK:             %[[R2B:.*]] = linalg.generic {indexing_maps = [#[[$I]], #[[$I]], #[[$I]], #[[$J]], #[[$J]], #[[$J]], #[[$IJ]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<64x16xf32>)
// CHECK:               arith.subf
// CHECK:             linalg.generic {indexing_maps = [#[[$IJ]], #[[$I]], #[[$J]], #[[$J]]], iterator_types = ["reduction", "parallel"]} ins(%[[R2B]], %[[VB]], %[[UB]] : tensor<64x16xf32>, tensor<64xf32>, tensor<16xf32>) outs(%[[ACC]] : tensor<16xf32>)
// CHECK-NEXT:        ^bb0(%[[R2:.*]]: f32, %[[VJ:.*]]: f32, %[[UI:.*]]: f32, %[[A:.*]]: f32):
// CHECK-NEXT:          %[[C:.*]] = math.sqrt %[[R2]] : f32
// CHECK-NEXT:          %[[UV:.*]] = arith.addf %[[UI]], %[[VJ]] : f32
// CHECK-NEXT:          %[[CE:.*]] = arith.mulf %[[C]], %[[INV]] : f32
// CHECK-NEXT:          %[[ARG:.*]] = arith.subf %[[UV]], %[[CE]] : f32
// CHECK-NEXT:          %[[P:.*]] = math.exp %[[ARG]] : f32
// CHECK-NEXT:          %[[T:.*]] = arith.mulf %[[P]], %[[C]] : f32
// CHECK-NEXT:          %[[NA:.*]] = arith.addf %[[A]], %[[T]] : f32
// CHECK-NEXT:          linalg.yield %[[NA]] : f32
// CHECK:           %[[TAIL:.*]] = scf.for %[[T0:.*]] = %[[C64]] to %[[C100]] step %[[C64]] iter_args(%{{.*}} = %[[FULL]])
// CHECK:             %[[CNT:.*]] = arith.subi %[[C100]], %[[T0]] : index
// CHECK:             %[[VPAD:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK:             %[[VS:.*]] = tensor.extract_slice %[[V]][%[[T0]]] [%[[CNT]]] [1] : tensor<100xf32> to tensor<?xf32>
// CHECK:             tensor.insert_slice %[[VS]] into %[[VPAD]][0] [%[[CNT]]] [1]
// CHECK:             math.exp
// CHECK:           tensor.insert_slice %[[TAIL]] into %[[OUT]][%[[R0]]] [16] [1]
// CHECK:         return %[[RES]]
func.func @transport_cost_tail(%x: tensor<16x3xf32>, %y: tensor<100x3xf32>, %u: tensor<16xf32>, %v: tensor<100xf32>, %eps: tensor<f32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %r = mixer.transport_cost cost(laplacian) ins(%x, %y, %u, %v, %eps : tensor<16x3xf32>, tensor<100x3xf32>, tensor<16xf32>, tensor<100xf32>, tensor<f32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Batched with dynamic N: a batch loop outside, ragged row blocks of 64
// whose padded rows get log_u = -inf and whose valid rows are copied out;
// the gaussian cost r^2 / 2. M = 128 has no tail loop.

// CHECK-LABEL: func.func @transport_cost_batched_ragged
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x?x3xf32>, %{{[^:]*}}: tensor<2x128x3xf32>, %[[U:[^:]*]]: tensor<2x?xf32>
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         scf.for %[[B:[^ ]+]] =
// CHECK:           scf.for %[[R0:[^ ]+]] =
// CHECK:             %[[ROWS:[^ ]+]] = arith.minui
// CHECK:             %[[UPAD:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK:             %[[US:.*]] = tensor.extract_slice %[[U]][%[[B]], %[[R0]]] [1, %[[ROWS]]] [1, 1] : tensor<2x?xf32> to tensor<?xf32>
// CHECK:             tensor.insert_slice %[[US]] into %[[UPAD]][0] [%[[ROWS]]] [1]
// CHECK:             scf.for
// CHECK:               arith.mulf %{{.*}}, %[[HALF]] : f32
// CHECK-NOT:         scf.for
// CHECK:             linalg.copy
// CHECK:         return
func.func @transport_cost_batched_ragged(%x: tensor<2x?x3xf32>, %y: tensor<2x128x3xf32>, %u: tensor<2x?xf32>, %v: tensor<2x128xf32>, %eps: tensor<f32>, %o: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %r = mixer.transport_cost cost(gaussian) ins(%x, %y, %u, %v, %eps : tensor<2x?x3xf32>, tensor<2x128x3xf32>, tensor<2x?xf32>, tensor<2x128xf32>, tensor<f32>) outs(%o : tensor<2x?xf32>) -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}
