// RUN: mixer-opt %s | mixer-opt | FileCheck %s
// RUN: mixer-opt %s --mlir-print-op-generic | mixer-opt | FileCheck %s
// Round trip of mixer.selective_scan_backward: the required operands only,
// and every optional operand with saved chunk states.

// CHECK-LABEL: func.func @selective_scan_backward_minimal
// CHECK:         mixer.selective_scan_backward chunk_size(4) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) dy(%{{.*}} : tensor<2x8x4xf32>) outs(
// CHECK-SAME:    -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
func.func @selective_scan_backward_minimal(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %dy: tensor<2x8x4xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>) -> tensor<2x4x3xf32> {
  %du, %ddt, %dA, %db, %dc = mixer.selective_scan_backward chunk_size(4) ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) dy(%dy : tensor<2x8x4xf32>) outs(%g0, %g1, %g2, %g3, %g4 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>
  return %dA : tensor<2x4x3xf32>
}

// CHECK-LABEL: func.func @selective_scan_backward_all
// CHECK:         mixer.selective_scan_backward chunk_size(3) delta_softplus ins(
// CHECK-SAME:    D_skip(%{{.*}} : tensor<4xf32>) z(%{{.*}} : tensor<2x8x4xf32>) delta_bias(%{{.*}} : tensor<4xf32>) init(%{{.*}} : tensor<2x4x3xf32>) dy(%{{.*}} : tensor<2x8x4xf32>) d_final_state(%{{.*}} : tensor<2x4x3xf32>) chunk_states(%{{.*}} : tensor<2x4x3x3xf32>) outs(
// CHECK-SAME:    -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<2x4xf32>, tensor<2x8x4xf32>, tensor<2x4xf32>, tensor<2x4x3xf32>
func.func @selective_scan_backward_all(%u: tensor<2x8x4xf32>, %dt: tensor<2x8x4xf32>, %A: tensor<4x3xf32>, %b: tensor<2x8x2x3xf32>, %c: tensor<2x8x2x3xf32>, %d: tensor<4xf32>, %z: tensor<2x8x4xf32>, %bias: tensor<4xf32>, %h: tensor<2x4x3xf32>, %dy: tensor<2x8x4xf32>, %ds: tensor<2x4x3xf32>, %cs: tensor<2x4x3x3xf32>, %g0: tensor<2x8x4xf32>, %g1: tensor<2x8x4xf32>, %g2: tensor<2x4x3xf32>, %g3: tensor<2x8x2x3xf32>, %g4: tensor<2x8x2x3xf32>, %g5: tensor<2x4xf32>, %g6: tensor<2x8x4xf32>, %g7: tensor<2x4xf32>, %g8: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %r:9 = mixer.selective_scan_backward chunk_size(3) delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>) D_skip(%d : tensor<4xf32>) z(%z : tensor<2x8x4xf32>) delta_bias(%bias : tensor<4xf32>) init(%h : tensor<2x4x3xf32>) dy(%dy : tensor<2x8x4xf32>) d_final_state(%ds : tensor<2x4x3xf32>) chunk_states(%cs : tensor<2x4x3x3xf32>) outs(%g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7, %g8 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<2x4xf32>, tensor<2x8x4xf32>, tensor<2x4xf32>, tensor<2x4x3xf32>) -> tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x4x3xf32>, tensor<2x8x2x3xf32>, tensor<2x8x2x3xf32>, tensor<2x4xf32>, tensor<2x8x4xf32>, tensor<2x4xf32>, tensor<2x4x3xf32>
  return %r#8 : tensor<2x4x3xf32>
}
