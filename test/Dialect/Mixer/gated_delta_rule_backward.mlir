// RUN: mixer-opt %s | mixer-opt | FileCheck %s
// RUN: mixer-opt %s --mlir-print-op-generic | mixer-opt | FileCheck %s
// Round trip of mixer.gated_delta_rule_backward: the required operands
// only, and every optional operand with saved chunk states.

// CHECK-LABEL: func.func @gated_delta_rule_backward_minimal
// CHECK:         mixer.gated_delta_rule_backward chunk_size(4) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) d_o(%{{.*}} : tensor<2x8x3x5xf32>) outs(
// CHECK-SAME:    -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
func.func @gated_delta_rule_backward_minimal(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %do: tensor<2x8x3x5xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>) -> tensor<2x8x3xf32> {
  %dq, %dk, %dv, %dg, %db = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) d_o(%do : tensor<2x8x3x5xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>
  return %dg : tensor<2x8x3xf32>
}

// CHECK-LABEL: func.func @gated_delta_rule_backward_all
// CHECK:         mixer.gated_delta_rule_backward chunk_size(3) scale(5.000000e-01) ins(
// CHECK-SAME:    init(%{{.*}} : tensor<2x3x4x5xf32>) d_o(%{{.*}} : tensor<2x8x3x5xf32>) d_final_state(%{{.*}} : tensor<2x3x4x5xf32>) chunk_states(%{{.*}} : tensor<2x3x3x4x5xf32>) outs(
// CHECK-SAME:    -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>, tensor<2x3x4x5xf32>
func.func @gated_delta_rule_backward_all(%q: tensor<2x8x3x4xf32>, %k: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x5xf32>, %g: tensor<2x8x3xf32>, %beta: tensor<2x8x3xf32>, %h: tensor<2x3x4x5xf32>, %do: tensor<2x8x3x5xf32>, %ds: tensor<2x3x4x5xf32>, %cs: tensor<2x3x3x4x5xf32>, %o0: tensor<2x8x3x4xf32>, %o1: tensor<2x8x3x4xf32>, %o2: tensor<2x8x3x5xf32>, %o3: tensor<2x8x3xf32>, %o4: tensor<2x8x3xf32>, %o5: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  %r:6 = mixer.gated_delta_rule_backward chunk_size(3) scale(0.5) ins(%q, %k, %v, %g, %beta : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>) init(%h : tensor<2x3x4x5xf32>) d_o(%do : tensor<2x8x3x5xf32>) d_final_state(%ds : tensor<2x3x4x5xf32>) chunk_states(%cs : tensor<2x3x3x4x5xf32>) outs(%o0, %o1, %o2, %o3, %o4, %o5 : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>, tensor<2x3x4x5xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x5xf32>, tensor<2x8x3xf32>, tensor<2x8x3xf32>, tensor<2x3x4x5xf32>
  return %r#5 : tensor<2x3x4x5xf32>
}
