// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file --verify-diagnostics | FileCheck %s
// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s --check-prefixes=CHECK,LOOPS

// An op whose every result is statically empty computes nothing: both
// lowerings replace it by its outs (slicing its empty dimensions would not
// verify).

// CHECK-LABEL: func.func @gated_delta_rule_all_empty
// CHECK-SAME:    %[[O0:[a-z0-9]+]]: tensor<0x0x0x0xf32>, %[[S0:[a-z0-9]+]]: tensor<0x0x0x0xf32>)
// CHECK-NEXT:    return %[[O0]], %[[S0]]
func.func @gated_delta_rule_all_empty(%q: tensor<0x0x0x0xf32>, %k: tensor<0x0x0x0xf32>, %v: tensor<0x0x0x0xf32>, %g: tensor<0x0x0xf32>, %beta: tensor<0x0x0xf32>, %h: tensor<0x0x0x0xf32>, %o0: tensor<0x0x0x0xf32>, %s0: tensor<0x0x0x0xf32>) -> (tensor<0x0x0x0xf32>, tensor<0x0x0x0xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(8) ins(%q, %k, %v, %g, %beta : tensor<0x0x0x0xf32>, tensor<0x0x0x0xf32>, tensor<0x0x0x0xf32>, tensor<0x0x0xf32>, tensor<0x0x0xf32>) init(%h : tensor<0x0x0x0xf32>) outs(%o0, %s0 : tensor<0x0x0x0xf32>, tensor<0x0x0x0xf32>) -> tensor<0x0x0x0xf32>, tensor<0x0x0x0xf32>
  return %o, %s : tensor<0x0x0x0xf32>, tensor<0x0x0x0xf32>
}

// -----

// An empty batch of rows of a grouped GEMM.
// CHECK-LABEL: func.func @grouped_matmul_no_rows
// CHECK-SAME:    %[[OUT:[a-z0-9]+]]: tensor<0x8xf32>)
// CHECK-NEXT:    return %[[OUT]]
func.func @grouped_matmul_no_rows(%lhs: tensor<0x4xf32>, %rhs: tensor<2x4x8xf32>, %gs: tensor<2xi64>, %out: tensor<0x8xf32>) -> tensor<0x8xf32> {
  %r = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<0x4xf32>, tensor<2x4x8xf32>, tensor<2xi64>) outs(%out : tensor<0x8xf32>) -> tensor<0x8xf32>
  return %r : tensor<0x8xf32>
}

// -----

// Not every result empty (a zero-size state but a per-token output of L
// tokens, all zeros): the scalar loops run zero times over N; the blocked
// lowering, which slices N, says it cannot.
// LOOPS-LABEL: func.func @ssd_empty_state_dim
// LOOPS-NOT:     mixer.ssd
// LOOPS:         return
func.func @ssd_empty_state_dim(%x: tensor<1x4x2x4xf32>, %la: tensor<1x4x2xf32>, %b: tensor<1x4x1x0xf32>, %c: tensor<1x4x1x0xf32>, %y0: tensor<1x4x2x4xf32>, %s0: tensor<1x2x4x0xf32>) -> (tensor<1x4x2x4xf32>, tensor<1x2x4x0xf32>) {
  // expected-error @+1 {{'mixer.ssd' op cannot be lowered: the state dim (dim 3 of 'b') must not be 0}}
  %y, %s = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<1x4x2x4xf32>, tensor<1x4x2xf32>, tensor<1x4x1x0xf32>, tensor<1x4x1x0xf32>) outs(%y0, %s0 : tensor<1x4x2x4xf32>, tensor<1x2x4x0xf32>) -> tensor<1x4x2x4xf32>, tensor<1x2x4x0xf32>
  return %y, %s : tensor<1x4x2x4xf32>, tensor<1x2x4x0xf32>
}
