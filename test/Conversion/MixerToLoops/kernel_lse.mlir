// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s

// The dense double loop: for every row i, a loop over all M columns j that
// sums (x_id - y_jd)^2 directly, forms a = -c/eps + g_j and updates the
// running max m and sum s (shift 0 while m is -inf); out[i] = m + log(s).
// -c/eps is a r^2 with a = -1/(2 eps) computed once, outside the loops.

// CHECK-LABEL: func.func @kernel_lse_static
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<16x3xf32>, %[[Y:[^:]*]]: tensor<100x3xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[G:[^:]*]]: tensor<100xf32>, %[[O:[^:]*]]: tensor<16xf32>)
// CHECK-DAG:     %[[NEGHALF:.*]] = arith.constant -5.000000e-01 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C100:.*]] = arith.constant 100 : index
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[E:.*]] = tensor.extract %[[EPS]][] : tensor<f32>
// CHECK:         %[[COEF:.*]] = arith.divf %[[NEGHALF]], %[[E]] : f32
// CHECK:         %[[RES:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[OUT:.*]] = %[[O]])
// CHECK:           %[[LSE:.*]]:2 = scf.for %[[J:.*]] = %[[C0]] to %[[C100]] step %[[C1]] iter_args(%[[M:.*]] = %[[NEGINF]], %[[S:.*]] = %[[ZERO]]) -> (f32, f32)
// CHECK:             %[[R2:.*]] = scf.for %[[D:.*]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32)
// CHECK:               %[[XV:.*]] = tensor.extract %[[X]][%[[I]], %[[D]]] : tensor<16x3xf32>
// CHECK:               %[[YV:.*]] = tensor.extract %[[Y]][%[[J]], %[[D]]] : tensor<100x3xf32>
// CHECK:               %[[DIFF:.*]] = arith.subf %[[XV]], %[[YV]] : f32
// CHECK:               %[[SQ:.*]] = arith.mulf %[[DIFF]], %[[DIFF]] : f32
// CHECK:               %[[NACC:.*]] = arith.addf %[[ACC]], %[[SQ]] : f32
// CHECK:               scf.yield %[[NACC]] : f32
// The gaussian cost r^2 / 2 over eps, negated.
// CHECK:             %[[NEG:.*]] = arith.mulf %[[COEF]], %[[R2]] : f32
// CHECK:             %[[GV:.*]] = tensor.extract %[[G]][%[[J]]] : tensor<100xf32>
// CHECK:             %[[A:.*]] = arith.addf %[[NEG]], %[[GV]] : f32
// CHECK:             %[[MN:.*]] = arith.maximumf %[[M]], %[[A]] : f32
// CHECK:             %[[ISINF:.*]] = arith.cmpf oeq, %[[MN]], %[[NEGINF]] : f32
// CHECK:             %[[SHIFT:.*]] = arith.select %[[ISINF]], %[[ZERO]], %[[MN]] : f32
// CHECK:             %[[D1:.*]] = arith.subf %[[M]], %[[SHIFT]] : f32
// CHECK:             %[[E1:.*]] = math.exp %[[D1]] : f32
// CHECK:             %[[SC:.*]] = arith.mulf %[[S]], %[[E1]] : f32
// CHECK:             %[[D2:.*]] = arith.subf %[[A]], %[[SHIFT]] : f32
// CHECK:             %[[E2:.*]] = math.exp %[[D2]] : f32
// CHECK:             %[[SN:.*]] = arith.addf %[[SC]], %[[E2]] : f32
// CHECK:             scf.yield %[[MN]], %[[SN]] : f32, f32
// CHECK:           %[[LOG:.*]] = math.log %[[LSE]]#1 : f32
// CHECK:           %[[V:.*]] = arith.addf %[[LSE]]#0, %[[LOG]] : f32
// CHECK:           %[[INS:.*]] = tensor.insert %[[V]] into %[[OUT]][%[[I]]] : tensor<16xf32>
// CHECK:           scf.yield %[[INS]] : tensor<16xf32>
// CHECK:         return %[[RES]] : tensor<16xf32>
func.func @kernel_lse_static(%x: tensor<16x3xf32>, %y: tensor<100x3xf32>, %eps: tensor<f32>, %g: tensor<100xf32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %r = mixer.kernel_lse kernel(gaussian) ins(%x, %y, %eps : tensor<16x3xf32>, tensor<100x3xf32>, tensor<f32>) g(%g : tensor<100xf32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Batched, dynamic N and M, no g: a batch loop outside, the cost
// sqrt(r^2) (laplacian), indices with the batch in front.

// CHECK-LABEL: func.func @kernel_lse_batched
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x?x3xf32>, %[[Y:[^:]*]]: tensor<2x?x3xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<2x?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[N:.*]] = tensor.dim %[[X]], %[[C1]] : tensor<2x?x3xf32>
// CHECK-DAG:     %[[M:.*]] = tensor.dim %[[Y]], %[[C1]] : tensor<2x?x3xf32>
// CHECK:         scf.for %[[B:.*]] = %[[C0]] to %[[C2]] step %[[C1]]
// CHECK:           scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[OUT:.*]] = %{{.*}})
// CHECK:             %[[LSE:.*]]:2 = scf.for %[[J:.*]] = %[[C0]] to %[[M]] step %[[C1]]
// CHECK:               tensor.extract %[[X]][%[[B]], %[[I]], %{{.*}}] : tensor<2x?x3xf32>
// CHECK:               tensor.extract %[[Y]][%[[B]], %[[J]], %{{.*}}] : tensor<2x?x3xf32>
// CHECK:             %[[R:.*]] = math.sqrt
// CHECK-NOT:         tensor.extract
// CHECK:             scf.yield
// CHECK:           tensor.insert %{{.*}} into %[[OUT]][%[[B]], %[[I]]] : tensor<2x?xf32>
func.func @kernel_lse_batched(%x: tensor<2x?x3xf32>, %y: tensor<2x?x3xf32>, %eps: tensor<f32>, %o: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %r = mixer.kernel_lse kernel(laplacian) ins(%x, %y, %eps : tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<f32>) outs(%o : tensor<2x?xf32>) -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}
