// RUN: mixer-opt %s -split-input-file -verify-diagnostics
// Every verifier error of the backward ops of the kernel sums and the MoE
// ops (the errors of the forward ops are in invalid.mlir).

func.func @kernel_mv_backward_cost_kind(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{attribute 'kernel' sqeuclidean is a cost, not a kernel (use it with mixer.kernel_lse or mixer.sinkhorn)}}
  %r:4 = mixer.kernel_mv_backward kernel(sqeuclidean) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_x_rank(%x: tensor<1x2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{operand 'x' must have rank 2 [N, D] or rank 3 [Bt, N, D], got rank 4}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<1x2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_y_d(%x: tensor<2x8x3xf32>, %y: tensor<2x16x4xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{'y' dim 2 (D) is 4, but 'x' dim 2 (D) is 3}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x4xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_v_m(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x15x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{'v' dim 1 (M) is 15, but 'y' dim 1 (M) is 16}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x15x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_bandwidth_rank(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<1xf32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{operand 'bandwidth' must have rank 0 [], got rank 1}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<1xf32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_dout_c(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x4xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{'dout' dim 2 (C) is 4, but 'v' dim 2 (C) is 5}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x4xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_dout_n(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x7x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{'dout' dim 1 (N) is 7, but 'x' dim 1 (N) is 8}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x7x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_outs_count(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>) {
  // expected-error @+1 {{expects 4 outs operands (one per result), got 3}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_dx(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x2xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{'dx' dim 2 (D) is 2, but 'x' dim 2 (D) is 3}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x2xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) -> tensor<2x8x2xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_dy(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x8x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{'dy' dim 1 (M) is 8, but 'y' dim 1 (M) is 16}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x8x3xf32>, tensor<2x16x5xf32>, tensor<f32>) -> tensor<2x8x3xf32>, tensor<2x8x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_dv(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x6xf32>, %dh0: tensor<f32>) {
  // expected-error @+1 {{'dv' dim 2 (C) is 6, but 'v' dim 2 (C) is 5}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x6xf32>, tensor<f32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x6xf32>, tensor<f32>
  return
}

// -----

func.func @kernel_mv_backward_dbandwidth(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<2xf32>) {
  // expected-error @+1 {{operand 'dbandwidth' must have rank 0 [], got rank 1}}
  %r:4 = mixer.kernel_mv_backward kernel(gaussian) ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<2xf32>) -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<2xf32>
  return
}

// -----

func.func @kernel_mv_point_grad_cost_kind(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %v: tensor<16x5xf32>, %d: tensor<8x5xf32>, %h: tensor<f32>, %o: tensor<8x3xf32>) {
  // expected-error @+1 {{attribute 'kernel' sqeuclidean is a cost, not a kernel (use it with mixer.kernel_lse or mixer.sinkhorn)}}
  %r = mixer.kernel_mv_point_grad kernel(sqeuclidean) ins(%x, %y, %v, %d, %h : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16x5xf32>, tensor<8x5xf32>, tensor<f32>) outs(%o : tensor<8x3xf32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @kernel_mv_point_grad_y_rank(%x: tensor<8x3xf32>, %y: tensor<1x16x3xf32>, %v: tensor<16x5xf32>, %d: tensor<8x5xf32>, %h: tensor<f32>, %o: tensor<8x3xf32>) {
  // expected-error @+1 {{operand 'y' must have rank 2 [M, D], got rank 3}}
  %r = mixer.kernel_mv_point_grad kernel(gaussian) ins(%x, %y, %v, %d, %h : tensor<8x3xf32>, tensor<1x16x3xf32>, tensor<16x5xf32>, tensor<8x5xf32>, tensor<f32>) outs(%o : tensor<8x3xf32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @kernel_mv_point_grad_v_m(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %v: tensor<12x5xf32>, %d: tensor<8x5xf32>, %h: tensor<f32>, %o: tensor<8x3xf32>) {
  // expected-error @+1 {{'v' dim 0 (M) is 12, but 'y' dim 0 (M) is 16}}
  %r = mixer.kernel_mv_point_grad kernel(gaussian) ins(%x, %y, %v, %d, %h : tensor<8x3xf32>, tensor<16x3xf32>, tensor<12x5xf32>, tensor<8x5xf32>, tensor<f32>) outs(%o : tensor<8x3xf32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @kernel_mv_point_grad_dout_c(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %v: tensor<16x5xf32>, %d: tensor<8x3xf32>, %h: tensor<f32>, %o: tensor<8x3xf32>) {
  // expected-error @+1 {{'dout' dim 1 (C) is 3, but 'v' dim 1 (C) is 5}}
  %r = mixer.kernel_mv_point_grad kernel(gaussian) ins(%x, %y, %v, %d, %h : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16x5xf32>, tensor<8x3xf32>, tensor<f32>) outs(%o : tensor<8x3xf32>) -> tensor<8x3xf32>
  return
}

// -----

func.func @kernel_mv_point_grad_dx(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %v: tensor<16x5xf32>, %d: tensor<8x5xf32>, %h: tensor<f32>, %o: tensor<4x3xf32>) {
  // expected-error @+1 {{'dx' dim 0 (N) is 4, but 'x' dim 0 (N) is 8}}
  %r = mixer.kernel_mv_point_grad kernel(gaussian) ins(%x, %y, %v, %d, %h : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16x5xf32>, tensor<8x5xf32>, tensor<f32>) outs(%o : tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @kernel_lse_backward_kernel_kind(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %out: tensor<8xf32>, %d: tensor<8xf32>, %g: tensor<16xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<16x3xf32>, %dg0: tensor<16xf32>) {
  // expected-error @+1 {{attribute 'kernel' must be a cost (sqeuclidean, gaussian or laplacian), got matern32}}
  %r:3 = mixer.kernel_lse_backward kernel(matern32) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>) g(%g : tensor<16xf32>) outs(%dx0, %dy0, %dg0 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>
  return
}

// -----

func.func @kernel_lse_backward_y_d(%x: tensor<8x3xf32>, %y: tensor<16x2xf32>, %eps: tensor<f32>, %out: tensor<8xf32>, %d: tensor<8xf32>, %g: tensor<16xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<16x3xf32>, %dg0: tensor<16xf32>) {
  // expected-error @+1 {{'y' dim 1 (D) is 2, but 'x' dim 1 (D) is 3}}
  %r:3 = mixer.kernel_lse_backward kernel(sqeuclidean) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x2xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>) g(%g : tensor<16xf32>) outs(%dx0, %dy0, %dg0 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>
  return
}

// -----

func.func @kernel_lse_backward_eps_rank(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<1xf32>, %out: tensor<8xf32>, %d: tensor<8xf32>, %g: tensor<16xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<16x3xf32>, %dg0: tensor<16xf32>) {
  // expected-error @+1 {{operand 'eps' must have rank 0 [], got rank 1}}
  %r:3 = mixer.kernel_lse_backward kernel(sqeuclidean) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<1xf32>, tensor<8xf32>, tensor<8xf32>) g(%g : tensor<16xf32>) outs(%dx0, %dy0, %dg0 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>
  return
}

// -----

func.func @kernel_lse_backward_out_n(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %out: tensor<7xf32>, %d: tensor<8xf32>, %g: tensor<16xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<16x3xf32>, %dg0: tensor<16xf32>) {
  // expected-error @+1 {{'out' dim 0 (N) is 7, but 'x' dim 0 (N) is 8}}
  %r:3 = mixer.kernel_lse_backward kernel(sqeuclidean) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<7xf32>, tensor<8xf32>) g(%g : tensor<16xf32>) outs(%dx0, %dy0, %dg0 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>
  return
}

// -----

func.func @kernel_lse_backward_dout_n(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %out: tensor<8xf32>, %d: tensor<9xf32>, %g: tensor<16xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<16x3xf32>, %dg0: tensor<16xf32>) {
  // expected-error @+1 {{'dout' dim 0 (N) is 9, but 'x' dim 0 (N) is 8}}
  %r:3 = mixer.kernel_lse_backward kernel(sqeuclidean) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<9xf32>) g(%g : tensor<16xf32>) outs(%dx0, %dy0, %dg0 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>
  return
}

// -----

func.func @kernel_lse_backward_g_m(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %out: tensor<8xf32>, %d: tensor<8xf32>, %g: tensor<15xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<16x3xf32>, %dg0: tensor<16xf32>) {
  // expected-error @+1 {{'g' dim 0 (M) is 15, but 'y' dim 0 (M) is 16}}
  %r:3 = mixer.kernel_lse_backward kernel(sqeuclidean) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>) g(%g : tensor<15xf32>) outs(%dx0, %dy0, %dg0 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>
  return
}

// -----

func.func @kernel_lse_backward_outs_count(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %out: tensor<8xf32>, %d: tensor<8xf32>, %g: tensor<16xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<16x3xf32>) {
  // expected-error @+1 {{expects 3 outs operands (one per result), got 2}}
  %r:3 = mixer.kernel_lse_backward kernel(sqeuclidean) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>) g(%g : tensor<16xf32>) outs(%dx0, %dy0 : tensor<8x3xf32>, tensor<16x3xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>
  return
}

// -----

func.func @kernel_lse_backward_dx(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %out: tensor<8xf32>, %d: tensor<8xf32>, %g: tensor<16xf32>, %dx0: tensor<8x4xf32>, %dy0: tensor<16x3xf32>, %dg0: tensor<16xf32>) {
  // expected-error @+1 {{'dx' dim 1 (D) is 4, but 'x' dim 1 (D) is 3}}
  %r:3 = mixer.kernel_lse_backward kernel(sqeuclidean) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>) g(%g : tensor<16xf32>) outs(%dx0, %dy0, %dg0 : tensor<8x4xf32>, tensor<16x3xf32>, tensor<16xf32>) -> tensor<8x4xf32>, tensor<16x3xf32>, tensor<16xf32>
  return
}

// -----

func.func @kernel_lse_backward_dy(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %out: tensor<8xf32>, %d: tensor<8xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<8x3xf32>, %dg0: tensor<16xf32>) {
  // expected-error @+1 {{'dy' dim 0 (M) is 8, but 'y' dim 0 (M) is 16}}
  %r:3 = mixer.kernel_lse_backward kernel(sqeuclidean) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>) outs(%dx0, %dy0, %dg0 : tensor<8x3xf32>, tensor<8x3xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<8x3xf32>, tensor<16xf32>
  return
}

// -----

func.func @kernel_lse_backward_dg(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %out: tensor<8xf32>, %d: tensor<8xf32>, %g: tensor<16xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<16x3xf32>, %dg0: tensor<17xf32>) {
  // expected-error @+1 {{'dg' dim 0 (M) is 17, but 'y' dim 0 (M) is 16}}
  %r:3 = mixer.kernel_lse_backward kernel(sqeuclidean) ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>) g(%g : tensor<16xf32>) outs(%dx0, %dy0, %dg0 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<17xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<17xf32>
  return
}

// -----

func.func @kernel_lse_point_grad_kernel_kind(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %a: tensor<8xf32>, %b: tensor<16xf32>, %w: tensor<16xf32>, %g0: tensor<8x3xf32>, %s0: tensor<8xf32>) {
  // expected-error @+1 {{attribute 'kernel' must be a cost (sqeuclidean, gaussian or laplacian), got linear}}
  %r:2 = mixer.kernel_lse_point_grad kernel(linear) ins(%x, %y, %eps, %a, %b, %w : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<16xf32>) outs(%g0, %s0 : tensor<8x3xf32>, tensor<8xf32>) -> tensor<8x3xf32>, tensor<8xf32>
  return
}

// -----

func.func @kernel_lse_point_grad_row_shift(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %a: tensor<16xf32>, %b: tensor<16xf32>, %w: tensor<16xf32>, %g0: tensor<8x3xf32>, %s0: tensor<8xf32>) {
  // expected-error @+1 {{'row_shift' dim 0 (N) is 16, but 'x' dim 0 (N) is 8}}
  %r:2 = mixer.kernel_lse_point_grad kernel(gaussian) ins(%x, %y, %eps, %a, %b, %w : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%g0, %s0 : tensor<8x3xf32>, tensor<8xf32>) -> tensor<8x3xf32>, tensor<8xf32>
  return
}

// -----

func.func @kernel_lse_point_grad_col_shift(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %a: tensor<8xf32>, %b: tensor<8xf32>, %w: tensor<16xf32>, %g0: tensor<8x3xf32>, %s0: tensor<8xf32>) {
  // expected-error @+1 {{'col_shift' dim 0 (M) is 8, but 'y' dim 0 (M) is 16}}
  %r:2 = mixer.kernel_lse_point_grad kernel(gaussian) ins(%x, %y, %eps, %a, %b, %w : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>, tensor<16xf32>) outs(%g0, %s0 : tensor<8x3xf32>, tensor<8xf32>) -> tensor<8x3xf32>, tensor<8xf32>
  return
}

// -----

func.func @kernel_lse_point_grad_col_weight(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %a: tensor<8xf32>, %b: tensor<16xf32>, %w: tensor<16x1xf32>, %g0: tensor<8x3xf32>, %s0: tensor<8xf32>) {
  // expected-error @+1 {{operand 'col_weight' must have rank 1 [M], got rank 2}}
  %r:2 = mixer.kernel_lse_point_grad kernel(gaussian) ins(%x, %y, %eps, %a, %b, %w : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<16x1xf32>) outs(%g0, %s0 : tensor<8x3xf32>, tensor<8xf32>) -> tensor<8x3xf32>, tensor<8xf32>
  return
}

// -----

func.func @kernel_lse_point_grad_grad(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %a: tensor<8xf32>, %b: tensor<16xf32>, %w: tensor<16xf32>, %g0: tensor<8x2xf32>, %s0: tensor<8xf32>) {
  // expected-error @+1 {{'grad' dim 1 (D) is 2, but 'x' dim 1 (D) is 3}}
  %r:2 = mixer.kernel_lse_point_grad kernel(gaussian) ins(%x, %y, %eps, %a, %b, %w : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<16xf32>) outs(%g0, %s0 : tensor<8x2xf32>, tensor<8xf32>) -> tensor<8x2xf32>, tensor<8xf32>
  return
}

// -----

func.func @kernel_lse_point_grad_sums(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %a: tensor<8xf32>, %b: tensor<16xf32>, %w: tensor<16xf32>, %g0: tensor<8x3xf32>, %s0: tensor<4xf32>) {
  // expected-error @+1 {{'sums' dim 0 (N) is 4, but 'x' dim 0 (N) is 8}}
  %r:2 = mixer.kernel_lse_point_grad kernel(gaussian) ins(%x, %y, %eps, %a, %b, %w : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<16xf32>) outs(%g0, %s0 : tensor<8x3xf32>, tensor<4xf32>) -> tensor<8x3xf32>, tensor<4xf32>
  return
}

// -----

func.func @grouped_matmul_backward_rhs_k(%l: tensor<64x32xf32>, %r: tensor<4x16x16xf32>, %s: tensor<4xi64>, %d: tensor<64x16xf32>, %dl0: tensor<64x32xf32>, %dr0: tensor<4x16x16xf32>) {
  // expected-error @+1 {{'rhs' dim 1 (K) is 16, but 'lhs' dim 1 (K) is 32}}
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<64x32xf32>, tensor<4x16x16xf32>, tensor<4xi64>, tensor<64x16xf32>) outs(%dl0, %dr0 : tensor<64x32xf32>, tensor<4x16x16xf32>) -> tensor<64x32xf32>, tensor<4x16x16xf32>
  return
}

// -----

func.func @grouped_matmul_backward_sizes_e(%l: tensor<64x32xf32>, %r: tensor<4x32x16xf32>, %s: tensor<3xi64>, %d: tensor<64x16xf32>, %dl0: tensor<64x32xf32>, %dr0: tensor<4x32x16xf32>) {
  // expected-error @+1 {{'group_sizes' dim 0 (E) is 3, but 'rhs' dim 0 (E) is 4}}
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<3xi64>, tensor<64x16xf32>) outs(%dl0, %dr0 : tensor<64x32xf32>, tensor<4x32x16xf32>) -> tensor<64x32xf32>, tensor<4x32x16xf32>
  return
}

// -----

func.func @grouped_matmul_backward_sizes_type(%l: tensor<64x32xf32>, %r: tensor<4x32x16xf32>, %s: tensor<4xf32>, %d: tensor<64x16xf32>, %dl0: tensor<64x32xf32>, %dr0: tensor<4x32x16xf32>) {
  // expected-error @+1 {{operand 'group_sizes' must have i32 or i64 elements, got 'f32'}}
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xf32>, tensor<64x16xf32>) outs(%dl0, %dr0 : tensor<64x32xf32>, tensor<4x32x16xf32>) -> tensor<64x32xf32>, tensor<4x32x16xf32>
  return
}

// -----

func.func @grouped_matmul_backward_dout_t(%l: tensor<64x32xf32>, %r: tensor<4x32x16xf32>, %s: tensor<4xi64>, %d: tensor<32x16xf32>, %dl0: tensor<64x32xf32>, %dr0: tensor<4x32x16xf32>) {
  // expected-error @+1 {{'dout' dim 0 (T) is 32, but 'lhs' dim 0 (T) is 64}}
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>, tensor<32x16xf32>) outs(%dl0, %dr0 : tensor<64x32xf32>, tensor<4x32x16xf32>) -> tensor<64x32xf32>, tensor<4x32x16xf32>
  return
}

// -----

func.func @grouped_matmul_backward_dout_n(%l: tensor<64x32xf32>, %r: tensor<4x32x16xf32>, %s: tensor<4xi64>, %d: tensor<64x8xf32>, %dl0: tensor<64x32xf32>, %dr0: tensor<4x32x16xf32>) {
  // expected-error @+1 {{'dout' dim 1 (N) is 8, but 'rhs' dim 2 (N) is 16}}
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>, tensor<64x8xf32>) outs(%dl0, %dr0 : tensor<64x32xf32>, tensor<4x32x16xf32>) -> tensor<64x32xf32>, tensor<4x32x16xf32>
  return
}

// -----

func.func @grouped_matmul_backward_dlhs(%l: tensor<64x32xf32>, %r: tensor<4x32x16xf32>, %s: tensor<4xi64>, %d: tensor<64x16xf32>, %dl0: tensor<64x16xf32>, %dr0: tensor<4x32x16xf32>) {
  // expected-error @+1 {{'dlhs' dim 1 (K) is 16, but 'lhs' dim 1 (K) is 32}}
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>, tensor<64x16xf32>) outs(%dl0, %dr0 : tensor<64x16xf32>, tensor<4x32x16xf32>) -> tensor<64x16xf32>, tensor<4x32x16xf32>
  return
}

// -----

func.func @grouped_matmul_backward_drhs(%l: tensor<64x32xf32>, %r: tensor<4x32x16xf32>, %s: tensor<4xi64>, %d: tensor<64x16xf32>, %dl0: tensor<64x32xf32>, %dr0: tensor<4x32x8xf32>) {
  // expected-error @+1 {{'drhs' dim 2 (N) is 8, but 'rhs' dim 2 (N) is 16}}
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>, tensor<64x16xf32>) outs(%dl0, %dr0 : tensor<64x32xf32>, tensor<4x32x8xf32>) -> tensor<64x32xf32>, tensor<4x32x8xf32>
  return
}

// -----

func.func @grouped_swiglu_backward_w_gate_k(%x: tensor<64x32xf32>, %wg: tensor<4x16x48xf32>, %wu: tensor<4x32x48xf32>, %s: tensor<4xi32>, %d: tensor<64x48xf32>, %dx0: tensor<64x32xf32>, %dg0: tensor<4x32x48xf32>, %du0: tensor<4x32x48xf32>) {
  // expected-error @+1 {{'w_gate' dim 1 (K) is 16, but 'x' dim 1 (K) is 32}}
  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : tensor<64x32xf32>, tensor<4x16x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>, tensor<64x48xf32>) outs(%dx0, %dg0, %du0 : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>) -> tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>
  return
}

// -----

func.func @grouped_swiglu_backward_w_up_f(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x40xf32>, %s: tensor<4xi32>, %d: tensor<64x48xf32>, %dx0: tensor<64x32xf32>, %dg0: tensor<4x32x48xf32>, %du0: tensor<4x32x48xf32>) {
  // expected-error @+1 {{'w_up' dim 2 (F) is 40, but 'w_gate' dim 2 (F) is 48}}
  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x40xf32>, tensor<4xi32>, tensor<64x48xf32>) outs(%dx0, %dg0, %du0 : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>) -> tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>
  return
}

// -----

func.func @grouped_swiglu_backward_dout_f(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %s: tensor<4xi32>, %d: tensor<64x40xf32>, %dx0: tensor<64x32xf32>, %dg0: tensor<4x32x48xf32>, %du0: tensor<4x32x48xf32>) {
  // expected-error @+1 {{'dout' dim 1 (F) is 40, but 'w_gate' dim 2 (F) is 48}}
  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>, tensor<64x40xf32>) outs(%dx0, %dg0, %du0 : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>) -> tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>
  return
}

// -----

func.func @grouped_swiglu_backward_dx(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %s: tensor<4xi32>, %d: tensor<64x48xf32>, %dx0: tensor<32x32xf32>, %dg0: tensor<4x32x48xf32>, %du0: tensor<4x32x48xf32>) {
  // expected-error @+1 {{'dx' dim 0 (T) is 32, but 'x' dim 0 (T) is 64}}
  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>, tensor<64x48xf32>) outs(%dx0, %dg0, %du0 : tensor<32x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>) -> tensor<32x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>
  return
}

// -----

func.func @grouped_swiglu_backward_dw_gate(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %s: tensor<4xi32>, %d: tensor<64x48xf32>, %dx0: tensor<64x32xf32>, %dg0: tensor<2x32x48xf32>, %du0: tensor<4x32x48xf32>) {
  // expected-error @+1 {{'dw_gate' dim 0 (E) is 2, but 'w_gate' dim 0 (E) is 4}}
  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>, tensor<64x48xf32>) outs(%dx0, %dg0, %du0 : tensor<64x32xf32>, tensor<2x32x48xf32>, tensor<4x32x48xf32>) -> tensor<64x32xf32>, tensor<2x32x48xf32>, tensor<4x32x48xf32>
  return
}

// -----

func.func @grouped_swiglu_backward_dw_up(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %s: tensor<4xi32>, %d: tensor<64x48xf32>, %dx0: tensor<64x32xf32>, %dg0: tensor<4x32x48xf32>, %du0: tensor<4x8x48xf32>) {
  // expected-error @+1 {{'dw_up' dim 1 (K) is 8, but 'x' dim 1 (K) is 32}}
  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>, tensor<64x48xf32>) outs(%dx0, %dg0, %du0 : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x8x48xf32>) -> tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x8x48xf32>
  return
}

// -----

func.func @moe_combine_backward_expert_out_rows(%eo: tensor<100x16xf32>, %p: tensor<128xi32>, %w: tensor<64x2xf32>, %d: tensor<64x16xf32>, %de0: tensor<128x16xf32>, %dw0: tensor<64x2xf32>) {
  // expected-error @+1 {{'expert_out' dim 0 (T*k) is 100, but T*k (64*2) is 128}}
  %g:2 = mixer.moe_combine_backward ins(%eo, %p, %w, %d : tensor<100x16xf32>, tensor<128xi32>, tensor<64x2xf32>, tensor<64x16xf32>) outs(%de0, %dw0 : tensor<128x16xf32>, tensor<64x2xf32>) -> tensor<128x16xf32>, tensor<64x2xf32>
  return
}

// -----

func.func @moe_combine_backward_permutation_type(%eo: tensor<128x16xf32>, %p: tensor<128xi64>, %w: tensor<64x2xf32>, %d: tensor<64x16xf32>, %de0: tensor<128x16xf32>, %dw0: tensor<64x2xf32>) {
  // expected-error @+1 {{operand 'permutation' must have i32 elements, got 'i64'}}
  %g:2 = mixer.moe_combine_backward ins(%eo, %p, %w, %d : tensor<128x16xf32>, tensor<128xi64>, tensor<64x2xf32>, tensor<64x16xf32>) outs(%de0, %dw0 : tensor<128x16xf32>, tensor<64x2xf32>) -> tensor<128x16xf32>, tensor<64x2xf32>
  return
}

// -----

func.func @moe_combine_backward_dout_t(%eo: tensor<128x16xf32>, %p: tensor<128xi32>, %w: tensor<64x2xf32>, %d: tensor<32x16xf32>, %de0: tensor<128x16xf32>, %dw0: tensor<64x2xf32>) {
  // expected-error @+1 {{'dout' dim 0 (T) is 32, but 'weights' dim 0 (T) is 64}}
  %g:2 = mixer.moe_combine_backward ins(%eo, %p, %w, %d : tensor<128x16xf32>, tensor<128xi32>, tensor<64x2xf32>, tensor<32x16xf32>) outs(%de0, %dw0 : tensor<128x16xf32>, tensor<64x2xf32>) -> tensor<128x16xf32>, tensor<64x2xf32>
  return
}

// -----

func.func @moe_combine_backward_dout_n(%eo: tensor<128x16xf32>, %p: tensor<128xi32>, %w: tensor<64x2xf32>, %d: tensor<64x8xf32>, %de0: tensor<128x16xf32>, %dw0: tensor<64x2xf32>) {
  // expected-error @+1 {{'dout' dim 1 (N) is 8, but 'expert_out' dim 1 (N) is 16}}
  %g:2 = mixer.moe_combine_backward ins(%eo, %p, %w, %d : tensor<128x16xf32>, tensor<128xi32>, tensor<64x2xf32>, tensor<64x8xf32>) outs(%de0, %dw0 : tensor<128x16xf32>, tensor<64x2xf32>) -> tensor<128x16xf32>, tensor<64x2xf32>
  return
}

// -----

func.func @moe_combine_backward_d_expert_out(%eo: tensor<128x16xf32>, %p: tensor<128xi32>, %w: tensor<64x2xf32>, %d: tensor<64x16xf32>, %de0: tensor<128x8xf32>, %dw0: tensor<64x2xf32>) {
  // expected-error @+1 {{'d_expert_out' dim 1 (N) is 8, but 'expert_out' dim 1 (N) is 16}}
  %g:2 = mixer.moe_combine_backward ins(%eo, %p, %w, %d : tensor<128x16xf32>, tensor<128xi32>, tensor<64x2xf32>, tensor<64x16xf32>) outs(%de0, %dw0 : tensor<128x8xf32>, tensor<64x2xf32>) -> tensor<128x8xf32>, tensor<64x2xf32>
  return
}

// -----

func.func @moe_combine_backward_d_weights(%eo: tensor<128x16xf32>, %p: tensor<128xi32>, %w: tensor<64x2xf32>, %d: tensor<64x16xf32>, %de0: tensor<128x16xf32>, %dw0: tensor<64x3xf32>) {
  // expected-error @+1 {{'d_weights' dim 1 (k) is 3, but 'weights' dim 1 (k) is 2}}
  %g:2 = mixer.moe_combine_backward ins(%eo, %p, %w, %d : tensor<128x16xf32>, tensor<128xi32>, tensor<64x2xf32>, tensor<64x16xf32>) outs(%de0, %dw0 : tensor<128x16xf32>, tensor<64x3xf32>) -> tensor<128x16xf32>, tensor<64x3xf32>
  return
}
