// RUN: mixer-opt %s -split-input-file -verify-diagnostics
// Every verifier error of mixer.ssd_backward and
// mixer.linear_attention_backward: each inconsistent shape names its operand.

func.func @ssd_backward_chunk_size(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %s: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{attribute 'chunk_size' must be positive, got 0}}
  %g:4 = mixer.ssd_backward chunk_size(0) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) dy(%x : tensor<1x8x2x4xf32>) outs(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>
  return
}

// -----

func.func @ssd_backward_dy_shape(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %s: tensor<1x2x4x4xf32>, %dy: tensor<1x7x2x4xf32>) {
  // expected-error @+1 {{'dy' dim 1 (L) is 7, but 'x' dim 1 (L) is 8}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) dy(%dy : tensor<1x7x2x4xf32>) outs(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>
  return
}

// -----

func.func @ssd_backward_chunk_states_shape(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %s: tensor<1x2x3x5x4xf32>) {
  // expected-error @+1 {{'chunk_states' dim 3 (N) is 5, but 'b' dim 3 (N) is 4}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) chunk_states(%s : tensor<1x2x3x5x4xf32>) outs(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>
  return
}

// -----

func.func @ssd_backward_chunk_states_rows(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %s: tensor<1x2x4x4x4xf32>) {
  // expected-error @+1 {{operand 'chunk_states' dim 2 (C) must be L / chunk_size + 1 = 3, got 4}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) chunk_states(%s : tensor<1x2x4x4x4xf32>) outs(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>
  return
}

// -----

func.func @ssd_backward_d_final_state_shape(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %s: tensor<1x2x4x4xf32>, %ds: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'d_final_state' dim 1 (H) is 3, but 'x' dim 2 (H) is 2}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) d_final_state(%ds : tensor<1x3x4x4xf32>) outs(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>
  return
}

// -----

func.func @ssd_backward_db_shape(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %s: tensor<1x2x4x4xf32>, %db: tensor<1x8x2x4xf32>) {
  // expected-error @+1 {{'db' dim 2 (G) is 2, but 'b' dim 2 (G) is 1}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%x, %la, %db, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x2x4xf32>, tensor<1x8x1x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x2x4xf32>, tensor<1x8x1x4xf32>
  return
}

// -----

func.func @ssd_backward_missing_dinit(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %s: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{expects 5 'outs', one per gradient (dx, dlog_a, db, dc, dinit), got 4}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) init(%s : tensor<1x2x4x4xf32>) outs(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>
  return
}

// -----

func.func @ssd_backward_groups(%x: tensor<1x8x3x4xf32>, %la: tensor<1x8x3xf32>, %b: tensor<1x8x2x4xf32>, %s: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{heads H = 3 of 'x' must be a multiple of groups G = 2 of 'b' and 'c'}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<1x8x3x4xf32>, tensor<1x8x3xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) outs(%x, %la, %b, %b : tensor<1x8x3x4xf32>, tensor<1x8x3xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x3x4xf32>, tensor<1x8x3xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>
  return
}

// -----

func.func @linear_attention_backward_window(%q: tensor<1x8x2x4xf32>, %s: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{attribute 'window' must be non-negative, got -1}}
  %g:3 = mixer.linear_attention_backward chunk_size(4) window(-1) ins(%q, %q, %q : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) outs(%q, %q, %q : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>
  return
}

// -----

func.func @linear_attention_backward_dout(%q: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x6xf32>, %s: tensor<1x2x4x6xf32>) {
  // expected-error @+1 {{'dout' dim 3 (Dv) is 4, but 'v' dim 3 (Dv) is 6}}
  %g:3 = mixer.linear_attention_backward chunk_size(4) ins(%q, %q, %v : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x6xf32>) dout(%q : tensor<1x8x2x4xf32>) outs(%q, %q, %v : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x6xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x6xf32>
  return
}

// -----

func.func @linear_attention_backward_dlog_decay(%q: tensor<1x8x2x4xf32>, %ld: tensor<1x8x2xf32>, %s: tensor<1x2x4x4xf32>, %dld: tensor<1x4x2xf32>) {
  // expected-error @+1 {{'dlog_decay' dim 1 (L) is 4, but 'q' dim 1 (L) is 8}}
  %g:4 = mixer.linear_attention_backward chunk_size(4) ins(%q, %q, %q : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) log_decay(%ld : tensor<1x8x2xf32>) outs(%q, %q, %q, %dld : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x4x2xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x4x2xf32>
  return
}
