// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s

// The scalar form of mixer.kernel_mv_point_grad: per row i, dx[i, :] = 0,
// then for every column j, w = <dout_i, v_j> and
// dx[i, :] += 2 w k'(r^2) (x_i - y_j) (batched: every loop inside the one
// over Bt).

// CHECK-LABEL: func.func @kernel_mv_point_grad_gaussian
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x8x3xf32>, %[[Y:[^:]*]]: tensor<2x16x3xf32>, %[[V:[^:]*]]: tensor<2x16x4xf32>, %[[D:[^:]*]]: tensor<2x8x4xf32>, %[[H:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<2x8x3xf32>)
// CHECK-DAG:     %[[TWO:[^ ]*]] = arith.constant 2.000000e+00 : f32
// CHECK:         %[[R:[^ ]*]] = scf.for %[[BT:[^ ]*]] = {{.*}} iter_args(%[[OB:[^ ]*]] = %[[O]])
// CHECK:           scf.for %[[I:[^ ]*]] = {{.*}} iter_args(%[[OI:[^ ]*]] = %[[OB]])
// CHECK:             %[[ZEROED:[^ ]*]] = scf.for
// CHECK:             scf.for %[[J:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %[[ZEROED]])
// CHECK:               %[[W:[^ ]*]] = scf.for %[[C:[^ ]*]] =
// CHECK:                 tensor.extract %[[D]][%[[BT]], %[[I]], %[[C]]]
// CHECK:                 tensor.extract %[[V]][%[[BT]], %[[J]], %[[C]]]
// CHECK:               %[[R2:[^ ]*]] = scf.for
// CHECK:               %[[W2:[^ ]*]] = arith.mulf %[[W]], %[[TWO]]
// CHECK:               %[[SC:[^ ]*]] = arith.mulf %[[W2]], %{{.*}}
// CHECK:               scf.for
// CHECK:                 arith.subf
// CHECK:                 arith.mulf %[[SC]]
// CHECK:         return %[[R]]
func.func @kernel_mv_point_grad_gaussian(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x4xf32>, %d: tensor<2x8x4xf32>, %h: tensor<f32>, %o: tensor<2x8x3xf32>) -> tensor<2x8x3xf32> {
  %dx = mixer.kernel_mv_point_grad kernel(gaussian) ins(%x, %y, %v, %d, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x8x4xf32>, tensor<f32>) outs(%o : tensor<2x8x3xf32>) -> tensor<2x8x3xf32>
  return %dx : tensor<2x8x3xf32>
}

// -----

// The linear kernel: dx[i, :] += w y_j, no distance and no bandwidth.

// CHECK-LABEL: func.func @kernel_mv_point_grad_linear
// CHECK-SAME:    (%{{[^:]*}}: tensor<?x3xf32>, %[[Y:[^:]*]]: tensor<?x3xf32>,
// CHECK-NOT:     arith.subf
// CHECK-NOT:     math.exp
// CHECK:         %[[W:[^ ]*]] = scf.for {{.*}} -> (f32) {
// CHECK-NEXT:      tensor.extract
// CHECK-NEXT:      tensor.extract
// CHECK-NEXT:      arith.mulf
// CHECK:         scf.for
// CHECK-NEXT:      %[[YJ:[^ ]*]] = tensor.extract %[[Y]]
// CHECK-NOT:     arith.subf
// CHECK:           arith.mulf %[[W]], %[[YJ]]
// CHECK-NOT:     arith.subf
// CHECK:         return
func.func @kernel_mv_point_grad_linear(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>, %v: tensor<?x2xf32>, %d: tensor<?x2xf32>, %h: tensor<f32>, %o: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %dx = mixer.kernel_mv_point_grad kernel(linear) ins(%x, %y, %v, %d, %h : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x2xf32>, tensor<?x2xf32>, tensor<f32>) outs(%o : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %dx : tensor<?x3xf32>
}
