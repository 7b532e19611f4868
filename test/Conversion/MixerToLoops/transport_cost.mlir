// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s

// The dense double loop: for every row i, a sum over all M columns j of
// exp(u_i + v_j - c / eps) c, with r^2 summed directly and the cost
// c = sqrt(r^2) (laplacian); out[i] = the sum.

// CHECK-LABEL: func.func @transport_cost_static
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<16x3xf32>, %[[Y:[^:]*]]: tensor<100x3xf32>, %[[U:[^:]*]]: tensor<16xf32>, %[[V:[^:]*]]: tensor<100xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<16xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C100:.*]] = arith.constant 100 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[E:.*]] = tensor.extract %[[EPS]][] : tensor<f32>
// CHECK:         %[[RES:.*]] = scf.for %[[I:[^ ]+]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[OUT:[^ ]+]] = %[[O]])
// CHECK:           %[[UI:.*]] = tensor.extract %[[U]][%[[I]]] : tensor<16xf32>
// CHECK:           %[[SUM:.*]] = scf.for %[[J:[^ ]+]] = %[[C0]] to %[[C100]] step %[[C1]] iter_args(%[[ACC:[^ ]+]] = %[[ZERO]]) -> (f32)
// CHECK:             %[[R2:.*]] = scf.for
// CHECK:               arith.subf
// CHECK:             %[[C:.*]] = math.sqrt %[[R2]] : f32
// CHECK:             %[[VJ:.*]] = tensor.extract %[[V]][%[[J]]] : tensor<100xf32>
// CHECK:             %[[UV:.*]] = arith.addf %[[UI]], %[[VJ]] : f32
// CHECK:             %[[CE:.*]] = arith.divf %[[C]], %[[E]] : f32
// CHECK:             %[[ARG:.*]] = arith.subf %[[UV]], %[[CE]] : f32
// CHECK:             %[[P:.*]] = math.exp %[[ARG]] : f32
// CHECK:             %[[T:.*]] = arith.mulf %[[P]], %[[C]] : f32
// CHECK:             %[[NACC:.*]] = arith.addf %[[ACC]], %[[T]] : f32
// CHECK:             scf.yield %[[NACC]] : f32
// CHECK:           %[[INS:.*]] = tensor.insert %[[SUM]] into %[[OUT]][%[[I]]] : tensor<16xf32>
// CHECK:           scf.yield %[[INS]] : tensor<16xf32>
// CHECK:         return %[[RES]] : tensor<16xf32>
func.func @transport_cost_static(%x: tensor<16x3xf32>, %y: tensor<100x3xf32>, %u: tensor<16xf32>, %v: tensor<100xf32>, %eps: tensor<f32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %r = mixer.transport_cost cost(laplacian) ins(%x, %y, %u, %v, %eps : tensor<16x3xf32>, tensor<100x3xf32>, tensor<16xf32>, tensor<100xf32>, tensor<f32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Batched, dynamic N, M and D: indices carry the batch in front; the
// gaussian cost r^2 / 2.

// CHECK-LABEL: func.func @transport_cost_batched_dynamic
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x?x?xf32>, %[[Y:[^:]*]]: tensor<2x?x?xf32>, %[[U:[^:]*]]: tensor<2x?xf32>, %[[V:[^:]*]]: tensor<2x?xf32>
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:         scf.for %[[B:[^ ]+]] =
// CHECK:           scf.for %[[I:[^ ]+]] =
// CHECK:             tensor.extract %[[U]][%[[B]], %[[I]]] : tensor<2x?xf32>
// CHECK:             scf.for %[[J:[^ ]+]] =
// CHECK:               tensor.extract %[[X]][%[[B]], %[[I]], %{{.*}}] : tensor<2x?x?xf32>
// CHECK:               tensor.extract %[[Y]][%[[B]], %[[J]], %{{.*}}] : tensor<2x?x?xf32>
// CHECK:             arith.mulf %{{.*}}, %[[HALF]] : f32
// CHECK:             tensor.extract %[[V]][%[[B]], %[[J]]] : tensor<2x?xf32>
// CHECK:           tensor.insert %{{.*}} into %{{.*}}[%[[B]], %[[I]]] : tensor<2x?xf32>
// CHECK:         return
func.func @transport_cost_batched_dynamic(%x: tensor<2x?x?xf32>, %y: tensor<2x?x?xf32>, %u: tensor<2x?xf32>, %v: tensor<2x?xf32>, %eps: tensor<f32>, %o: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %r = mixer.transport_cost cost(gaussian) ins(%x, %y, %u, %v, %eps : tensor<2x?x?xf32>, tensor<2x?x?xf32>, tensor<2x?xf32>, tensor<2x?xf32>, tensor<f32>) outs(%o : tensor<2x?xf32>) -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}
