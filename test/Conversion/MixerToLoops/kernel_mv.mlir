// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s

// The dense double loop: for every row i, out[i, :] is zeroed, then for
// every column j the kernel value k(x_i, y_j) is computed from the directly
// summed r^2 and k v[j, :] added to out[i, :]. The kernel's coefficient
// (sqrt(3) / h for matern32) is computed once, outside the loops.

// CHECK-LABEL: func.func @kernel_mv_matern32
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<16x3xf32>, %[[Y:[^:]*]]: tensor<100x3xf32>, %[[V:[^:]*]]: tensor<100x8xf32>, %[[H:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<16x8xf32>)
// CHECK-DAG:     %[[SQRT3:.*]] = arith.constant 1.73205078 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C100:.*]] = arith.constant 100 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[HV:.*]] = tensor.extract %[[H]][] : tensor<f32>
// CHECK:         %[[COEF:.*]] = arith.divf %[[SQRT3]], %[[HV]] : f32
// CHECK:         %[[RES:.*]] = scf.for %[[I:[^ ]+]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[OUT:[^ ]+]] = %[[O]])
// CHECK:           %[[ZEROED:.*]] = scf.for %[[C:[^ ]+]] = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[OZ:[^ ]+]] = %[[OUT]])
// CHECK:             tensor.insert %[[ZERO]] into %[[OZ]][%[[I]], %[[C]]] : tensor<16x8xf32>
// CHECK:           %[[ROW:.*]] = scf.for %[[J:[^ ]+]] = %[[C0]] to %[[C100]] step %[[C1]] iter_args(%[[OJ:[^ ]+]] = %[[ZEROED]])
// CHECK:             %[[R2:.*]] = scf.for %{{.*}} = %[[C0]] to %[[C3]] step %[[C1]]
// CHECK:               arith.subf
// CHECK:             %[[R:.*]] = math.sqrt %[[R2]] : f32
// CHECK:             %[[T:.*]] = arith.mulf %[[COEF]], %[[R]] : f32
// CHECK:             %[[NT:.*]] = arith.negf %[[T]] : f32
// CHECK:             %[[CL:.*]] = arith.minimumf %[[NT]], %[[ZERO]] : f32
// CHECK:             %[[E:.*]] = math.exp %[[CL]] : f32
// CHECK:             %[[P:.*]] = arith.addf %[[T]], %[[ONE]] : f32
// CHECK:             %[[K:.*]] = arith.mulf %[[P]], %[[E]] : f32
// CHECK:             %[[UPD:.*]] = scf.for %[[C2:[^ ]+]] = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[OC:[^ ]+]] = %[[OJ]])
// CHECK:               %[[VV:.*]] = tensor.extract %[[V]][%[[J]], %[[C2]]] : tensor<100x8xf32>
// CHECK:               %[[TERM:.*]] = arith.mulf %[[K]], %[[VV]] : f32
// CHECK:               %[[OLD:.*]] = tensor.extract %[[OC]][%[[I]], %[[C2]]] : tensor<16x8xf32>
// CHECK:               %[[NEW:.*]] = arith.addf %[[OLD]], %[[TERM]] : f32
// CHECK:               %[[INS:.*]] = tensor.insert %[[NEW]] into %[[OC]][%[[I]], %[[C2]]] : tensor<16x8xf32>
// CHECK:               scf.yield %[[INS]]
// CHECK:             scf.yield %[[UPD]]
// CHECK:           scf.yield %[[ROW]]
// CHECK:         return %[[RES]]
func.func @kernel_mv_matern32(%x: tensor<16x3xf32>, %y: tensor<100x3xf32>, %v: tensor<100x8xf32>, %h: tensor<f32>, %o: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %r = mixer.kernel_mv kernel(matern32) ins(%x, %y, %v, %h : tensor<16x3xf32>, tensor<100x3xf32>, tensor<100x8xf32>, tensor<f32>) outs(%o : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// The linear kernel is the dot product <x_i, y_j> (the bandwidth is not
// read); batched indices carry the batch in front.

// CHECK-LABEL: func.func @kernel_mv_linear_batched
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x?x3xf32>, %[[Y:[^:]*]]: tensor<2x?x3xf32>, %[[V:[^:]*]]: tensor<2x?x4xf32>, %[[H:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<2x?x4xf32>)
// CHECK-NOT:     tensor.extract %[[H]]
// CHECK:         scf.for %[[B:[^ ]+]] =
// CHECK:           scf.for %[[I:[^ ]+]] =
// CHECK:             tensor.insert %{{.*}} into %{{.*}}[%[[B]], %[[I]], %{{.*}}] : tensor<2x?x4xf32>
// CHECK:             scf.for %[[J:[^ ]+]] =
// CHECK:               scf.for %[[D:[^ ]+]] =
// CHECK:                 %[[XV:.*]] = tensor.extract %[[X]][%[[B]], %[[I]], %[[D]]] : tensor<2x?x3xf32>
// CHECK:                 %[[YV:.*]] = tensor.extract %[[Y]][%[[B]], %[[J]], %[[D]]] : tensor<2x?x3xf32>
// CHECK:                 %[[P:.*]] = arith.mulf %[[XV]], %[[YV]] : f32
// CHECK-NOT:           math.
// CHECK:               tensor.extract %[[V]][%[[B]], %[[J]], %{{.*}}] : tensor<2x?x4xf32>
func.func @kernel_mv_linear_batched(%x: tensor<2x?x3xf32>, %y: tensor<2x?x3xf32>, %v: tensor<2x?x4xf32>, %h: tensor<f32>, %o: tensor<2x?x4xf32>) -> tensor<2x?x4xf32> {
  %r = mixer.kernel_mv kernel(linear) ins(%x, %y, %v, %h : tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?x4xf32>, tensor<f32>) outs(%o : tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  return %r : tensor<2x?x4xf32>
}
