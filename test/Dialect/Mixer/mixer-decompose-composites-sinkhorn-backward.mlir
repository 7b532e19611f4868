// RUN: mixer-opt %s --mixer-decompose-composites | FileCheck %s

// mixer.sinkhorn_backward becomes two kernel_lse_point_grad sums, one over
// the rows of x (shifts f/eps + log_a and g/eps, column weights
// b = exp(log_b)) and one over the rows of y (the shifts exchanged, unit
// weights), scaled by -eps d_cost (and b_j for dy), and elementwise
// dlog_a = d_cost exp(log_a) f, dlog_b = d_cost b g. df and dg are not
// read (the run-time checks require them to be zero).

// CHECK-LABEL: func.func @sinkhorn_backward
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<8x3xf32>, %[[Y:[^:]*]]: tensor<16x3xf32>, %[[LA:[^:]*]]: tensor<8xf32>, %[[LB:[^:]*]]: tensor<16xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[F:[^:]*]]: tensor<8xf32>, %[[G:[^:]*]]: tensor<16xf32>, %[[DC:[^:]*]]: tensor<f32>, %[[DF:[^:]*]]: tensor<8xf32>, %[[DX0:[^:]*]]: tensor<8x3xf32>, %[[DY0:[^:]*]]: tensor<16x3xf32>, %[[DLA0:[^:]*]]: tensor<8xf32>, %[[DLB0:[^:]*]]: tensor<16xf32>)
// CHECK-DAG:     %[[E:.*]] = tensor.extract %[[EPS]][] : tensor<f32>
// CHECK-DAG:     %[[S:.*]] = tensor.extract %[[DC]][] : tensor<f32>
// CHECK:         %[[ROW:.*]] = linalg.generic {{.*}} ins(%[[F]], %[[LA]] : tensor<8xf32>, tensor<8xf32>)
// CHECK:         %[[COL:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<16xf32>)
// CHECK:         %[[B:.*]] = linalg.generic {{.*}} ins(%[[LB]] : tensor<16xf32>)
// CHECK:           math.exp
// CHECK:         %[[PX:[^ ]*]], %{{.*}} = mixer.kernel_lse_point_grad kernel(gaussian) ins(%[[X]], %[[Y]], %[[EPS]], %[[ROW]], %[[COL]], %[[B]] :
// CHECK:         %[[DX:.*]] = linalg.generic {{.*}} ins(%[[PX]] : tensor<8x3xf32>) outs(%[[DX0]] : tensor<8x3xf32>)
// CHECK:         %[[PY:[^ ]*]], %{{.*}} = mixer.kernel_lse_point_grad kernel(gaussian) ins(%[[Y]], %[[X]], %[[EPS]], %[[COL]], %[[ROW]], %{{.*}} :
// CHECK:         %[[DY:.*]] = linalg.generic {{.*}} ins(%[[PY]], %[[B]] : tensor<16x3xf32>, tensor<16xf32>) outs(%[[DY0]] : tensor<16x3xf32>)
// CHECK:         %[[DLA:.*]] = linalg.generic {{.*}} ins(%[[LA]], %[[F]] : tensor<8xf32>, tensor<8xf32>) outs(%[[DLA0]] : tensor<8xf32>)
// CHECK:           math.exp
// CHECK:         %[[DLB:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[G]] : tensor<16xf32>, tensor<16xf32>) outs(%[[DLB0]] : tensor<16xf32>)
// CHECK-NOT:     mixer.sinkhorn_backward
// CHECK:         return %[[DX]], %[[DY]], %[[DLA]], %[[DLB]]
func.func @sinkhorn_backward(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %df: tensor<8xf32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) -> (tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) {
  %r:4 = mixer.sinkhorn_backward cost(gaussian) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) df(%df : tensor<8xf32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
}
