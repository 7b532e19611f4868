// RUN: mixer-opt %s --mixer-set-target="cpu=skylake-avx512" --convert-mixer-to-linalg | FileCheck %s
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" --convert-mixer-to-linalg | FileCheck %s

// The forward's chunk multiplies its copied keys by the state as they are,
// K S0, and the pass that forms the right-hand side in K S0's buffer takes
// the row scale beta gam there: rhs = beta v - (beta gam) (K S0), from V,
// beta and beta gam. No pass scales K before the product. The backward's
// first pass (the forward's chunk-boundary states) does the same; its
// reverse scan, whose dS0 reads diag(beta gam) K, forms it and multiplies
// it by the state.

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gdr_right_hand_side
// CHECK:         %[[K:.*]] = linalg.copy {{.*}} ins(%{{.*}} : tensor<8x32xf32>) outs(%{{.*}} : tensor<8x32xf32>)
// CHECK-NOT:     outs(%{{.*}} : tensor<8x32xf32>)
// CHECK:         %[[KS:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[K]], %{{.*}} : tensor<8x32xf32>, tensor<32x4xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[$ALL]], #[[$ROW]], #[[$ROW]], #[[$ALL]]], {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<8xf32>, tensor<8xf32>) outs(%[[KS]] : tensor<8x4xf32>)
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32, %[[BETA:.*]]: f32, %[[BG:.*]]: f32, %[[KSE:.*]]: f32):
// CHECK-NEXT:      %[[BV:.*]] = arith.mulf %[[V]], %[[BETA]] : f32
// CHECK-NEXT:      %[[BKS:.*]] = arith.mulf %[[BG]], %[[KSE]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.subf %[[BV]], %[[BKS]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @gdr_right_hand_side(%q: tensor<1x16x1x32xf32>, %k: tensor<1x16x1x32xf32>, %v: tensor<1x16x1x4xf32>,
                               %g: tensor<1x16x1xf32>, %beta: tensor<1x16x1xf32>,
                               %o0: tensor<1x16x1x4xf32>, %s0: tensor<1x1x32x4xf32>)
    -> (tensor<1x16x1x4xf32>, tensor<1x1x32x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(8)
      ins(%q, %k, %v, %g, %beta : tensor<1x16x1x32xf32>, tensor<1x16x1x32xf32>, tensor<1x16x1x4xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>)
      outs(%o0, %s0 : tensor<1x16x1x4xf32>, tensor<1x1x32x4xf32>)
      -> tensor<1x16x1x4xf32>, tensor<1x1x32x4xf32>
  return %o, %s : tensor<1x16x1x4xf32>, tensor<1x1x32x4xf32>
}

// CHECK-LABEL: func.func @gdr_backward_right_hand_side
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK:         %[[KB:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8x32xf32>)
// CHECK:         %[[KBS:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[KB]], %{{.*}} : tensor<8x32xf32>, tensor<32x4xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<8xf32>) outs(%[[KBS]] : tensor<8x4xf32>)
func.func @gdr_backward_right_hand_side(%q: tensor<1x16x1x32xf32>, %k: tensor<1x16x1x32xf32>, %v: tensor<1x16x1x4xf32>,
                                        %g: tensor<1x16x1xf32>, %beta: tensor<1x16x1xf32>, %do: tensor<1x16x1x4xf32>, %ds: tensor<1x1x32x4xf32>,
                                        %o0: tensor<1x16x1x32xf32>, %o1: tensor<1x16x1x32xf32>, %o2: tensor<1x16x1x4xf32>, %o3: tensor<1x16x1xf32>, %o4: tensor<1x16x1xf32>)
    -> (tensor<1x16x1x32xf32>, tensor<1x16x1x32xf32>, tensor<1x16x1x4xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>) {
  %r:5 = mixer.gated_delta_rule_backward chunk_size(8) scale(0.5)
      ins(%q, %k, %v, %g, %beta : tensor<1x16x1x32xf32>, tensor<1x16x1x32xf32>, tensor<1x16x1x4xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>)
      d_o(%do : tensor<1x16x1x4xf32>) d_final_state(%ds : tensor<1x1x32x4xf32>)
      outs(%o0, %o1, %o2, %o3, %o4 : tensor<1x16x1x32xf32>, tensor<1x16x1x32xf32>, tensor<1x16x1x4xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>)
      -> tensor<1x16x1x32xf32>, tensor<1x16x1x32xf32>, tensor<1x16x1x4xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<1x16x1x32xf32>, tensor<1x16x1x32xf32>, tensor<1x16x1x4xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>
}
