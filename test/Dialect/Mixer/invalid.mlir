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

// chunk_size is a signed i64: negative values are rejected too.
func.func @ssd_chunk_size_negative(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{attribute 'chunk_size' must be positive, got -1}}
  %y, %s = mixer.ssd chunk_size(-1) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
  return
}

// -----

func.func @selective_scan_u_rank(%u: tensor<8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'u' must have rank 3 [B, L, D], got rank 2}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_delta_rank(%u: tensor<2x8x4xf32>, %dt: tensor<8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'delta' must have rank 3 [B, L, D], got rank 2}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_A_rank(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'A' must have rank 2 [D, N], got rank 1}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_b_rank(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'b' must have rank 4 [B, L, G, N], got rank 3}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_c_rank(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'c' must have rank 4 [B, L, G, N], got rank 3}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_D_skip_rank(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %ds: tensor<f32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'D_skip' must have rank 1 [D], got rank 0}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) D_skip(%ds : tensor<f32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_z_rank(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %z: tensor<8x4xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'z' must have rank 3 [B, L, D], got rank 2}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) z(%z : tensor<8x4xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_delta_bias_rank(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %db: tensor<f32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'delta_bias' must have rank 1 [D], got rank 0}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) delta_bias(%db : tensor<f32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_init_rank(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %h: tensor<4x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'init' must have rank 3 [B, D, N], got rank 2}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) init(%h : tensor<4x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_y_rank(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'y' must have rank 3 [B, L, D], got rank 2}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<8x4xf32>, tensor<2x4x3xf32>) -> tensor<8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_final_state_rank(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<4x3xf32>) {
  // expected-error @+1 {{operand 'final_state' must have rank 3 [B, D, N], got rank 2}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<4x3xf32>) -> tensor<2x8x4xf32>, tensor<4x3xf32>
  return
}

// -----

func.func @selective_scan_u_dtype(%u: tensor<2x8x4xf16>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'u' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf16>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_delta_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf16>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'delta' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf16>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_A_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf16>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'A' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf16>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_b_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf16>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'b' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf16>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_c_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf16>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'c' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf16>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_D_skip_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %ds: tensor<4xf16>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'D_skip' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) D_skip(%ds : tensor<4xf16>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_z_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %z: tensor<2x8x4xf16>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'z' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) z(%z : tensor<2x8x4xf16>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_delta_bias_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %db: tensor<4xf16>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'delta_bias' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) delta_bias(%db : tensor<4xf16>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_init_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %h: tensor<2x4x3xf16>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'init' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) init(%h : tensor<2x4x3xf16>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_y_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf16>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'y' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf16>, tensor<2x4x3xf32>) -> tensor<2x8x4xf16>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_final_state_dtype(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf16>) {
  // expected-error @+1 {{operand 'final_state' must have f32 elements, got 'f16'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf16>) -> tensor<2x8x4xf32>, tensor<2x4x3xf16>
  return
}

// -----

func.func @selective_scan_delta_B(%u: tensor<2x8x4xf32>, %dt: tensor<3x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'delta' dim 0 (B) is 3, but 'u' dim 0 (B) is 2}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<3x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_delta_L(%u: tensor<2x8x4xf32>, %dt: tensor<2x9x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'delta' dim 1 (L) is 9, but 'u' dim 1 (L) is 8}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x9x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_delta_D(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x5xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'delta' dim 2 (D) is 5, but 'u' dim 2 (D) is 4}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x5xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_A_D(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<5x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'A' dim 0 (D) is 5, but 'u' dim 2 (D) is 4}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<5x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_b_L(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x9x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'b' dim 1 (L) is 9, but 'u' dim 1 (L) is 8}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x9x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_c_G(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x3x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'c' dim 2 (G) is 3, but 'b' dim 2 (G) is 2}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x3x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_c_N(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x4xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'c' dim 3 (N) is 4, but 'A' dim 1 (N) is 3}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x4xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_D_skip_D(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %ds: tensor<5xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'D_skip' dim 0 (D) is 5, but 'u' dim 2 (D) is 4}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) D_skip(%ds : tensor<5xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_z_L(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %z: tensor<2x9x4xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'z' dim 1 (L) is 9, but 'u' dim 1 (L) is 8}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) z(%z : tensor<2x9x4xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_delta_bias_D(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %db: tensor<5xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'delta_bias' dim 0 (D) is 5, but 'u' dim 2 (D) is 4}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) delta_bias(%db : tensor<5xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_init_B(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %h: tensor<3x4x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'init' dim 0 (B) is 3, but 'u' dim 0 (B) is 2}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) init(%h : tensor<3x4x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_init_N(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %h: tensor<2x4x4xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'init' dim 2 (N) is 4, but 'A' dim 1 (N) is 3}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) init(%h : tensor<2x4x4xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_y_L(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x9x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'y' dim 1 (L) is 9, but 'u' dim 1 (L) is 8}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x9x4xf32>, tensor<2x4x3xf32>) -> tensor<2x9x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_final_state_D(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x5x3xf32>) {
  // expected-error @+1 {{'final_state' dim 1 (D) is 5, but 'u' dim 2 (D) is 4}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x5x3xf32>) -> tensor<2x8x4xf32>, tensor<2x5x3xf32>
  return
}

// -----

func.func @selective_scan_outs_count(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>) {
  // expected-error @+1 {{expects 2 outs operands (one per result), got 1}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @selective_scan_result_type(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{result #1 has type 'tensor<2x4x4xf32>', but outs operand #1 has type 'tensor<2x4x3xf32>'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x4xf32>
  return
}

// -----

func.func @selective_scan_groups(%u: tensor<2x8x6xf32>, %dt: tensor<2x8x6xf32>, %A: tensor<6x3xf32>, %b: tensor<2x8x4x3xf32>, %c: tensor<2x8x4x3xf32>, %y0: tensor<2x8x6xf32>, %s0: tensor<2x6x3xf32>) {
  // expected-error @+1 {{channels D = 6 of 'u' must be a multiple of groups G = 4 of 'b' and 'c'}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x6xf32>, tensor<2x8x6xf32>, tensor<6x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>) outs(%y0, %s0 : tensor<2x8x6xf32>, tensor<2x6x3xf32>) -> tensor<2x8x6xf32>, tensor<2x6x3xf32>
  return
}

// -----

func.func @selective_scan_no_groups(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x0x3xf32>, %c: tensor<2x8x0x3xf32>, %y0: tensor<2x8x4xf32>, %s0: tensor<2x4x3xf32>) {
  // expected-error @+1 {{operand 'b' must have at least one group}}
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x0x3xf32>, tensor<2x8x0x3xf32>) outs(%y0, %s0 : tensor<2x8x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x4x3xf32>
  return
}

// -----

func.func @linear_attention_q_rank(%q: tensor<8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'q' must have rank 4 [B, L, H, Dk], got rank 3}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_k_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'k' must have rank 4 [B, L, H, Dk], got rank 3}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_v_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'v' must have rank 4 [B, L, H, Dv], got rank 3}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_log_decay_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %ld: tensor<8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'log_decay' must have rank 3 [B, L, H], got rank 2}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) log_decay(%ld : tensor<8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_init_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %h: tensor<4x3x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'init' must have rank 4 [B, H, Dk, Dv], got rank 3}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) init(%h : tensor<4x3x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_o_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'o' must have rank 4 [B, L, H, Dv], got rank 3}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_final_state_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<4x3x5xf32>) {
  // expected-error @+1 {{operand 'final_state' must have rank 4 [B, H, Dk, Dv], got rank 3}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<4x3x5xf32>
  return
}

// -----

func.func @linear_attention_q_dtype(%q: tensor<2x8x4x3xf16>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'q' must have f32 elements, got 'f16'}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf16>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_k_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf16>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'k' must have f32 elements, got 'f16'}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf16>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_v_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf16>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'v' must have f32 elements, got 'f16'}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf16>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_log_decay_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %ld: tensor<2x8x4xf16>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'log_decay' must have f32 elements, got 'f16'}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) log_decay(%ld : tensor<2x8x4xf16>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_init_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %h: tensor<2x4x3x5xf16>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'init' must have f32 elements, got 'f16'}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) init(%h : tensor<2x4x3x5xf16>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_o_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf16>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'o' must have f32 elements, got 'f16'}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf16>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf16>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_final_state_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf16>) {
  // expected-error @+1 {{operand 'final_state' must have f32 elements, got 'f16'}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf16>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf16>
  return
}

// -----

func.func @linear_attention_k_B(%q: tensor<2x8x4x3xf32>, %k: tensor<3x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'k' dim 0 (B) is 3, but 'q' dim 0 (B) is 2}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<3x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_k_L(%q: tensor<2x8x4x3xf32>, %k: tensor<2x9x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'k' dim 1 (L) is 9, but 'q' dim 1 (L) is 8}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x9x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_k_H(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x5x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'k' dim 2 (H) is 5, but 'q' dim 2 (H) is 4}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x5x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_k_Dk(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x4xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'k' dim 3 (Dk) is 4, but 'q' dim 3 (Dk) is 3}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x4xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_v_L(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x9x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'v' dim 1 (L) is 9, but 'q' dim 1 (L) is 8}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x9x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_v_H(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x5x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'v' dim 2 (H) is 5, but 'q' dim 2 (H) is 4}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x5x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_log_decay_L(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %ld: tensor<2x9x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'log_decay' dim 1 (L) is 9, but 'q' dim 1 (L) is 8}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) log_decay(%ld : tensor<2x9x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_log_decay_H(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %ld: tensor<2x8x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'log_decay' dim 2 (H) is 5, but 'q' dim 2 (H) is 4}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) log_decay(%ld : tensor<2x8x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_init_Dk(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %h: tensor<2x4x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'init' dim 2 (Dk) is 4, but 'q' dim 3 (Dk) is 3}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) init(%h : tensor<2x4x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_init_Dv(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %h: tensor<2x4x3x6xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'init' dim 3 (Dv) is 6, but 'v' dim 3 (Dv) is 5}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) init(%h : tensor<2x4x3x6xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_o_Dv(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x6xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'o' dim 3 (Dv) is 6, but 'v' dim 3 (Dv) is 5}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x6xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x6xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_final_state_Dk(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x4x5xf32>) {
  // expected-error @+1 {{'final_state' dim 2 (Dk) is 4, but 'q' dim 3 (Dk) is 3}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x4x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x4x5xf32>
  return
}

// -----

func.func @linear_attention_final_state_Dv(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x6xf32>) {
  // expected-error @+1 {{'final_state' dim 3 (Dv) is 6, but 'v' dim 3 (Dv) is 5}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x6xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x6xf32>
  return
}

// -----

func.func @linear_attention_outs_count(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>) {
  // expected-error @+1 {{expects 2 outs operands (one per result), got 1}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0 : tensor<2x8x4x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_result_type(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{result #1 has type 'tensor<2x4x3x6xf32>', but outs operand #1 has type 'tensor<2x4x3x5xf32>'}}
  %o, %s = mixer.linear_attention chunk_size(64) window(2) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x6xf32>
  return
}

// -----

func.func @linear_attention_chunk_size(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{attribute 'chunk_size' must be positive, got 0}}
  %o, %s = mixer.linear_attention chunk_size(0) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_chunk_size_negative(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{attribute 'chunk_size' must be positive, got -8}}
  %o, %s = mixer.linear_attention chunk_size(-8) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @linear_attention_window(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{attribute 'window' must be non-negative, got -1}}
  %o, %s = mixer.linear_attention chunk_size(64) window(-1) ins(%q, %k, %v : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_q_rank(%q: tensor<8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'q' must have rank 4 [B, L, H, Dk], got rank 3}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_k_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'k' must have rank 4 [B, L, H, Dk], got rank 3}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_v_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'v' must have rank 4 [B, L, H, Dv], got rank 3}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_g_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'g' must have rank 3 [B, L, H], got rank 2}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_beta_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'beta' must have rank 3 [B, L, H], got rank 2}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_init_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %h: tensor<4x3x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'init' must have rank 4 [B, H, Dk, Dv], got rank 3}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) init(%h : tensor<4x3x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_o_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'o' must have rank 4 [B, L, H, Dv], got rank 3}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_final_state_rank(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<4x3x5xf32>) {
  // expected-error @+1 {{operand 'final_state' must have rank 4 [B, H, Dk, Dv], got rank 3}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_q_dtype(%q: tensor<2x8x4x3xf16>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'q' must have f32 elements, got 'f16'}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf16>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_k_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf16>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'k' must have f32 elements, got 'f16'}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf16>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_v_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf16>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'v' must have f32 elements, got 'f16'}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf16>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_g_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf16>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'g' must have f32 elements, got 'f16'}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf16>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_beta_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf16>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'beta' must have f32 elements, got 'f16'}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf16>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_init_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %h: tensor<2x4x3x5xf16>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'init' must have f32 elements, got 'f16'}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) init(%h : tensor<2x4x3x5xf16>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_o_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf16>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{operand 'o' must have f32 elements, got 'f16'}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf16>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf16>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_final_state_dtype(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf16>) {
  // expected-error @+1 {{operand 'final_state' must have f32 elements, got 'f16'}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf16>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf16>
  return
}

// -----

func.func @gated_delta_rule_k_Dk(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x4xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'k' dim 3 (Dk) is 4, but 'q' dim 3 (Dk) is 3}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x4xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_v_B(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<3x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'v' dim 0 (B) is 3, but 'q' dim 0 (B) is 2}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<3x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_v_L(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x9x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'v' dim 1 (L) is 9, but 'q' dim 1 (L) is 8}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x9x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_v_H(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x5x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'v' dim 2 (H) is 5, but 'q' dim 2 (H) is 4}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x5x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_g_L(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x9x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'g' dim 1 (L) is 9, but 'q' dim 1 (L) is 8}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x9x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_g_H(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x5xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'g' dim 2 (H) is 5, but 'q' dim 2 (H) is 4}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x5xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_beta_B(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<3x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'beta' dim 0 (B) is 3, but 'q' dim 0 (B) is 2}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<3x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_beta_L(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x9x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'beta' dim 1 (L) is 9, but 'q' dim 1 (L) is 8}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x9x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_init_H(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %h: tensor<2x5x3x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'init' dim 1 (H) is 5, but 'q' dim 2 (H) is 4}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) init(%h : tensor<2x5x3x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_init_Dk(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %h: tensor<2x4x4x5xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'init' dim 2 (Dk) is 4, but 'q' dim 3 (Dk) is 3}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) init(%h : tensor<2x4x4x5xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_init_Dv(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %h: tensor<2x4x3x6xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'init' dim 3 (Dv) is 6, but 'v' dim 3 (Dv) is 5}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) init(%h : tensor<2x4x3x6xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_o_L(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x9x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{'o' dim 1 (L) is 9, but 'q' dim 1 (L) is 8}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x9x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x9x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_final_state_Dv(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x6xf32>) {
  // expected-error @+1 {{'final_state' dim 3 (Dv) is 6, but 'v' dim 3 (Dv) is 5}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x6xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x6xf32>
  return
}

// -----

func.func @gated_delta_rule_outs_count(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>) {
  // expected-error @+1 {{expects 2 outs operands (one per result), got 1}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0 : tensor<2x8x4x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}

// -----

func.func @gated_delta_rule_result_type(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{result #1 has type 'tensor<2x4x3x6xf32>', but outs operand #1 has type 'tensor<2x4x3x5xf32>'}}
  %o, %s = mixer.gated_delta_rule chunk_size(64) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x6xf32>
  return
}

// -----

func.func @gated_delta_rule_chunk_size(%q: tensor<2x8x4x3xf32>, %k: tensor<2x8x4x3xf32>, %v: tensor<2x8x4x5xf32>, %g: tensor<2x8x4xf32>, %beta: tensor<2x8x4xf32>, %o0: tensor<2x8x4x5xf32>, %s0: tensor<2x4x3x5xf32>) {
  // expected-error @+1 {{attribute 'chunk_size' must be positive, got 0}}
  %o, %s = mixer.gated_delta_rule chunk_size(0) ins(%q, %k, %v, %g, %beta : tensor<2x8x4x3xf32>, tensor<2x8x4x3xf32>, tensor<2x8x4x5xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o0, %s0 : tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x8x4x5xf32>, tensor<2x4x3x5xf32>
  return
}
