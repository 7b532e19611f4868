// RUN: mixer-opt %s -split-input-file -verify-diagnostics
// Every verifier error of every mixer op.

func.func @ssd_chunk_size(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{attribute 'chunk_size' must be positive, got 0}}
  %y, %s = mixer.ssd chunk_size(0) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
  return
}

// -----

func.func @ssd_x_rank(%x: tensor<8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{operand 'x' must have rank 4 [B, L, H, P], got rank 3}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %b : tensor<8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
  return
}

// -----

func.func @ssd_x_dtype(%x: tensor<1x8x2x4xf16>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{operand 'x' must have f32 elements, got 'f16'}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %b : tensor<1x8x2x4xf16>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
  return
}

// -----

func.func @ssd_log_a_length(%x: tensor<1x8x2x4xf32>, %la: tensor<1x7x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'log_a' dim 1 (L) is 7, but 'x' dim 1 (L) is 8}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x7x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
  return
}

// -----

func.func @ssd_c_state_dim(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %c: tensor<1x8x1x5xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'c' dim 3 (N) is 5, but 'b' dim 3 (N) is 4}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %c : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x5xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
  return
}

// -----

func.func @ssd_groups(%x: tensor<1x8x3x4xf32>, %la: tensor<1x8x3xf32>, %b: tensor<1x8x2x4xf32>, %y0: tensor<1x8x3x4xf32>, %s0: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{heads H = 3 of 'x' must be a multiple of groups G = 2 of 'b' and 'c'}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %b : tensor<1x8x3x4xf32>, tensor<1x8x3xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) outs(%y0, %s0 : tensor<1x8x3x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x8x3x4xf32>, tensor<1x3x4x4xf32>
  return
}

// -----

func.func @ssd_init_shape(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %h: tensor<1x2x4x3xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'init' dim 3 (N) is 3, but 'b' dim 3 (N) is 4}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) init(%h : tensor<1x2x4x3xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
  return
}

// -----

func.func @ssd_outs_count(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>) {
  // expected-error @+1 {{expects 2 outs operands (one per result), got 1}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0 : tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
  return
}

// -----

func.func @ssd_result_type(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{result #1 has type 'tensor<1x2x4x5xf32>', but outs operand #1 has type 'tensor<1x2x4x4xf32>'}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x5xf32>
  return
}

// -----

func.func @ssd_state_shape(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x3x4xf32>) {
  // expected-error @+1 {{'final_state' dim 2 (P) is 3, but 'x' dim 3 (P) is 4}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x3x4xf32>
  return
}

// -----

func.func @kernel_mv_cost_kind(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{attribute 'kernel' sqeuclidean is a cost, not a kernel (use it with mixer.kernel_lse or mixer.sinkhorn)}}
  %r = mixer.kernel_mv kernel(sqeuclidean) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_x_rank(%x: tensor<1x2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{operand 'x' must have rank 2 [N, D] or rank 3 [Bt, N, D], got rank 4}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<1x2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_y_rank(%x: tensor<2x8x3xf32>, %y: tensor<16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{operand 'y' must have rank 3 [Bt, M, D], got rank 2}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_v_rank(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<8x5xf32>) {
  // expected-error @+1 {{operand 'v' must have rank 2 [M, C], got rank 3}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<8x3xf32>, tensor<16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<8x5xf32>) -> tensor<8x5xf32>
  return
}

// -----

func.func @kernel_mv_out_rank(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<8x5xf32>) {
  // expected-error @+1 {{operand 'out' must have rank 3 [Bt, N, C], got rank 2}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<8x5xf32>) -> tensor<8x5xf32>
  return
}

// -----

func.func @kernel_mv_x_dtype(%x: tensor<2x8x3xf16>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{operand 'x' must have f32 elements, got 'f16'}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf16>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_v_dtype(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xbf16>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{operand 'v' must have f32 elements, got 'bf16'}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xbf16>, tensor<f32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_batch(%x: tensor<2x8x3xf32>, %y: tensor<3x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{'y' dim 0 (Bt) is 3, but 'x' dim 0 (Bt) is 2}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<3x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_dim(%x: tensor<2x8x3xf32>, %y: tensor<2x16x4xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{'y' dim 2 (D) is 4, but 'x' dim 2 (D) is 3}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x4xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_points(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x15x5xf32>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{'v' dim 1 (M) is 15, but 'y' dim 1 (M) is 16}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x15x5xf32>, tensor<f32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_out_rows(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<2x9x5xf32>) {
  // expected-error @+1 {{'out' dim 1 (N) is 9, but 'x' dim 1 (N) is 8}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<2x9x5xf32>) -> tensor<2x9x5xf32>
  return
}

// -----

func.func @kernel_mv_out_cols(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %v: tensor<16x5xf32>, %h: tensor<f32>, %o0: tensor<8x6xf32>) {
  // expected-error @+1 {{'out' dim 1 (C) is 6, but 'v' dim 1 (C) is 5}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16x5xf32>, tensor<f32>) outs(%o0 : tensor<8x6xf32>) -> tensor<8x6xf32>
  return
}

// -----

func.func @kernel_mv_bandwidth_rank(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<1xf32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{operand 'bandwidth' must have rank 0 [], got rank 1}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<1xf32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_bandwidth_dtype(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f64>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{operand 'bandwidth' must have f32 elements, got 'f64'}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f64>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_outs_count(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>, %o1: tensor<2x8x5xf32>) {
  // expected-error @+1 {{expects 1 outs operands (one per result), got 2}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0, %o1 : tensor<2x8x5xf32>, tensor<2x8x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----

func.func @kernel_mv_result_type(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %o0: tensor<2x8x5xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<2x8x?xf32>', but outs operand #0 has type 'tensor<2x8x5xf32>'}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>) outs(%o0 : tensor<2x8x5xf32>) -> tensor<2x8x?xf32>
  return
}

// -----

func.func @kernel_lse_kernel_kind(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<2x16xf32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{attribute 'kernel' must be a cost (sqeuclidean, gaussian or laplacian), got matern32}}
  %r = mixer.kernel_lse kernel(matern32) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<2x16xf32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_x_rank(%x: tensor<8xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<2x16xf32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{operand 'x' must have rank 2 [N, D] or rank 3 [Bt, N, D], got rank 1}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<8xf32>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<2x16xf32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_y_rank(%x: tensor<8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %o0: tensor<8xf32>) {
  // expected-error @+1 {{operand 'y' must have rank 2 [M, D], got rank 3}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<8x3xf32>, tensor<2x16x3xf32>, tensor<f32>) outs(%o0 : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @kernel_lse_g_rank(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<16xf32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{operand 'g' must have rank 2 [Bt, M], got rank 1}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<16xf32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_out_rank(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %e: tensor<f32>, %g: tensor<16xf32>, %o0: tensor<1x8xf32>) {
  // expected-error @+1 {{operand 'out' must have rank 1 [N], got rank 2}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>) g(%g : tensor<16xf32>) outs(%o0 : tensor<1x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @kernel_lse_x_dtype(%x: tensor<2x8x3xf64>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<2x16xf32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{operand 'x' must have f32 elements, got 'f64'}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf64>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<2x16xf32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_g_dtype(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<2x16xi32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{operand 'g' must have f32 elements, got 'i32'}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<2x16xi32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_batch(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<2x16xf32>, %o0: tensor<1x8xf32>) {
  // expected-error @+1 {{'out' dim 0 (Bt) is 1, but 'x' dim 0 (Bt) is 2}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<2x16xf32>) outs(%o0 : tensor<1x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @kernel_lse_dim(%x: tensor<2x8x3xf32>, %y: tensor<2x16x2xf32>, %e: tensor<f32>, %g: tensor<2x16xf32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{'y' dim 2 (D) is 2, but 'x' dim 2 (D) is 3}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x2xf32>, tensor<f32>) g(%g : tensor<2x16xf32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_g_points(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<2x17xf32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{'g' dim 1 (M) is 17, but 'y' dim 1 (M) is 16}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<2x17xf32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_out_rows(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<2x16xf32>, %o0: tensor<2x7xf32>) {
  // expected-error @+1 {{'out' dim 1 (N) is 7, but 'x' dim 1 (N) is 8}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<2x16xf32>) outs(%o0 : tensor<2x7xf32>) -> tensor<2x7xf32>
  return
}

// -----

func.func @kernel_lse_eps_rank(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<1x1xf32>, %g: tensor<2x16xf32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{operand 'eps' must have rank 0 [], got rank 2}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<1x1xf32>) g(%g : tensor<2x16xf32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_eps_dtype(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f16>, %g: tensor<2x16xf32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{operand 'eps' must have f32 elements, got 'f16'}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f16>) g(%g : tensor<2x16xf32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_outs_count(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<2x16xf32>, %o0: tensor<2x8xf32>, %o1: tensor<2x8xf32>) {
  // expected-error @+1 {{expects 1 outs operands (one per result), got 2}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<2x16xf32>) outs(%o0, %o1 : tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @kernel_lse_result_type(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %e: tensor<f32>, %g: tensor<2x16xf32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<2x9xf32>', but outs operand #0 has type 'tensor<2x8xf32>'}}
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f32>) g(%g : tensor<2x16xf32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x9xf32>
  return
}

// -----

func.func @sinkhorn_cost_kind(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{attribute 'cost' must be a cost (sqeuclidean, gaussian or laplacian), got linear}}
  %f, %g, %c = mixer.sinkhorn cost(linear) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_iterations(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{attribute 'iterations' must be positive, got 0}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(0) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_x_rank(%x: tensor<1x8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{operand 'x' must have rank 2 [N, D], got rank 3}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<1x8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_y_dtype(%x: tensor<8x3xf32>, %y: tensor<16x3xf16>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{operand 'y' must have f32 elements, got 'f16'}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf16>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_dim(%x: tensor<8x3xf32>, %y: tensor<16x4xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{'y' dim 1 (D) is 4, but 'x' dim 1 (D) is 3}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x4xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_log_a(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<9xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{'log_a' dim 0 (N) is 9, but 'x' dim 0 (N) is 8}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<9xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_log_b(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<1x16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{operand 'log_b' must have rank 1 [M], got rank 2}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<1x16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_log_b_points(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<15xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{'log_b' dim 0 (M) is 15, but 'y' dim 0 (M) is 16}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<15xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_eps(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<1xf32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{operand 'eps' must have rank 0 [], got rank 1}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<1xf32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_f(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<16xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{'f' dim 0 (N) is 16, but 'x' dim 0 (N) is 8}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<16xf32>, tensor<16xf32>, tensor<f32>) -> tensor<16xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_g(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<8xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{'g' dim 0 (M) is 8, but 'y' dim 0 (M) is 16}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<8xf32>, tensor<f32>) -> tensor<8xf32>, tensor<8xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_transport_cost(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<1xf32>) {
  // expected-error @+1 {{operand 'transport_cost' must have rank 0 [], got rank 1}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<1xf32>) -> tensor<8xf32>, tensor<16xf32>, tensor<1xf32>
  return
}

// -----

func.func @sinkhorn_outs_count(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>) {
  // expected-error @+1 {{expects 3 outs operands (one per result), got 2}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1 : tensor<8xf32>, tensor<16xf32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f32>
  return
}

// -----

func.func @sinkhorn_result_type(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %la: tensor<8xf32>, %lb: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>, %o1: tensor<16xf32>, %o2: tensor<f32>) {
  // expected-error @+1 {{result #2 has type 'tensor<f64>', but outs operand #2 has type 'tensor<f32>'}}
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0, %o1, %o2 : tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> tensor<8xf32>, tensor<16xf32>, tensor<f64>
  return
}

// -----

func.func @kernel_mv_unknown_kind(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %v: tensor<16x5xf32>, %h: tensor<f32>, %o: tensor<8x5xf32>) {
  // expected-error @+1 {{unknown kernel kind 'rbf'}}
  %r = mixer.kernel_mv kernel(rbf) ins(%x, %y, %v, %h : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16x5xf32>, tensor<f32>) outs(%o : tensor<8x5xf32>) -> tensor<8x5xf32>
  return
}
