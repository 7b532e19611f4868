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

func.func @ssd_chunk_states_rows(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>, %cs0: tensor<1x2x2x4x4xf32>) {
  // expected-error @+1 {{operand 'chunk_states' dim 2 (C) must be L / chunk_size + 1 = 3, got 2}}
  %y, %s, %cs = mixer.ssd chunk_size(4) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0, %cs0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x4x4xf32>
  return
}

// -----

func.func @ssd_chunk_states_shape(%x: tensor<1x8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32>, %s0: tensor<1x2x4x4xf32>, %cs0: tensor<1x2x3x4x5xf32>) {
  // expected-error @+1 {{'chunk_states' dim 4 (P) is 5, but 'x' dim 3 (P) is 4}}
  %y, %s, %cs = mixer.ssd chunk_size(4) ins(%x, %la, %b, %b : tensor<1x8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0, %cs0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x3x4x5xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x3x4x5xf32>
  return
}

// -----

func.func @grouped_matmul_lhs_rank(%lhs: tensor<32xf32>, %rhs: tensor<4x32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{operand 'lhs' must have rank 2 [T, K], got rank 1}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<32xf32>, tensor<4x32x16xf32>, tensor<4xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_matmul_lhs_dtype(%lhs: tensor<64x32xf16>, %rhs: tensor<4x32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{operand 'lhs' must have f32 elements, got 'f16'}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf16>, tensor<4x32x16xf32>, tensor<4xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_matmul_rhs_rank(%lhs: tensor<64x32xf32>, %rhs: tensor<32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{operand 'rhs' must have rank 3 [E, K, N], got rank 2}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<32x16xf32>, tensor<4xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_matmul_rhs_depth(%lhs: tensor<64x32xf32>, %rhs: tensor<4x5x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{'rhs' dim 1 (K) is 5, but 'lhs' dim 1 (K) is 32}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x5x16xf32>, tensor<4xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_matmul_group_sizes_rank(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x16xf32>, %gs: tensor<4x1xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{operand 'group_sizes' must have rank 1 [E], got rank 2}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4x1xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_matmul_group_sizes_dtype(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x16xf32>, %gs: tensor<4xf32>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{operand 'group_sizes' must have i32 or i64 elements, got 'f32'}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xf32>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_matmul_group_sizes_experts(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x16xf32>, %gs: tensor<3xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{'group_sizes' dim 0 (E) is 3, but 'rhs' dim 0 (E) is 4}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<3xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_matmul_outs_count(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x16xf32>, %o1: tensor<64x16xf32>) {
  // expected-error @+1 {{expects 1 outs operands (one per result), got 2}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>) outs(%o0, %o1 : tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_matmul_result_type(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<64x8xf32>', but outs operand #0 has type 'tensor<64x16xf32>'}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x8xf32>
  return
}

// -----

func.func @grouped_matmul_out_rows(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<32x16xf32>) {
  // expected-error @+1 {{'out' dim 0 (T) is 32, but 'lhs' dim 0 (T) is 64}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>) outs(%o0 : tensor<32x16xf32>) -> tensor<32x16xf32>
  return
}

// -----

func.func @grouped_matmul_out_cols(%lhs: tensor<?x32xf32>, %rhs: tensor<4x32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<?x8xf32>) {
  // expected-error @+1 {{'out' dim 1 (N) is 8, but 'rhs' dim 2 (N) is 16}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>) outs(%o0 : tensor<?x8xf32>) -> tensor<?x8xf32>
  return
}

// -----

func.func @grouped_swiglu_x_rank(%x: tensor<1x64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %gs: tensor<4xi32>, %o0: tensor<64x48xf32>) {
  // expected-error @+1 {{operand 'x' must have rank 2 [T, K], got rank 3}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<1x64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>) outs(%o0 : tensor<64x48xf32>) -> tensor<64x48xf32>
  return
}

// -----

func.func @grouped_swiglu_w_gate_depth(%x: tensor<64x32xf32>, %wg: tensor<4x16x48xf32>, %wu: tensor<4x32x48xf32>, %gs: tensor<4xi32>, %o0: tensor<64x48xf32>) {
  // expected-error @+1 {{'w_gate' dim 1 (K) is 16, but 'x' dim 1 (K) is 32}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x16x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>) outs(%o0 : tensor<64x48xf32>) -> tensor<64x48xf32>
  return
}

// -----

func.func @grouped_swiglu_w_gate_dtype(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xbf16>, %wu: tensor<4x32x48xf32>, %gs: tensor<4xi32>, %o0: tensor<64x48xf32>) {
  // expected-error @+1 {{operand 'w_gate' must have f32 elements, got 'bf16'}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x32x48xbf16>, tensor<4x32x48xf32>, tensor<4xi32>) outs(%o0 : tensor<64x48xf32>) -> tensor<64x48xf32>
  return
}

// -----

func.func @grouped_swiglu_w_up_width(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x40xf32>, %gs: tensor<4xi32>, %o0: tensor<64x48xf32>) {
  // expected-error @+1 {{'w_up' dim 2 (F) is 40, but 'w_gate' dim 2 (F) is 48}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x40xf32>, tensor<4xi32>) outs(%o0 : tensor<64x48xf32>) -> tensor<64x48xf32>
  return
}

// -----

func.func @grouped_swiglu_w_up_experts(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<2x32x48xf32>, %gs: tensor<4xi32>, %o0: tensor<64x48xf32>) {
  // expected-error @+1 {{'w_up' dim 0 (E) is 2, but 'w_gate' dim 0 (E) is 4}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<2x32x48xf32>, tensor<4xi32>) outs(%o0 : tensor<64x48xf32>) -> tensor<64x48xf32>
  return
}

// -----

func.func @grouped_swiglu_group_sizes_dtype(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %gs: tensor<4xi16>, %o0: tensor<64x48xf32>) {
  // expected-error @+1 {{operand 'group_sizes' must have i32 or i64 elements, got 'i16'}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi16>) outs(%o0 : tensor<64x48xf32>) -> tensor<64x48xf32>
  return
}

// -----

func.func @grouped_swiglu_group_sizes_experts(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %gs: tensor<8xi32>, %o0: tensor<64x48xf32>) {
  // expected-error @+1 {{'group_sizes' dim 0 (E) is 8, but 'w_gate' dim 0 (E) is 4}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<8xi32>) outs(%o0 : tensor<64x48xf32>) -> tensor<64x48xf32>
  return
}

// -----

func.func @grouped_swiglu_out_width(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %gs: tensor<4xi32>, %o0: tensor<64x32xf32>) {
  // expected-error @+1 {{'out' dim 1 (F) is 32, but 'w_gate' dim 2 (F) is 48}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>) outs(%o0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @grouped_swiglu_outs_count(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %gs: tensor<4xi32>, %o0: tensor<64x48xf32>, %o1: tensor<64x48xf32>) {
  // expected-error @+1 {{expects 1 outs operands (one per result), got 2}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>) outs(%o0, %o1 : tensor<64x48xf32>, tensor<64x48xf32>) -> tensor<64x48xf32>
  return
}

// -----

func.func @topk_router_k_zero(%logits: tensor<64x4xf32>, %o0: tensor<64x2xf32>, %o1: tensor<64x2xi32>) {
  // expected-error @+1 {{attribute 'k' must be at least 1, got 0}}
  %r0, %r1 = mixer.topk_router k(0) ins(%logits : tensor<64x4xf32>) outs(%o0, %o1 : tensor<64x2xf32>, tensor<64x2xi32>) -> tensor<64x2xf32>, tensor<64x2xi32>
  return
}

// -----

func.func @topk_router_k_too_large(%logits: tensor<64x4xf32>, %o0: tensor<64x5xf32>, %o1: tensor<64x5xi32>) {
  // expected-error @+1 {{attribute 'k' = 5 must not exceed the number of experts E = 4 of 'logits'}}
  %r0, %r1 = mixer.topk_router k(5) ins(%logits : tensor<64x4xf32>) outs(%o0, %o1 : tensor<64x5xf32>, tensor<64x5xi32>) -> tensor<64x5xf32>, tensor<64x5xi32>
  return
}

// -----

func.func @topk_router_logits_rank(%logits: tensor<4xf32>, %o0: tensor<64x2xf32>, %o1: tensor<64x2xi32>) {
  // expected-error @+1 {{operand 'logits' must have rank 2 [T, E], got rank 1}}
  %r0, %r1 = mixer.topk_router k(2) ins(%logits : tensor<4xf32>) outs(%o0, %o1 : tensor<64x2xf32>, tensor<64x2xi32>) -> tensor<64x2xf32>, tensor<64x2xi32>
  return
}

// -----

func.func @topk_router_logits_dtype(%logits: tensor<64x4xi32>, %o0: tensor<64x2xf32>, %o1: tensor<64x2xi32>) {
  // expected-error @+1 {{operand 'logits' must have f32 elements, got 'i32'}}
  %r0, %r1 = mixer.topk_router k(2) normalize ins(%logits : tensor<64x4xi32>) outs(%o0, %o1 : tensor<64x2xf32>, tensor<64x2xi32>) -> tensor<64x2xf32>, tensor<64x2xi32>
  return
}

// -----

func.func @topk_router_weights_k(%logits: tensor<64x4xf32>, %o0: tensor<64x3xf32>, %o1: tensor<64x2xi32>) {
  // expected-error @+1 {{'weights' dim 1 (k) is 3, but attribute 'k' is 2}}
  %r0, %r1 = mixer.topk_router k(2) ins(%logits : tensor<64x4xf32>) outs(%o0, %o1 : tensor<64x3xf32>, tensor<64x2xi32>) -> tensor<64x3xf32>, tensor<64x2xi32>
  return
}

// -----

func.func @topk_router_weights_dtype(%logits: tensor<64x4xf32>, %o0: tensor<64x2xf16>, %o1: tensor<64x2xi32>) {
  // expected-error @+1 {{operand 'weights' must have f32 elements, got 'f16'}}
  %r0, %r1 = mixer.topk_router k(2) ins(%logits : tensor<64x4xf32>) outs(%o0, %o1 : tensor<64x2xf16>, tensor<64x2xi32>) -> tensor<64x2xf16>, tensor<64x2xi32>
  return
}

// -----

func.func @topk_router_expert_ids_dtype(%logits: tensor<64x4xf32>, %o0: tensor<64x2xf32>, %o1: tensor<64x2xi64>) {
  // expected-error @+1 {{operand 'expert_ids' must have i32 elements, got 'i64'}}
  %r0, %r1 = mixer.topk_router k(2) ins(%logits : tensor<64x4xf32>) outs(%o0, %o1 : tensor<64x2xf32>, tensor<64x2xi64>) -> tensor<64x2xf32>, tensor<64x2xi64>
  return
}

// -----

func.func @topk_router_expert_ids_rows(%logits: tensor<64x4xf32>, %o0: tensor<64x2xf32>, %o1: tensor<32x2xi32>) {
  // expected-error @+1 {{'expert_ids' dim 0 (T) is 32, but 'logits' dim 0 (T) is 64}}
  %r0, %r1 = mixer.topk_router k(2) ins(%logits : tensor<64x4xf32>) outs(%o0, %o1 : tensor<64x2xf32>, tensor<32x2xi32>) -> tensor<64x2xf32>, tensor<32x2xi32>
  return
}

// -----

func.func @topk_router_outs_count(%logits: tensor<64x4xf32>, %o0: tensor<64x2xf32>) {
  // expected-error @+1 {{expects 2 outs operands (one per result), got 1}}
  %r0, %r1 = mixer.topk_router k(2) ins(%logits : tensor<64x4xf32>) outs(%o0 : tensor<64x2xf32>) -> tensor<64x2xf32>, tensor<64x2xi32>
  return
}

// -----

func.func @moe_dispatch_num_experts(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{attribute 'num_experts' must be positive, got 0}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(0) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_x_rank(%x: tensor<64x1x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{operand 'x' must have rank 2 [T, K], got rank 3}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x1x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_x_dtype(%x: tensor<64x32xf64>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{operand 'x' must have f32 elements, got 'f64'}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf64>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_expert_ids_dtype(%x: tensor<64x32xf32>, %ids: tensor<64x2xi64>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{operand 'expert_ids' must have i32 elements, got 'i64'}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi64>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_expert_ids_rank(%x: tensor<64x32xf32>, %ids: tensor<128xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{operand 'expert_ids' must have rank 2 [T, k], got rank 1}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<128xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_expert_ids_rows(%x: tensor<64x32xf32>, %ids: tensor<32x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{'expert_ids' dim 0 (T) is 32, but 'x' dim 0 (T) is 64}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<32x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_sorted_rows(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<64x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{'sorted' dim 0 (T*k) is 64, but T*k (64*2) is 128}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<64x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<64x32xf32>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_sorted_cols(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x16xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{'sorted' dim 1 (K) is 16, but 'x' dim 1 (K) is 32}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x16xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x16xf32>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_sorted_dtype(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf16>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{operand 'sorted' must have f32 elements, got 'f16'}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf16>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf16>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_group_sizes_experts(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<3xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{'group_sizes' dim 0 (E) is 3, but attribute 'num_experts' is 4}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<3xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<3xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_group_sizes_dtype(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi32>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{operand 'group_sizes' must have i64 elements, got 'i32'}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi32>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi32>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_permutation_rows(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<64xi32>) {
  // expected-error @+1 {{'permutation' dim 0 (T*k) is 64, but T*k (64*2) is 128}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<64xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<64xi32>
  return
}

// -----

func.func @moe_dispatch_permutation_dtype(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi64>) {
  // expected-error @+1 {{operand 'permutation' must have i32 elements, got 'i64'}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi64>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi64>
  return
}

// -----

func.func @moe_dispatch_permutation_rank(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128x1xi32>) {
  // expected-error @+1 {{operand 'permutation' must have rank 1 [T*k], got rank 2}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<128x1xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128x1xi32>
  return
}

// -----

func.func @moe_dispatch_dynamic_rows_disagree(%x: tensor<?x32xf32>, %ids: tensor<?x2xi32>, %o0: tensor<6x32xf32>, %o1: tensor<4xi64>, %o2: tensor<8xi32>) {
  // expected-error @+1 {{'permutation' dim 0 (T*k) is 8, but 'sorted' dim 0 (T*k) is 6}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<?x32xf32>, tensor<?x2xi32>) outs(%o0, %o1, %o2 : tensor<6x32xf32>, tensor<4xi64>, tensor<8xi32>) -> tensor<6x32xf32>, tensor<4xi64>, tensor<8xi32>
  return
}

// -----

func.func @moe_dispatch_rows_not_multiple_of_k(%x: tensor<?x32xf32>, %ids: tensor<?x2xi32>, %o0: tensor<7x32xf32>, %o1: tensor<4xi64>, %o2: tensor<?xi32>) {
  // expected-error @+1 {{rows T*k = 7 of 'sorted' and 'permutation' must be a multiple of k = 2 of 'expert_ids'}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<?x32xf32>, tensor<?x2xi32>) outs(%o0, %o1, %o2 : tensor<7x32xf32>, tensor<4xi64>, tensor<?xi32>) -> tensor<7x32xf32>, tensor<4xi64>, tensor<?xi32>
  return
}

// -----

func.func @moe_dispatch_outs_count(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>) {
  // expected-error @+1 {{expects 3 outs operands (one per result), got 2}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1 : tensor<128x32xf32>, tensor<4xi64>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_dispatch_result_type(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>, %o0: tensor<128x32xf32>, %o1: tensor<4xi64>, %o2: tensor<128xi32>) {
  // expected-error @+1 {{result #1 has type 'tensor<5xi64>', but outs operand #1 has type 'tensor<4xi64>'}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>) outs(%o0, %o1, %o2 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<5xi64>, tensor<128xi32>
  return
}

// -----

func.func @moe_combine_weights_rank(%eo: tensor<128x32xf32>, %perm: tensor<128xi32>, %w: tensor<128xf32>, %o0: tensor<64x32xf32>) {
  // expected-error @+1 {{operand 'weights' must have rank 2 [T, k], got rank 1}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<128xi32>, tensor<128xf32>) outs(%o0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @moe_combine_weights_dtype(%eo: tensor<128x32xf32>, %perm: tensor<128xi32>, %w: tensor<64x2xf16>, %o0: tensor<64x32xf32>) {
  // expected-error @+1 {{operand 'weights' must have f32 elements, got 'f16'}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<128xi32>, tensor<64x2xf16>) outs(%o0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @moe_combine_expert_out_rows(%eo: tensor<100x32xf32>, %perm: tensor<128xi32>, %w: tensor<64x2xf32>, %o0: tensor<64x32xf32>) {
  // expected-error @+1 {{'expert_out' dim 0 (T*k) is 100, but T*k (64*2) is 128}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<100x32xf32>, tensor<128xi32>, tensor<64x2xf32>) outs(%o0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @moe_combine_expert_out_dtype(%eo: tensor<128x32xi32>, %perm: tensor<128xi32>, %w: tensor<64x2xf32>, %o0: tensor<64x32xf32>) {
  // expected-error @+1 {{operand 'expert_out' must have f32 elements, got 'i32'}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xi32>, tensor<128xi32>, tensor<64x2xf32>) outs(%o0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @moe_combine_permutation_rows(%eo: tensor<128x32xf32>, %perm: tensor<64xi32>, %w: tensor<64x2xf32>, %o0: tensor<64x32xf32>) {
  // expected-error @+1 {{'permutation' dim 0 (T*k) is 64, but T*k (64*2) is 128}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<64xi32>, tensor<64x2xf32>) outs(%o0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @moe_combine_permutation_dtype(%eo: tensor<128x32xf32>, %perm: tensor<128xi64>, %w: tensor<64x2xf32>, %o0: tensor<64x32xf32>) {
  // expected-error @+1 {{operand 'permutation' must have i32 elements, got 'i64'}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<128xi64>, tensor<64x2xf32>) outs(%o0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @moe_combine_out_rows(%eo: tensor<128x32xf32>, %perm: tensor<128xi32>, %w: tensor<64x2xf32>, %o0: tensor<32x32xf32>) {
  // expected-error @+1 {{'out' dim 0 (T) is 32, but 'weights' dim 0 (T) is 64}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<128xi32>, tensor<64x2xf32>) outs(%o0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  return
}

// -----

func.func @moe_combine_out_cols(%eo: tensor<128x32xf32>, %perm: tensor<128xi32>, %w: tensor<64x2xf32>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{'out' dim 1 (N) is 16, but 'expert_out' dim 1 (N) is 32}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<128xi32>, tensor<64x2xf32>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @moe_combine_rows_from_out(%eo: tensor<100x32xf32>, %perm: tensor<?xi32>, %w: tensor<?x2xf32>, %o0: tensor<64x32xf32>) {
  // expected-error @+1 {{T*k (64*2) is 128, but 'expert_out' dim 0 (T*k) is 100}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<100x32xf32>, tensor<?xi32>, tensor<?x2xf32>) outs(%o0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @moe_combine_rows_not_multiple_of_k(%eo: tensor<7x32xf32>, %perm: tensor<?xi32>, %w: tensor<?x2xf32>, %o0: tensor<?x32xf32>) {
  // expected-error @+1 {{rows T*k = 7 of 'expert_out' and 'permutation' must be a multiple of k = 2 of 'weights'}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<7x32xf32>, tensor<?xi32>, tensor<?x2xf32>) outs(%o0 : tensor<?x32xf32>) -> tensor<?x32xf32>
  return
}

// -----

func.func @moe_combine_outs_count(%eo: tensor<128x32xf32>, %perm: tensor<128xi32>, %w: tensor<64x2xf32>, %o0: tensor<64x32xf32>, %o1: tensor<64x32xf32>) {
  // expected-error @+1 {{expects 1 outs operands (one per result), got 2}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<128xi32>, tensor<64x2xf32>) outs(%o0, %o1 : tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @moe_combine_result_type(%eo: tensor<128x32xf32>, %perm: tensor<128xi32>, %w: tensor<64x2xf32>, %o0: tensor<64x32xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<64x31xf32>', but outs operand #0 has type 'tensor<64x32xf32>'}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<128xi32>, tensor<64x2xf32>) outs(%o0 : tensor<64x32xf32>) -> tensor<64x31xf32>
  return
}

// -----

func.func @moe_dispatch_permutation_range(%x: tensor<1073741824x1xf32>, %ids: tensor<1073741824x2xi32>, %o0: tensor<2147483648x1xf32>, %o1: tensor<4xi64>, %o2: tensor<2147483648xi32>) {
  // expected-error @+1 {{operand 'permutation' cannot index T*k = 2147483648 slots with i32 elements}}
  %r0, %r1, %r2 = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<1073741824x1xf32>, tensor<1073741824x2xi32>) outs(%o0, %o1, %o2 : tensor<2147483648x1xf32>, tensor<4xi64>, tensor<2147483648xi32>) -> tensor<2147483648x1xf32>, tensor<4xi64>, tensor<2147483648xi32>
  return
}

// -----

func.func @moe_combine_permutation_range(%eo: tensor<?x1xf32>, %perm: tensor<2147483648xi32>, %w: tensor<?x2xf32>, %o0: tensor<?x1xf32>) {
  // expected-error @+1 {{operand 'permutation' cannot index T*k = 2147483648 slots with i32 elements}}
  %r0 = mixer.moe_combine ins(%eo, %perm, %w : tensor<?x1xf32>, tensor<2147483648xi32>, tensor<?x2xf32>) outs(%o0 : tensor<?x1xf32>) -> tensor<?x1xf32>
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

func.func @transport_cost_kind(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %u: tensor<8xf32>, %v: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>) {
  // expected-error @+1 {{attribute 'cost' must be a cost (sqeuclidean, gaussian or laplacian), got matern32}}
  %r = mixer.transport_cost cost(matern32) ins(%x, %y, %u, %v, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0 : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @transport_cost_x_rank(%x: tensor<8xf32>, %y: tensor<16x3xf32>, %u: tensor<8xf32>, %v: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>) {
  // expected-error @+1 {{operand 'x' must have rank 2 [N, D] or rank 3 [Bt, N, D], got rank 1}}
  %r = mixer.transport_cost cost(sqeuclidean) ins(%x, %y, %u, %v, %e : tensor<8xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0 : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @transport_cost_log_u_points(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %u: tensor<9xf32>, %v: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>) {
  // expected-error @+1 {{'log_u' dim 0 (N) is 9, but 'x' dim 0 (N) is 8}}
  %r = mixer.transport_cost cost(sqeuclidean) ins(%x, %y, %u, %v, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<9xf32>, tensor<16xf32>, tensor<f32>) outs(%o0 : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @transport_cost_log_v_rank(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %u: tensor<2x8xf32>, %v: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<2x8xf32>) {
  // expected-error @+1 {{operand 'log_v' must have rank 2 [Bt, M], got rank 1}}
  %r = mixer.transport_cost cost(sqeuclidean) ins(%x, %y, %u, %v, %e : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @transport_cost_log_v_points(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %u: tensor<8xf32>, %v: tensor<17xf32>, %e: tensor<f32>, %o0: tensor<8xf32>) {
  // expected-error @+1 {{'log_v' dim 0 (M) is 17, but 'y' dim 0 (M) is 16}}
  %r = mixer.transport_cost cost(sqeuclidean) ins(%x, %y, %u, %v, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<17xf32>, tensor<f32>) outs(%o0 : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @transport_cost_dim(%x: tensor<8x3xf32>, %y: tensor<16x2xf32>, %u: tensor<8xf32>, %v: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<8xf32>) {
  // expected-error @+1 {{'y' dim 1 (D) is 2, but 'x' dim 1 (D) is 3}}
  %r = mixer.transport_cost cost(sqeuclidean) ins(%x, %y, %u, %v, %e : tensor<8x3xf32>, tensor<16x2xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0 : tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @transport_cost_out(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %u: tensor<8xf32>, %v: tensor<16xf32>, %e: tensor<f32>, %o0: tensor<16xf32>) {
  // expected-error @+1 {{'out' dim 0 (N) is 16, but 'x' dim 0 (N) is 8}}
  %r = mixer.transport_cost cost(sqeuclidean) ins(%x, %y, %u, %v, %e : tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) outs(%o0 : tensor<16xf32>) -> tensor<16xf32>
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
