// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s --implicit-check-not='tensor<37x8x4xf32>' --implicit-check-not='tensor<2x37x4x8x4xf32>'
// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s --check-prefix=SCORES

// H = 4 heads in G = 2 groups, chunks of Q = 16 tokens (37 = 2 * 16 + 5).
// Without chunk_states, first the boundary states [B, H, 3, N, P] from the
// forward's state passing alone; db and dc are zero-filled (two heads add
// into each group's rows); then, per (batch, head), the reverse scan
// carrying dS (from d_final_state, transposed): the 5 tail tokens as one
// chunk padded to 16 tokens, from boundary row 2, writing 5 rows; then
// chunks 1 and 0, each from its boundary row, with the nine contractions of
// the chunked backward. No per-token state of the sequence.

// Per chunk, the scores M = (Cc Bc^T) * L and the gradient dG = dM * L of
// Cc Bc^T are each one pass that evaluates the decays L[t, s] from the
// prefix sums where it multiplies (the forward's decayedScores): L itself,
// a [16, 16] map of the prefix sums alone, is never built. Two such passes
// for the padded tail chunk, two in the loop over the full chunks.
// SCORES-LABEL: func.func @ssd_backward_recomputed_states
// SCORES-NOT:     ins({{[^)]*}} : tensor<16xf64>, tensor<16xf64>) outs({{[^)]*}} : tensor<16x16xf32>)
// SCORES-COUNT-4: ins({{[^)]*}} : tensor<16xf64>, tensor<16xf64>, tensor<16x16xf32>) outs({{[^)]*}} : tensor<16x16xf32>)
// SCORES-NOT:     ins({{[^)]*}} : tensor<16xf64>, tensor<16xf64>{{.*}}) outs({{[^)]*}} : tensor<16x16xf32>)
// SCORES-LABEL: func.func @ssd_backward_saved_states

// CHECK-LABEL: func.func @ssd_backward_recomputed_states
// CHECK-SAME:    %[[DB0:[^:]*]]: tensor<2x37x2x8xf32>, %[[DC0:[^:]*]]: tensor<2x37x2x8xf32>, %{{[^:]*}}: tensor<2x4x4x8xf32>)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         tensor.empty(%{{.*}}, %[[C3]]) : tensor<?x4x?x8x4xf32>
// CHECK:         %[[BND:.*]] = scf.for
// CHECK-NOT:       tensor<16x16xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[DB0]] : tensor<2x37x2x8xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[DC0]] : tensor<2x37x2x8xf32>)
// CHECK:         %[[R:.*]]:5 = scf.for %[[BI:[^ ]*]] =
// CHECK:           scf.for %[[HEAD:[^ ]*]] =
// CHECK:             linalg.transpose ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK:             scf.if
// CHECK:               tensor.extract_slice %[[BND]][%[[BI]], %[[HEAD]], %[[C2]], 0, 0] [1, 1, 1, 8, 4]
// CHECK:               tensor.extract_slice %{{.*}}[%[[BI]], %[[C32]], %[[HEAD]], 0] [1, %[[C5]], 1, 4]
// CHECK:               tensor.pad %{{.*}} low[0, 0] high[%{{.*}}, 0]
// CHECK:               } : tensor<?x4xf32> to tensor<16x4xf32>
// CHECK-COUNT-9:       iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %[[C32]], %[[HEAD]], 0] [1, %[[C5]], 1, 4]
// CHECK:             scf.for %[[CI:[^ ]*]] = %{{.*}} to %[[C2]]
// CHECK:               arith.subi %{{.*}}, %[[CI]] : index
// CHECK:               tensor.extract_slice %[[BND]][%[[BI]], %[[HEAD]], %{{.*}}, 0, 0] [1, 1, 1, 8, 4]
// CHECK-NOT:           tensor.pad
// CHECK-COUNT-9:       iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:           iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, %[[HEAD]], 0] [1, 16, 1, 4]
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, %[[HEAD]]] [1, 16, 1]
// CHECK:               tensor.extract_slice %{{.*}} [1, 16, 1, 8]
// CHECK:               arith.addf
// CHECK:               tensor.insert_slice %{{.*}} [1, 16, 1, 8]
// CHECK:             tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %[[HEAD]], 0, 0] [1, 1, 4, 8]
// CHECK:         return %[[R]]#0, %[[R]]#1, %[[R]]#2, %[[R]]#3, %[[R]]#4
func.func @ssd_backward_recomputed_states(%x: tensor<2x37x4x4xf32>, %la: tensor<2x37x4xf32>, %b: tensor<2x37x2x8xf32>, %c: tensor<2x37x2x8xf32>, %h: tensor<2x4x4x8xf32>, %dy: tensor<2x37x4x4xf32>, %ds: tensor<2x4x4x8xf32>, %o0: tensor<2x37x4x4xf32>, %o1: tensor<2x37x4xf32>, %o2: tensor<2x37x2x8xf32>, %o3: tensor<2x37x2x8xf32>, %o4: tensor<2x4x4x8xf32>) -> (tensor<2x37x4x4xf32>, tensor<2x37x4xf32>, tensor<2x37x2x8xf32>, tensor<2x37x2x8xf32>, tensor<2x4x4x8xf32>) {
  %r:5 = mixer.ssd_backward chunk_size(16) ins(%x, %la, %b, %c : tensor<2x37x4x4xf32>, tensor<2x37x4xf32>, tensor<2x37x2x8xf32>, tensor<2x37x2x8xf32>) init(%h : tensor<2x4x4x8xf32>) dy(%dy : tensor<2x37x4x4xf32>) d_final_state(%ds : tensor<2x4x4x8xf32>) outs(%o0, %o1, %o2, %o3, %o4 : tensor<2x37x4x4xf32>, tensor<2x37x4xf32>, tensor<2x37x2x8xf32>, tensor<2x37x2x8xf32>, tensor<2x4x4x8xf32>) -> tensor<2x37x4x4xf32>, tensor<2x37x4xf32>, tensor<2x37x2x8xf32>, tensor<2x37x2x8xf32>, tensor<2x4x4x8xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<2x37x4x4xf32>, tensor<2x37x4xf32>, tensor<2x37x2x8xf32>, tensor<2x37x2x8xf32>, tensor<2x4x4x8xf32>
}

// -----

// With chunk_states (the forward's residual) there is no forward pass: the
// reverse scan reads its rows. One head per group: db and dc are written,
// not accumulated, and start unfilled; dS starts at zero.

// CHECK-LABEL: func.func @ssd_backward_saved_states
// CHECK-SAME:    %[[CS:[^:]*]]: tensor<1x2x3x8x4xf32>
// CHECK-NOT:     linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x32x2x8xf32>)
// CHECK:         scf.for %[[BI:[^ ]*]] =
// CHECK:           scf.for %[[HEAD:[^ ]*]] =
// CHECK:             linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK:             scf.for
// CHECK:               tensor.extract_slice %[[CS]][%[[BI]], %[[HEAD]], %{{.*}}, 0, 0] [1, 1, 1, 8, 4]
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, %[[HEAD]], 0] [1, 16, 1, 8]
func.func @ssd_backward_saved_states(%x: tensor<1x32x2x4xf32>, %la: tensor<1x32x2xf32>, %b: tensor<1x32x2x8xf32>, %c: tensor<1x32x2x8xf32>, %cs: tensor<1x2x3x8x4xf32>, %dy: tensor<1x32x2x4xf32>, %o0: tensor<1x32x2x4xf32>, %o1: tensor<1x32x2xf32>, %o2: tensor<1x32x2x8xf32>, %o3: tensor<1x32x2x8xf32>) -> tensor<1x32x2x8xf32> {
  %r:4 = mixer.ssd_backward chunk_size(16) ins(%x, %la, %b, %c : tensor<1x32x2x4xf32>, tensor<1x32x2xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>) chunk_states(%cs : tensor<1x2x3x8x4xf32>) dy(%dy : tensor<1x32x2x4xf32>) outs(%o0, %o1, %o2, %o3 : tensor<1x32x2x4xf32>, tensor<1x32x2xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>) -> tensor<1x32x2x4xf32>, tensor<1x32x2xf32>, tensor<1x32x2x8xf32>, tensor<1x32x2x8xf32>
  return %r#2 : tensor<1x32x2x8xf32>
}
