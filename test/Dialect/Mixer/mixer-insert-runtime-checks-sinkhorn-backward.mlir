// RUN: mixer-opt %s --mixer-insert-runtime-checks | FileCheck %s
// The cotangents of sinkhorn's potentials must be zero: one reduction to
// the largest |element| of each, compared with 0 (NaN fails), and a
// message naming the operand.

// CHECK-DAG: llvm.mlir.global internal constant @[[DF:__mixer_check_message_[0-9]+]]("mixer.sinkhorn_backward: 'df' holds a nonzero value; it must be zero (this op has no gradient through it)\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[DG:__mixer_check_message_[0-9]+]]("mixer.sinkhorn_backward: 'dg' holds a nonzero value; it must be zero (this op has no gradient through it)\00")
// CHECK-LABEL: func.func @sinkhorn_backward_checks
// CHECK-SAME:    %[[DFA:[^:]*]]: tensor<8xf32>, %[[DGA:[^:]*]]: tensor<16xf32>, %{{[^:]*}}: tensor<8x3xf32>
// CHECK:         %[[MAXDF:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%[[DFA]] : tensor<8xf32>)
// CHECK:           math.absf
// CHECK:           arith.maximumf
// CHECK:         %[[VDF:.*]] = tensor.extract %[[MAXDF]][] : tensor<f32>
// CHECK:         arith.cmpf oeq, %[[VDF]], %{{.*}} : f32
// CHECK:         linalg.generic {{.*}} ins(%[[DGA]] : tensor<16xf32>)
// CHECK:         scf.if
// CHECK-NEXT:      mixer.sinkhorn_backward
// CHECK:           llvm.mlir.addressof @[[DF]]
// CHECK:           llvm.mlir.addressof @[[DG]]
func.func @sinkhorn_backward_checks(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %df: tensor<8xf32>, %dg: tensor<16xf32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) -> tensor<8x3xf32> {
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) df(%df : tensor<8xf32>) dg(%dg : tensor<16xf32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return %r#0 : tensor<8x3xf32>
}
