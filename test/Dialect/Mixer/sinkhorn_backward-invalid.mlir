// RUN: mixer-opt %s -split-input-file -verify-diagnostics
// Every verifier error of mixer.sinkhorn_backward, each naming the operand.

func.func @sb_cost(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{attribute 'cost' must be a cost (sqeuclidean, gaussian or laplacian), got matern32}}
  %r:4 = mixer.sinkhorn_backward cost(matern32) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_x_rank(%x: tensor<2x8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{operand 'x' must have rank 2 [N, D], got rank 3}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<2x8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_y_dim(%x: tensor<8x3xf32>, %y: tensor<16x4xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{'y' dim 1 (D) is 4, but 'x' dim 1 (D) is 3}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x4xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_log_a(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<9xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{'log_a' dim 0 (N) is 9, but 'x' dim 0 (N) is 8}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<9xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_log_b(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<15xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{'log_b' dim 0 (M) is 15, but 'y' dim 0 (M) is 16}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<15xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_eps(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<1xf32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{operand 'eps' must have rank 0 [], got rank 1}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_f(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<16xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{'f' dim 0 (N) is 16, but 'x' dim 0 (N) is 8}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_g(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<8xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{'g' dim 0 (M) is 8, but 'y' dim 0 (M) is 16}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_d_cost(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<8xf32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{operand 'd_cost' must have rank 0 [], got rank 1}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<8xf32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_d_cost_type(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f16>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{operand 'd_cost' must have f32 elements, got 'f16'}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f16>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_df(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %df: tensor<7xf32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{'df' dim 0 (N) is 7, but 'x' dim 0 (N) is 8}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) df(%df : tensor<7xf32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_dg(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %dg: tensor<16x1xf32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{operand 'dg' must have rank 1 [M], got rank 2}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) dg(%dg : tensor<16x1xf32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_outs_count(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>) {
  // expected-error @+1 {{expects 4 outs operands (one per result), got 3}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_dx(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x2xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<16xf32>) {
  // expected-error @+1 {{'dx' dim 1 (D) is 2, but 'x' dim 1 (D) is 3}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x2xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>) -> tensor<8x2xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>
  return
}

// -----

func.func @sb_dlog_b(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %eps: tensor<f32>, %f: tensor<8xf32>, %g: tensor<16xf32>, %dc: tensor<f32>, %o0: tensor<8x3xf32>, %o1: tensor<16x3xf32>, %o2: tensor<8xf32>, %o3: tensor<8xf32>) {
  // expected-error @+1 {{'dlog_b' dim 0 (M) is 8, but 'y' dim 0 (M) is 16}}
  %r:4 = mixer.sinkhorn_backward cost(sqeuclidean) ins(%x, %y, %la, %lb, %eps, %f, %g, %dc : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2, %o3 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<8xf32>
  return
}
