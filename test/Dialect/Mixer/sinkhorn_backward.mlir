// RUN: mixer-opt %s | mixer-opt | FileCheck %s
// RUN: mixer-opt %s --mlir-print-op-generic | mixer-opt | FileCheck %s
// Round trip of mixer.sinkhorn_backward: without the potentials'
// cotangents, with both, and with dynamic point counts.

// CHECK-LABEL: func.func @sinkhorn_backward_minimal
// CHECK:         mixer.sinkhorn_backward cost(sqeuclidean) ins(%{{.*}} : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(
// CHECK-SAME:    -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
func.func @sinkhorn_backward_minimal(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) -> tensor<8x3xf32> {
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return %r#0 : tensor<8x3xf32>
}

// CHECK-LABEL: func.func @sinkhorn_backward_potential_cotangents
// CHECK:         mixer.sinkhorn_backward cost(laplacian) ins(
// CHECK-SAME:    df(%{{.*}} : tensor<8xf32>) dg(%{{.*}} : tensor<16xf32>) outs(
func.func @sinkhorn_backward_potential_cotangents(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %df: tensor<8xf32>, %dg: tensor<16xf32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) -> tensor<16xf32> {
  %r:4 = mixer.sinkhorn_backward cost(laplacian) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) df(%df : tensor<8xf32>) dg(%dg : tensor<16xf32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return %r#3 : tensor<16xf32>
}

// CHECK-LABEL: func.func @sinkhorn_backward_dynamic
// CHECK:         mixer.sinkhorn_backward cost(gaussian) ins(
// CHECK-SAME:    dg(%{{.*}} : tensor<?xf32>) outs(
// CHECK-SAME:    -> tensor<?x2xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>
func.func @sinkhorn_backward_dynamic(%x: tensor<?x2xf32>, %y: tensor<?x2xf32>, %la: tensor<?xf32>, %lb: tensor<?xf32>, %eps: tensor<f32>, %f: tensor<?xf32>, %g: tensor<?xf32>, %dc: tensor<f32>, %dg: tensor<?xf32>, %o0: tensor<?x2xf32>, %o1: tensor<?x2xf32>, %o2: tensor<?xf32>, %o3: tensor<?xf32>) -> tensor<?xf32> {
  %r:4 = mixer.sinkhorn_backward cost(gaussian) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<?x2xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>) dg(%dg : tensor<?xf32>) outs(%o0, %o1, %o2, %o3 : tensor<?x2xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x2xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>
  return %r#2 : tensor<?xf32>
}
