// RUN: mixer-opt %s --mixer-decompose-composites --split-input-file | FileCheck %s

// mixer.kernel_mv_backward becomes one row-blocked sum per gradient: the
// point gradient of x (rows i), that of y with x and y (v and dout)
// exchanged (rows j), and dv as the forward kernel_mv with x and y
// exchanged. The bandwidth gradient is -(1/h) times the moments
// sum <p - c, dp> of both point sets about the mean c of y.

// CHECK-LABEL: func.func @kernel_mv_backward
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<100x3xf32>, %[[Y:[^:]*]]: tensor<80x3xf32>, %[[V:[^:]*]]: tensor<80x4xf32>, %[[H:[^:]*]]: tensor<f32>, %[[D:[^:]*]]: tensor<100x4xf32>, %[[DX0:[^:]*]]: tensor<100x3xf32>, %[[DY0:[^:]*]]: tensor<80x3xf32>, %[[DV0:[^:]*]]: tensor<80x4xf32>, %[[DH0:[^:]*]]: tensor<f32>)
// CHECK:         %[[DX:.*]] = mixer.kernel_mv_point_grad kernel(gaussian) ins(%[[X]], %[[Y]], %[[V]], %[[D]], %[[H]] : {{.*}}) outs(%[[DX0]] : tensor<100x3xf32>)
// CHECK:         %[[DY:.*]] = mixer.kernel_mv_point_grad kernel(gaussian) ins(%[[Y]], %[[X]], %[[D]], %[[V]], %[[H]] : {{.*}}) outs(%[[DY0]] : tensor<80x3xf32>)
// CHECK:         %[[DV:.*]] = mixer.kernel_mv kernel(gaussian) ins(%[[Y]], %[[X]], %[[D]], %[[H]] : {{.*}}) outs(%[[DV0]] : tensor<80x4xf32>)
// CHECK:         %[[C:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[Y]] : tensor<80x3xf32>)
// CHECK:         %[[QX:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]} ins(%[[X]], %[[DX]], %[[C]] : tensor<100x3xf32>, tensor<100x3xf32>, tensor<3xf32>)
// CHECK:         %[[QY:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]} ins(%[[Y]], %[[DY]], %[[C]] : tensor<80x3xf32>, tensor<80x3xf32>, tensor<3xf32>)
// CHECK:         %[[DH:.*]] = linalg.generic {{.*}} ins(%[[QX]], %[[QY]], %[[H]] : tensor<f32>, tensor<f32>, tensor<f32>) outs(%[[DH0]] : tensor<f32>)
// CHECK:           arith.divf
// CHECK:           arith.negf
// CHECK:         return %[[DX]], %[[DY]], %[[DV]], %[[DH]]
func.func @kernel_mv_backward(%x: tensor<100x3xf32>, %y: tensor<80x3xf32>, %v: tensor<80x4xf32>, %h: tensor<f32>, %d: tensor<100x4xf32>, %dx0: tensor<100x3xf32>, %dy0: tensor<80x3xf32>, %dv0: tensor<80x4xf32>, %dh0: tensor<f32>) -> (tensor<100x3xf32>, tensor<80x3xf32>, tensor<80x4xf32>, tensor<f32>) {
  %dx, %dy, %dv, %dh = mixer.kernel_mv_backward kernel(gaussian)
      ins(%x, %y, %v, %h, %d : tensor<100x3xf32>, tensor<80x3xf32>, tensor<80x4xf32>, tensor<f32>, tensor<100x4xf32>)
      outs(%dx0, %dy0, %dv0, %dh0 : tensor<100x3xf32>, tensor<80x3xf32>, tensor<80x4xf32>, tensor<f32>)
      -> tensor<100x3xf32>, tensor<80x3xf32>, tensor<80x4xf32>, tensor<f32>
  return %dx, %dy, %dv, %dh : tensor<100x3xf32>, tensor<80x3xf32>, tensor<80x4xf32>, tensor<f32>
}

// -----

// The linear kernel has no bandwidth: its gradient is filled with 0.

// CHECK-LABEL: func.func @kernel_mv_backward_linear
// CHECK:         mixer.kernel_mv_point_grad kernel(linear)
// CHECK:         mixer.kernel_mv_point_grad kernel(linear)
// CHECK:         mixer.kernel_mv kernel(linear)
// CHECK:         %[[DH:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @kernel_mv_backward_linear(%x: tensor<2x10x3xf32>, %y: tensor<2x8x3xf32>, %v: tensor<2x8x4xf32>, %h: tensor<f32>, %d: tensor<2x10x4xf32>, %dx0: tensor<2x10x3xf32>, %dy0: tensor<2x8x3xf32>, %dv0: tensor<2x8x4xf32>, %dh0: tensor<f32>) -> (tensor<2x10x3xf32>, tensor<2x8x3xf32>, tensor<2x8x4xf32>, tensor<f32>) {
  %dx, %dy, %dv, %dh = mixer.kernel_mv_backward kernel(linear)
      ins(%x, %y, %v, %h, %d : tensor<2x10x3xf32>, tensor<2x8x3xf32>, tensor<2x8x4xf32>, tensor<f32>, tensor<2x10x4xf32>)
      outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x10x3xf32>, tensor<2x8x3xf32>, tensor<2x8x4xf32>, tensor<f32>)
      -> tensor<2x10x3xf32>, tensor<2x8x3xf32>, tensor<2x8x4xf32>, tensor<f32>
  return %dx, %dy, %dv, %dh : tensor<2x10x3xf32>, tensor<2x8x3xf32>, tensor<2x8x4xf32>, tensor<f32>
}

// -----

// mixer.kernel_lse_backward: the row gradients with a = -out, b = g and unit
// weights, scaled by dout; then the column pass with x and y exchanged,
// a = g, b = -out and the weights dout, which gives dy and dg.

// CHECK-LABEL: func.func @kernel_lse_backward
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<100x3xf32>, %[[Y:[^:]*]]: tensor<80x3xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[OUT:[^:]*]]: tensor<100xf32>, %[[D:[^:]*]]: tensor<100xf32>, %[[G:[^:]*]]: tensor<80xf32>, %[[DX0:[^:]*]]: tensor<100x3xf32>, %[[DY0:[^:]*]]: tensor<80x3xf32>, %[[DG0:[^:]*]]: tensor<80xf32>)
// CHECK:         %[[NEG:.*]] = linalg.generic {{.*}} ins(%[[OUT]] : tensor<100xf32>)
// CHECK:           arith.negf
// CHECK:         %[[ONES:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<80xf32>)
// CHECK:         %[[ROWS:[^,]*]], %{{.*}} = mixer.kernel_lse_point_grad kernel(laplacian) ins(%[[X]], %[[Y]], %[[EPS]], %[[NEG]], %[[G]], %[[ONES]] : {{.*}})
// CHECK:         %[[DX:.*]] = linalg.generic {{.*}} ins(%[[ROWS]], %[[D]] : tensor<100x3xf32>, tensor<100xf32>) outs(%[[DX0]] : tensor<100x3xf32>)
// CHECK:           arith.mulf
// CHECK:         %[[DY:[^,]*]], %[[DG:.*]] = mixer.kernel_lse_point_grad kernel(laplacian) ins(%[[Y]], %[[X]], %[[EPS]], %[[G]], %[[NEG]], %[[D]] : {{.*}}) outs(%[[DY0]], %[[DG0]] : tensor<80x3xf32>, tensor<80xf32>)
// CHECK:         return %[[DX]], %[[DY]], %[[DG]]
func.func @kernel_lse_backward(%x: tensor<100x3xf32>, %y: tensor<80x3xf32>, %eps: tensor<f32>, %out: tensor<100xf32>, %d: tensor<100xf32>, %g: tensor<80xf32>, %dx0: tensor<100x3xf32>, %dy0: tensor<80x3xf32>, %dg0: tensor<80xf32>) -> (tensor<100x3xf32>, tensor<80x3xf32>, tensor<80xf32>) {
  %dx, %dy, %dg = mixer.kernel_lse_backward kernel(laplacian)
      ins(%x, %y, %eps, %out, %d : tensor<100x3xf32>, tensor<80x3xf32>, tensor<f32>, tensor<100xf32>, tensor<100xf32>)
      g(%g : tensor<80xf32>)
      outs(%dx0, %dy0, %dg0 : tensor<100x3xf32>, tensor<80x3xf32>, tensor<80xf32>)
      -> tensor<100x3xf32>, tensor<80x3xf32>, tensor<80xf32>
  return %dx, %dy, %dg : tensor<100x3xf32>, tensor<80x3xf32>, tensor<80xf32>
}

// -----

// Without g, the log-weights are a tensor of zeros.

// CHECK-LABEL: func.func @kernel_lse_backward_without_g
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x8xf32>)
// CHECK:         mixer.kernel_lse_point_grad kernel(sqeuclidean) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ZEROS]], %{{.*}} : {{.*}})
// CHECK:         mixer.kernel_lse_point_grad kernel(sqeuclidean) ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZEROS]], %{{.*}}, %{{.*}} : {{.*}})
func.func @kernel_lse_backward_without_g(%x: tensor<2x10x3xf32>, %y: tensor<2x8x3xf32>, %eps: tensor<f32>, %out: tensor<2x10xf32>, %d: tensor<2x10xf32>, %dx0: tensor<2x10x3xf32>, %dy0: tensor<2x8x3xf32>, %dg0: tensor<2x8xf32>) -> (tensor<2x10x3xf32>, tensor<2x8xf32>) {
  %dx, %dy, %dg = mixer.kernel_lse_backward kernel(sqeuclidean)
      ins(%x, %y, %eps, %out, %d : tensor<2x10x3xf32>, tensor<2x8x3xf32>, tensor<f32>, tensor<2x10xf32>, tensor<2x10xf32>)
      outs(%dx0, %dy0, %dg0 : tensor<2x10x3xf32>, tensor<2x8x3xf32>, tensor<2x8xf32>)
      -> tensor<2x10x3xf32>, tensor<2x8x3xf32>, tensor<2x8xf32>
  return %dx, %dg : tensor<2x10x3xf32>, tensor<2x8xf32>
}
