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
