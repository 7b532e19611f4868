// RUN: mixer-opt %s --mixer-generate-vjp --split-input-file | FileCheck %s
// mixer.sinkhorn's VJP: mixer.sinkhorn_backward on the recomputed
// potentials, the transport cost's cotangent as d_cost, and the cotangents
// of f and g (function arguments here) as df and dg, which the run-time
// checks require to be zero. eps gets no gradient (a zero fill).

// CHECK-LABEL: func.func @transport_vjp(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<8x3xf32>, %[[Y:[^:]*]]: tensor<16x3xf32>, %[[LA:[^:]*]]: tensor<8xf32>, %[[LB:[^:]*]]: tensor<16xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[DF:[^:]*]]: tensor<8xf32>, %[[DG:[^:]*]]: tensor<16xf32>, %[[DC:[^:]*]]: tensor<f32>,
// CHECK:         %[[F:[^,]*]], %[[G:[^,]*]], %{{.*}} = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%[[X]], %[[Y]], %[[LA]], %[[LB]], %[[EPS]] :
// CHECK:         %[[R:[^,]*]], %{{[^,]*}}, %{{[^,]*}}, %[[R3:[^ ]*]] = mixer.sinkhorn_backward cost(sqeuclidean) ins(%[[X]], %[[Y]], %[[LA]], %[[LB]], %[[EPS]], %[[F]], %[[G]], %[[DC]] : {{.*}}) df(%[[DF]] : tensor<8xf32>) dg(%[[DG]] : tensor<16xf32>) outs(
// CHECK-DAG:     linalg.copy ins(%[[R]] : tensor<8x3xf32>)
// CHECK-DAG:     linalg.copy ins(%[[R3]] : tensor<16xf32>)
// CHECK-DAG:     linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>)
func.func @transport(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f0: tensor<8xf32> {bufferization.writable = true}, %g0: tensor<16xf32> {bufferization.writable = true}, %c0: tensor<f32> {bufferization.writable = true}) -> (tensor<8xf32>, tensor<16xf32>, tensor<f32>) {
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %eps : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%f0, %g0, %c0 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return %f, %g, %c : tensor<8xf32>, tensor<16xf32>, tensor<f32>
}

// -----

// Only the transport cost is returned: f and g have no cotangent, and the
// backward op gets no df or dg.

// CHECK-LABEL: func.func @cost_only_vjp(
// CHECK:         mixer.sinkhorn cost(laplacian)
// CHECK:         mixer.sinkhorn_backward cost(laplacian) ins({{.*}}) outs(
func.func @cost_only(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %c0: tensor<f32> {bufferization.writable = true}) -> tensor<f32> {
  %fe = tensor.empty() : tensor<8xf32>
  %ge = tensor.empty() : tensor<16xf32>
  %f, %g, %c = mixer.sinkhorn cost(laplacian) iterations(10) ins(%x, %y, %la, %lb, %eps : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%fe, %ge, %c0 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return %c : tensor<f32>
}
