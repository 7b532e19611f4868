// RUN: mixer-opt %s -split-input-file -verify-diagnostics
// Every verifier error of mixer.selective_scan_backward.

func.func @ssb_chunk_size(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{attribute 'chunk_size' must be positive, got 0}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(0) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_outs_count(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %h: tensor<2x4x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{expects 6 'outs', one per gradient (du, ddelta, dA, db, dc, dinit), got 5}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) init(%h : tensor<2x4x3xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_u_rank(%u: tensor<8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{operand 'u' must have rank 3 [B, L, D], got rank 2}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_A_channels(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<5x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{'A' dim 0 (D) is 5, but 'u' dim 2 (D) is 4}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<5x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_groups(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x3x3xf32>, %c: tensor<2x8x3x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x3x3xf32>, %g4: tensor<2x8x3x3xf32>) {
  // expected-error @+1 {{channels D = 4 of 'u' must be a multiple of groups G = 3 of 'b' and 'c'}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x3x3xf32>, tensor<2x8x3x3xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x3x3xf32>, tensor<2x8x3x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x3x3xf32>, tensor<2x8x3x3xf32>
  return
}

// -----

func.func @ssb_dy(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %dy: tensor<2x7x4xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{'dy' dim 1 (L) is 7, but 'u' dim 1 (L) is 8}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) dy(%dy : tensor<2x7x4xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_d_final_state(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %ds: tensor<2x4x2xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{'d_final_state' dim 2 (N) is 2, but 'A' dim 1 (N) is 3}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) d_final_state(%ds : tensor<2x4x2xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_chunk_states_rows(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %cs: tensor<2x4x2x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{operand 'chunk_states' dim 2 (C) must be L / chunk_size + 1 = 3, got 2}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) chunk_states(%cs : tensor<2x4x2x3xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_chunk_states_channels(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %cs: tensor<2x2x3x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{'chunk_states' dim 1 (D) is 2, but 'u' dim 2 (D) is 4}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) chunk_states(%cs : tensor<2x2x3x3xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_dA_batch(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{operand 'dA' must have rank 3 [B, D, N], got rank 2}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_db(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x1x3xf32>, %g4: tensor<2x8x2x3xf32>) {
  // expected-error @+1 {{'db' dim 2 (G) is 1, but 'b' dim 2 (G) is 2}}
  %r0, %r1, %r2, %r3, %r4 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x1x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x1x3xf32>, tensor<2x8x2x3xf32>
  return
}

// -----

func.func @ssb_dD_skip(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %d: tensor<4xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>, %g5: tensor<4xf32>) {
  // expected-error @+1 {{operand 'dD_skip' must have rank 2 [B, D], got rank 1}}
  %r0, %r1, %r2, %r3, %r4, %r5 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) D_skip(%d : tensor<4xf32>) outs(%g0, %g1, %g2, %g3, %g4, %g5 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<4xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<4xf32>
  return
}

// -----

func.func @ssb_dz(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %z: tensor<2x8x4xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>, %g5: tensor<3x8x4xf32>) {
  // expected-error @+1 {{'dz' dim 0 (B) is 3, but 'u' dim 0 (B) is 2}}
  %r0, %r1, %r2, %r3, %r4, %r5 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) z(%z : tensor<2x8x4xf32>) outs(%g0, %g1, %g2, %g3, %g4, %g5 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<3x8x4xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<3x8x4xf32>
  return
}

// -----

func.func @ssb_ddelta_bias(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %e: tensor<4xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>, %g5: tensor<2x8xf32>) {
  // expected-error @+1 {{'ddelta_bias' dim 1 (D) is 8, but 'u' dim 2 (D) is 4}}
  %r0, %r1, %r2, %r3, %r4, %r5 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) delta_bias(%e : tensor<4xf32>) outs(%g0, %g1, %g2, %g3, %g4, %g5 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8xf32>
  return
}

// -----

func.func @ssb_dinit(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %h: tensor<2x4x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>, %g5: tensor<2x4x4xf32>) {
  // expected-error @+1 {{'dinit' dim 2 (N) is 4, but 'A' dim 1 (N) is 3}}
  %r0, %r1, %r2, %r3, %r4, %r5 = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) init(%h : tensor<2x4x3xf32>) outs(%g0, %g1, %g2, %g3, %g4, %g5 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<2x4x4xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<2x4x4xf32>
  return
}
