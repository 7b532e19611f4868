// RUN: mixer-opt %s --split-input-file --verify-diagnostics

func.func @la_chunk_states_window(%q: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>, %cs0: tensor<1x2x3x4x4xf32>) {
  // expected-error @+1 {{operand 'chunk_states' needs window 0, got 2}}
  %o:3 = mixer.linear_attention chunk_size(4) window(2) ins(%q, %q, %v : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) outs(%v, %s0, %cs0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x3x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x3x4x4xf32>
  return
}

// -----

func.func @la_chunk_states_rows(%q: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>, %cs0: tensor<1x2x2x4x4xf32>) {
  // expected-error @+1 {{operand 'chunk_states' dim 2 (C) must be L / chunk_size + 1 = 3, got 2}}
  %o:3 = mixer.linear_attention chunk_size(4) ins(%q, %q, %v : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) outs(%v, %s0, %cs0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x4x4xf32>
  return
}

// -----

func.func @la_chunk_states_shape(%q: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x6xf32>, %s0: tensor<1x2x4x6xf32>, %cs0: tensor<1x2x3x4x5xf32>) {
  // expected-error @+1 {{'chunk_states' dim 4 (Dv) is 5, but 'v' dim 3 (Dv) is 6}}
  %o:3 = mixer.linear_attention chunk_size(4) ins(%q, %q, %v : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x6xf32>) outs(%v, %s0, %cs0 : tensor<1x8x2x6xf32>, tensor<1x2x4x6xf32>, tensor<1x2x3x4x5xf32>) -> tensor<1x8x2x6xf32>, tensor<1x2x4x6xf32>, tensor<1x2x3x4x5xf32>
  return
}

// -----

func.func @la_backward_chunk_states_window(%q: tensor<1x8x2x4xf32>, %s: tensor<1x2x3x4x4xf32>) {
  // expected-error @+1 {{operand 'chunk_states' needs window 0, got 1}}
  %g:3 = mixer.linear_attention_backward chunk_size(4) window(1) ins(%q, %q, %q : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) chunk_states(%s : tensor<1x2x3x4x4xf32>) outs(%q, %q, %q : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>
  return
}

// -----

func.func @la_backward_chunk_states_rows(%q: tensor<1x8x2x4xf32>, %s: tensor<1x2x4x4x4xf32>) {
  // expected-error @+1 {{operand 'chunk_states' dim 2 (C) must be L / chunk_size + 1 = 3, got 4}}
  %g:3 = mixer.linear_attention_backward chunk_size(4) ins(%q, %q, %q : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) chunk_states(%s : tensor<1x2x4x4x4xf32>) outs(%q, %q, %q : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>
  return
}

// -----

func.func @la_backward_chunk_states_shape(%q: tensor<1x8x2x4xf32>, %s: tensor<1x2x3x5x4xf32>) {
  // expected-error @+1 {{'chunk_states' dim 3 (Dk) is 5, but 'q' dim 3 (Dk) is 4}}
  %g:3 = mixer.linear_attention_backward chunk_size(4) ins(%q, %q, %q : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) chunk_states(%s : tensor<1x2x3x5x4xf32>) outs(%q, %q, %q : tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>
  return
}
