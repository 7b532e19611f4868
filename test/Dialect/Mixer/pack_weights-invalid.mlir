// RUN: mixer-opt %s -split-input-file -verify-diagnostics
// Every verifier error of mixer.pack_weights and of the grouped ops' packed
// weights ([E, P, K, W] with P = ceil(N / W)).

func.func @pack_weights_rank(%w: tensor<4x32xf32>, %p0: tensor<4x1x32x16xf32>) {
  // expected-error @+1 {{operand 'weights' must have rank 3 [E, K, N], got rank 2}}
  %p = mixer.pack_weights ins(%w : tensor<4x32xf32>) outs(%p0 : tensor<4x1x32x16xf32>) -> tensor<4x1x32x16xf32>
  return
}

// -----

func.func @pack_weights_packed_rank(%w: tensor<4x32x16xf32>, %p0: tensor<4x32x16xf32>) {
  // expected-error @+1 {{operand 'packed' must have rank 4 [E, P, K, W], got rank 3}}
  %p = mixer.pack_weights ins(%w : tensor<4x32x16xf32>) outs(%p0 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  return
}

// -----

func.func @pack_weights_experts(%w: tensor<4x32x16xf32>, %p0: tensor<3x1x32x16xf32>) {
  // expected-error @+1 {{'packed' dim 0 (E) is 3, but 'weights' dim 0 (E) is 4}}
  %p = mixer.pack_weights ins(%w : tensor<4x32x16xf32>) outs(%p0 : tensor<3x1x32x16xf32>) -> tensor<3x1x32x16xf32>
  return
}

// -----

func.func @pack_weights_depth(%w: tensor<4x32x16xf32>, %p0: tensor<4x1x8x16xf32>) {
  // expected-error @+1 {{'packed' dim 2 (K) is 8, but 'weights' dim 1 (K) is 32}}
  %p = mixer.pack_weights ins(%w : tensor<4x32x16xf32>) outs(%p0 : tensor<4x1x8x16xf32>) -> tensor<4x1x8x16xf32>
  return
}

// -----

func.func @pack_weights_panels(%w: tensor<4x32x40xf32>, %p0: tensor<4x2x32x16xf32>) {
  // expected-error @+1 {{operand 'packed' has 2 panels (dim 1), but N = 40 needs ceil(40 / 16) = 3}}
  %p = mixer.pack_weights ins(%w : tensor<4x32x40xf32>) outs(%p0 : tensor<4x2x32x16xf32>) -> tensor<4x2x32x16xf32>
  return
}

// -----

func.func @pack_weights_dynamic_width(%w: tensor<4x32x16xf32>, %p0: tensor<4x1x32x?xf32>) {
  // expected-error @+1 {{operand 'packed' (packed panels [E, P, K, W]) must have a static panel width W}}
  %p = mixer.pack_weights ins(%w : tensor<4x32x16xf32>) outs(%p0 : tensor<4x1x32x?xf32>) -> tensor<4x1x32x?xf32>
  return
}

// -----

func.func @pack_weights_zero_width(%w: tensor<4x32x0xf32>, %p0: tensor<4x0x32x0xf32>) {
  // expected-error @+1 {{operand 'packed' has panel width W = 0, expected W > 0}}
  %p = mixer.pack_weights ins(%w : tensor<4x32x0xf32>) outs(%p0 : tensor<4x0x32x0xf32>) -> tensor<4x0x32x0xf32>
  return
}

// -----

func.func @pack_weights_dynamic_columns(%w: tensor<4x32x?xf32>, %p0: tensor<4x2x32x16xf32>) {
  // expected-error @+1 {{with packed 'packed', N (the columns of the result) must be static}}
  %p = mixer.pack_weights ins(%w : tensor<4x32x?xf32>) outs(%p0 : tensor<4x2x32x16xf32>) -> tensor<4x2x32x16xf32>
  return
}

// -----

func.func @pack_weights_dtype(%w: tensor<4x32x16xf16>, %p0: tensor<4x1x32x16xf32>) {
  // expected-error @+1 {{operand 'weights' must have f32 elements, got 'f16'}}
  %p = mixer.pack_weights ins(%w : tensor<4x32x16xf16>) outs(%p0 : tensor<4x1x32x16xf32>) -> tensor<4x1x32x16xf32>
  return
}

// -----

func.func @grouped_matmul_packed_panels(%lhs: tensor<64x32xf32>, %rhs: tensor<4x1x32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x40xf32>) {
  // expected-error @+1 {{operand 'rhs' has 1 panels (dim 1), but N = 40 needs ceil(40 / 16) = 3}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x1x32x16xf32>, tensor<4xi64>) outs(%o0 : tensor<64x40xf32>) -> tensor<64x40xf32>
  return
}

// -----

func.func @grouped_matmul_packed_depth(%lhs: tensor<64x32xf32>, %rhs: tensor<4x1x8x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{'rhs' dim 2 (K) is 8, but 'lhs' dim 1 (K) is 32}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x1x8x16xf32>, tensor<4xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_matmul_packed_dynamic_columns(%lhs: tensor<64x32xf32>, %rhs: tensor<4x1x32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x?xf32>) {
  // expected-error @+1 {{with packed 'rhs', N (the columns of the result) must be static}}
  %r0 = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x1x32x16xf32>, tensor<4xi64>) outs(%o0 : tensor<64x?xf32>) -> tensor<64x?xf32>
  return
}

// -----

func.func @grouped_swiglu_one_packed(%x: tensor<64x32xf32>, %wg: tensor<4x1x32x16xf32>, %wu: tensor<4x32x16xf32>, %gs: tensor<4xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{operands 'w_gate' and 'w_up' must both be packed panels [E, P, K, W] or both [E, K, F]}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x1x32x16xf32>, tensor<4x32x16xf32>, tensor<4xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}

// -----

func.func @grouped_swiglu_packed_widths(%x: tensor<64x32xf32>, %wg: tensor<4x1x32x16xf32>, %wu: tensor<4x2x32x8xf32>, %gs: tensor<4xi64>, %o0: tensor<64x16xf32>) {
  // expected-error @+1 {{'w_up' dim 1 (P) is 2, but 'w_gate' dim 1 (P) is 1}}
  %r0 = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x1x32x16xf32>, tensor<4x2x32x8xf32>, tensor<4xi64>) outs(%o0 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return
}
