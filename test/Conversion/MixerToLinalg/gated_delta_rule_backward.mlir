// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s --implicit-check-not='tensor<37x8x4xf32>' --implicit-check-not='tensor<2x37x3x8x4xf32>'

// H = 3 heads, chunks of Q = 16 tokens (37 = 2 * 16 + 5). First the
// boundary states [B, H, 3, Dk, Dv], from the forward's WY chunks (prefix
// sums of g, forward substitution) without output; then, per (batch, head),
// the reverse scan carrying dS (from d_final_state): the 5 tail tokens from
// the last (each recomputing its state from boundary row 2), then chunks 1
// and 0 in the WY form: the chunk's factors recomputed from its boundary
// state (prefix sums, forward substitution), a back substitution (rows from
// the last: row 14 from row 15 first, row 0 from rows 1-15 last, static
// ops) for the cotangent of the right-hand side, and the chunk's
// gradients written as [16, D] rows at once. No per-token state of the
// sequence.

// CHECK-LABEL: func.func @gdrb
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C36:.*]] = arith.constant 36 : index
// CHECK:         tensor.empty(%{{.*}}, %[[C3]]) : tensor<?x3x?x8x4xf32>
// CHECK:         %[[BND:.*]] = scf.for
// CHECK:               scf.for {{.*}} -> (f64, tensor<16xf64>)
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x15xf32>, tensor<15x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// CHECK:         %[[R:.*]]:6 = scf.for %[[BI:[^ ]*]] =
// CHECK:           scf.for %[[HEAD:[^ ]*]] =
// CHECK:             tensor.extract_slice %{{.*}}[%[[BI]], %[[HEAD]], 0, 0] [1, 1, 8, 4]
// CHECK:             scf.for %[[TI:[^ ]*]] =
// CHECK:               %[[TOK:.*]] = arith.subi %[[C36]], %[[TI]] : index
// CHECK:               tensor.extract_slice %[[BND]][%[[BI]], %[[HEAD]], %[[C2]], 0, 0] [1, 1, 1, 8, 4]
// CHECK:               scf.for %{{.*}} = %[[C32]] to %[[TOK]]
// CHECK:             scf.for %[[CI:[^ ]*]] = %{{.*}} to %[[C2]]
// CHECK:               arith.subi %{{.*}}, %[[CI]] : index
// CHECK:               scf.for {{.*}} -> (f64, tensor<16xf64>)
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x15xf32>, tensor<15x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// CHECK:               %[[AT:.*]] = linalg.transpose ins(%{{.*}} : tensor<16x16xf32>)
// CHECK:               %[[NEGAT:.*]] = linalg.generic {{.*}} ins(%[[AT]] : tensor<16x16xf32>) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK-NEXT:            ^bb0
// CHECK-NEXT:              arith.negf
// CHECK:               tensor.extract_slice %[[NEGAT]][14, 15] [1, 1] [1, 1] : tensor<16x16xf32> to tensor<1x1xf32>
// CHECK:               tensor.extract_slice %{{.*}}[15, 0] [1, 4] [1, 1] : tensor<16x4xf32> to tensor<1x4xf32>
// CHECK:               tensor.extract_slice %[[NEGAT]][0, 1] [1, 15] [1, 1] : tensor<16x16xf32> to tensor<1x15xf32>
// CHECK:               tensor.extract_slice %{{.*}}[1, 0] [15, 4] [1, 1] : tensor<16x4xf32> to tensor<15x4xf32>
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, %[[HEAD]], 0] [1, 16, 1, 8]
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, %[[HEAD]], 0] [1, 16, 1, 8]
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, %[[HEAD]], 0] [1, 16, 1, 4]
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, %[[HEAD]]] [1, 16, 1]
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, %[[HEAD]]] [1, 16, 1]
// CHECK:               linalg.copy ins(%{{.*}} : tensor<8x4xf32>)
// CHECK:             tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %[[HEAD]], 0, 0] [1, 1, 8, 4]
// CHECK:         return %[[R]]#0, %[[R]]#1, %[[R]]#2, %[[R]]#3, %[[R]]#4, %[[R]]#5
func.func @gdrb(%q: tensor<2x37x3x8xf32>, %k: tensor<2x37x3x8xf32>, %v: tensor<2x37x3x4xf32>, %g: tensor<2x37x3xf32>, %beta: tensor<2x37x3xf32>, %h: tensor<2x3x8x4xf32>, %do: tensor<2x37x3x4xf32>, %ds: tensor<2x3x8x4xf32>, %o0: tensor<2x37x3x8xf32>, %o1: tensor<2x37x3x8xf32>, %o2: tensor<2x37x3x4xf32>, %o3: tensor<2x37x3xf32>, %o4: tensor<2x37x3xf32>, %o5: tensor<2x3x8x4xf32>) -> (tensor<2x37x3x8xf32>, tensor<2x37x3x8xf32>, tensor<2x37x3x4xf32>, tensor<2x37x3xf32>, tensor<2x37x3xf32>, tensor<2x3x8x4xf32>) {
  %r:6 = mixer.gated_delta_rule_backward chunk_size(16) scale(0.5) ins(%q, %k, %v, %g, %beta : tensor<2x37x3x8xf32>, tensor<2x37x3x8xf32>, tensor<2x37x3x4xf32>, tensor<2x37x3xf32>, tensor<2x37x3xf32>) init(%h : tensor<2x3x8x4xf32>) d_o(%do : tensor<2x37x3x4xf32>) d_final_state(%ds : tensor<2x3x8x4xf32>) outs(%o0, %o1, %o2, %o3, %o4, %o5 : tensor<2x37x3x8xf32>, tensor<2x37x3x8xf32>, tensor<2x37x3x4xf32>, tensor<2x37x3xf32>, tensor<2x37x3xf32>, tensor<2x3x8x4xf32>) -> tensor<2x37x3x8xf32>, tensor<2x37x3x8xf32>, tensor<2x37x3x4xf32>, tensor<2x37x3xf32>, tensor<2x37x3xf32>, tensor<2x3x8x4xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<2x37x3x8xf32>, tensor<2x37x3x8xf32>, tensor<2x37x3x4xf32>, tensor<2x37x3xf32>, tensor<2x37x3xf32>, tensor<2x3x8x4xf32>
}
