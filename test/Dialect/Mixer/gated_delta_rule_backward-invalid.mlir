// RUN: mixer-opt %s -split-input-file -verify-diagnostics
// Every verifier error of mixer.gated_delta_rule_backward.

func.func @gdrb_chunk_size(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{attribute 'chunk_size' must be positive, got -1}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(-1) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_outs_count(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %h: tensor<2x3x4x5xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{expects 6 'outs', one per gradient (dq, dk, dv, dg, dbeta, dinit), got 5}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) init(%h : tensor<2x3x4x5xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_q_rank(%q: tensor<8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{operand 'q' must have rank 4 [B, L, H, Dk], got rank 3}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_k_dim(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x6xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{'k' dim 3 (Dk) is 6, but 'q' dim 3 (Dk) is 4}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x6xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_beta(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x2xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{'beta' dim 2 (H) is 2, but 'q' dim 2 (H) is 3}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x2xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_d_o(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %do: tensor<2x8x3x4xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{'d_o' dim 3 (Dv) is 4, but 'v' dim 3 (Dv) is 5}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) d_o(%do : tensor<2x8x3x4xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_d_final_state(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %ds: tensor<2x3x5x5xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{'d_final_state' dim 2 (Dk) is 5, but 'q' dim 3 (Dk) is 4}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) d_final_state(%ds : tensor<2x3x5x5xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_chunk_states_rows(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %cs: tensor<2x3x4x4x5xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{operand 'chunk_states' dim 2 (C) must be L / chunk_size + 1 = 3, got 4}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) chunk_states(%cs : tensor<2x3x4x4x5xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_chunk_states_rank(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %cs: tensor<2x3x4x5xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{operand 'chunk_states' must have rank 5 [B, H, C, Dk, Dv], got rank 4}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) chunk_states(%cs : tensor<2x3x4x5xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_dq(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %o0: tensor<2x9x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{'dq' dim 1 (L) is 9, but 'q' dim 1 (L) is 8}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x9x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x9x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_dv(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x4xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{'dv' dim 3 (Dv) is 4, but 'v' dim 3 (Dv) is 5}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_dg(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8xf32>, %o4: tensor<2x8x3xf32>) {
  // expected-error @+1 {{operand 'dg' must have rank 3 [B, L, H], got rank 2}}
  %r0, %r1, %r2, %r3, %r4 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8xf32>, tensor<2x8x3xf32>
  return
}

// -----

func.func @gdrb_dinit(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %h: tensor<2x3x4x5xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>, %o5: tensor<2x1x4x5xf32>) {
  // expected-error @+1 {{'dinit' dim 1 (H) is 1, but 'q' dim 2 (H) is 3}}
  %r0, %r1, %r2, %r3, %r4, %r5 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) init(%h : tensor<2x3x4x5xf32>) outs(%o0, %o1, %o2, %o3, %o4, %o5 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>, tensor<2x1x4x5xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>, tensor<2x1x4x5xf32>
  return
}
