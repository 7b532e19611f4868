// RUN: mixer-opt %s --mixer-decompose-composites="ssd-backward-to-scans=1" --split-input-file | FileCheck %s
// RUN: mixer-opt %s --mixer-decompose-composites="ssd-backward-to-scans=1" --split-input-file | FileCheck %s --check-prefix=FLAT
// RUN: mixer-opt %s --mixer-decompose-composites --split-input-file | FileCheck %s --check-prefix=KEEP
// RUN: mixer-opt %s --mixer-decompose-composites="ssd-backward-to-scans=1" --split-input-file | FileCheck %s --check-prefix=NAIVE

// By default mixer.ssd_backward stays (convert-mixer-to-linalg lowers it)
// and mixer.linear_attention_backward becomes one, its states transposed.
// KEEP-LABEL: func.func @ssd_backward
// KEEP: mixer.ssd_backward chunk_size(4)
// KEEP-NOT: mixer.ssd chunk_size
// KEEP-LABEL: func.func @linear_attention_backward_window
// KEEP-NOT: mixer.linear_attention_backward
// KEEP: linalg.transpose
// KEEP: mixer.ssd_backward chunk_size(8) ins({{.*}} : tensor<1x12x2x4xf32>, tensor<1x12x2xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>) init(%{{.*}} : tensor<1x2x4x8xf32>) dy(
// KEEP-NOT: mixer.ssd chunk_size

// With ssd-backward-to-scans (the naive pipeline), mixer.ssd_backward
// becomes forward mixer.ssd scans: the state cotangent
// in reversed time (dx, dinit); the per-head db^h in reversed time and dc^h
// forward (P and N exchanged, one group per head, each token's own term
// added afterwards); the reverse cumulative sum of the decay terms
// (P = N = 1); with a final-state cotangent, its db term (a scan without
// inputs) and the forward cumulative sum of its decay terms. db and dc are
// summed over the heads of each group. No per-token state ([B, L, H, P, N],
// in either order of P and N) appears.

// FLAT-NOT: tensor<2x10x4x{{(8x16|16x8)}}xf32>
// FLAT-NOT: tensor<1x12x2x{{(8x4|4x8)}}xf32>
// FLAT-NOT: mixer.ssd_backward
// FLAT-NOT: mixer.linear_attention_backward

// CHECK-LABEL: func.func @ssd_backward
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x10x4x8xf32>, %[[LA:[a-z0-9]+]]: tensor<2x10x4xf32>, %[[B:[a-z0-9]+]]: tensor<2x10x2x16xf32>, %[[C:[a-z0-9]+]]: tensor<2x10x2x16xf32>, %[[H:[a-z0-9]+]]: tensor<2x4x8x16xf32>, %[[S:[a-z0-9]+]]: tensor<2x4x8x16xf32>, %[[DY:[a-z0-9]+]]: tensor<2x10x4x8xf32>, %[[DS:[a-z0-9]+]]: tensor<2x4x8x16xf32>
// The reversed, shifted log-decay reads token L - t.
// CHECK: %[[REVLA:.+]] = linalg.generic
// CHECK: tensor.extract %[[LA]]
// CHECK: %[[REVDX:.+]], %[[D0:.+]] = mixer.ssd chunk_size(4) ins(%{{.*}}, %[[REVLA]], %{{.*}}, %{{.*}} : tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>) init(%[[DS]] : tensor<2x4x8x16xf32>)
// CHECK: mixer.ssd chunk_size(4) ins(%{{.*}}, %[[REVLA]], %{{.*}}, %{{.*}} : tensor<2x10x4x16xf32>, tensor<2x10x4xf32>, tensor<2x10x4x8xf32>, tensor<2x10x4x8xf32>) outs(
// CHECK: mixer.ssd chunk_size(4) ins(%{{.*}}, %[[LA]], %{{.*}}, %[[DY]] : tensor<2x10x4x16xf32>, tensor<2x10x4xf32>, tensor<2x10x4x8xf32>, tensor<2x10x4x8xf32>) init(%{{.*}} : tensor<2x4x16x8xf32>)
// CHECK: mixer.ssd chunk_size(4) ins(%{{.*}} : tensor<2x10x4x1xf32>, tensor<2x10x4xf32>, tensor<2x10x1x1xf32>, tensor<2x10x1x1xf32>) outs(
// CHECK: mixer.ssd chunk_size(4) ins(%{{.*}}, %[[REVLA]], %{{.*}}, %{{.*}} : tensor<2x10x4x16xf32>, tensor<2x10x4xf32>, tensor<2x10x4x8xf32>, tensor<2x10x4x8xf32>) init(%{{.*}} : tensor<2x4x16x8xf32>)
// CHECK: mixer.ssd chunk_size(4) ins(%{{.*}} : tensor<2x10x4x1xf32>, tensor<2x10x4xf32>, tensor<2x10x1x1xf32>, tensor<2x10x1x1xf32>) init(%{{.*}} : tensor<2x4x1x1xf32>)
// The group sums of db and dc: a reduction over the 2 heads of each group.
// CHECK: %[[DBS:.+]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4]] output_shape [2, 10, 2, 2, 16] : tensor<2x10x4x16xf32> into tensor<2x10x2x2x16xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%[[DBS]] : tensor<2x10x2x2x16xf32>) outs(%{{.*}} : tensor<2x10x2x16xf32>)
// CHECK: %[[DCS:.+]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4]] output_shape [2, 10, 2, 2, 16] : tensor<2x10x4x16xf32> into tensor<2x10x2x2x16xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%[[DCS]] : tensor<2x10x2x2x16xf32>) outs(%{{.*}} : tensor<2x10x2x16xf32>)
// CHECK-NOT: mixer.ssd
// dinit = exp(log_a_0) D_0.
// CHECK: %[[LA0:.+]] = tensor.extract_slice %[[LA]][0, 0, 0] [2, 1, 4] [1, 1, 1] : tensor<2x10x4xf32> to tensor<2x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[LA0]], %[[D0]] : tensor<2x4xf32>, tensor<2x4x8x16xf32>)
// CHECK: math.exp
// CHECK: return
func.func @ssd_backward(%x: tensor<2x10x4x8xf32>, %la: tensor<2x10x4xf32>, %b: tensor<2x10x2x16xf32>, %c: tensor<2x10x2x16xf32>, %h: tensor<2x4x8x16xf32>, %s: tensor<2x4x8x16xf32>, %dy: tensor<2x10x4x8xf32>, %ds: tensor<2x4x8x16xf32>) -> (tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>, tensor<2x4x8x16xf32>) {
  %g:5 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %c : tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>) init(%h : tensor<2x4x8x16xf32>) dy(%dy : tensor<2x10x4x8xf32>) d_final_state(%ds : tensor<2x4x8x16xf32>) outs(%x, %la, %b, %c, %h : tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>, tensor<2x4x8x16xf32>
  return %g#0, %g#1, %g#2, %g#3, %g#4 : tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>, tensor<2x4x8x16xf32>
}

// -----

// mixer.linear_attention_backward with a window of 3: q and do shifted by 4
// tokens, the window-0 backward as ssd scans with one group per head
// (x = v, b = k, c = the shifted q), dq shifted back, and the first 4
// queries' terms from the init.

// CHECK-LABEL: func.func @linear_attention_backward_window
// CHECK-COUNT-4: mixer.ssd chunk_size(8)
// CHECK-NOT: mixer.ssd chunk_size
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x12x2x8xf32> to tensor<1x4x2x8xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 0] [1, 4, 2, 8] [1, 1, 1, 1] : tensor<1x4x2x8xf32> into tensor<1x12x2x8xf32>
// CHECK: return
func.func @linear_attention_backward_window(%q: tensor<1x12x2x8xf32>, %v: tensor<1x12x2x4xf32>, %ld: tensor<1x12x2xf32>, %h: tensor<1x2x8x4xf32>, %do: tensor<1x12x2x4xf32>) -> (tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>, tensor<1x2x8x4xf32>) {
  %g:5 = mixer.linear_attention_backward chunk_size(8) window(3) scale(0.5) ins(%q, %q, %v : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>) log_decay(%ld : tensor<1x12x2xf32>) init(%h : tensor<1x2x8x4xf32>) dout(%do : tensor<1x12x2x4xf32>) outs(%q, %q, %v, %ld, %h : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>, tensor<1x2x8x4xf32>) -> tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>, tensor<1x2x8x4xf32>
  return %g#0, %g#1, %g#2, %g#3, %g#4 : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>, tensor<1x2x8x4xf32>
}

// -----

// Without a window, do is only scaled: an elementwise map, no gather of
// shifted tokens (tensor.extract).
// KEEP-LABEL: func.func @linear_attention_backward_scaled
// KEEP: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// KEEP-NOT: tensor.extract
// KEEP: %[[DY:.+]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x12x2x4xf32>)
// KEEP: arith.mulf %{{.*}}, %[[HALF]] : f32
// KEEP-NOT: tensor.extract
// KEEP: mixer.ssd_backward chunk_size(8) ins({{.*}}) dy(%[[DY]] : tensor<1x12x2x4xf32>)
// KEEP: return
func.func @linear_attention_backward_scaled(%q: tensor<1x12x2x8xf32>, %v: tensor<1x12x2x4xf32>, %ld: tensor<1x12x2xf32>, %do: tensor<1x12x2x4xf32>) -> (tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>) {
  %g:4 = mixer.linear_attention_backward chunk_size(8) scale(0.5) ins(%q, %q, %v : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>) log_decay(%ld : tensor<1x12x2xf32>) dout(%do : tensor<1x12x2x4xf32>) outs(%q, %q, %v, %ld : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>) -> tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>
  return %g#0, %g#1, %g#2, %g#3 : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>
}

// -----

// The forward's chunk states ([B, H, C, Dk, Dv]) go to the ssd_backward
// as they are (its [B, H, C, N, P] with N = Dk, P = Dv).
// KEEP-LABEL: func.func @linear_attention_backward_saved
// KEEP-SAME: %[[CS:[a-z0-9]+]]: tensor<1x2x2x8x4xf32>
// KEEP: mixer.ssd_backward chunk_size(8) ins({{.*}}) chunk_states(%[[CS]] : tensor<1x2x2x8x4xf32>) dy(
func.func @linear_attention_backward_saved(%q: tensor<1x12x2x8xf32>, %v: tensor<1x12x2x4xf32>, %ld: tensor<1x12x2xf32>, %do: tensor<1x12x2x4xf32>, %cs: tensor<1x2x2x8x4xf32>) -> (tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>) {
  %g:4 = mixer.linear_attention_backward chunk_size(8) scale(0.5) ins(%q, %q, %v : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>) log_decay(%ld : tensor<1x12x2xf32>) chunk_states(%cs : tensor<1x2x2x8x4xf32>) dout(%do : tensor<1x12x2x4xf32>) outs(%q, %q, %v, %ld : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>) -> tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>
  return %g#0, %g#1, %g#2, %g#3 : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>
}

// -----

// Behind the run-time checks' guard: with ssd-backward-to-scans nothing
// reads the chunk states any more, and the forward loses them (the scalar
// loops do not record them); the guard's unread results go first.
// NAIVE-LABEL: func.func @linear_attention_saved_guarded
// NAIVE: scf.if %{{.*}} -> (tensor<1x12x2x4xf32>)
// NAIVE: mixer.linear_attention chunk_size(8) scale(5.000000e-01) ins({{.*}}) log_decay({{.*}}) outs(%{{.*}}, %{{.*}} : tensor<1x12x2x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x12x2x4xf32>, tensor<1x2x8x4xf32>
// NAIVE-NOT: chunk_states
// NAIVE: return
// KEEP-LABEL: func.func @linear_attention_saved_guarded
// KEEP: %[[R:.*]]:2 = scf.if %{{.*}} -> (tensor<1x12x2x4xf32>, tensor<1x2x2x8x4xf32>)
// KEEP: mixer.ssd_backward chunk_size(8) ins({{.*}}) chunk_states(%[[R]]#1 : tensor<1x2x2x8x4xf32>) dy(
func.func @linear_attention_saved_guarded(%ok: i1, %q: tensor<1x12x2x8xf32>, %v: tensor<1x12x2x4xf32>, %ld: tensor<1x12x2xf32>, %do: tensor<1x12x2x4xf32>, %s0: tensor<1x2x8x4xf32>, %cs0: tensor<1x2x2x8x4xf32>) -> (tensor<1x12x2x4xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>) {
  %r:3 = scf.if %ok -> (tensor<1x12x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x2x8x4xf32>) {
    %o, %s, %cs = mixer.linear_attention chunk_size(8) scale(0.5) ins(%q, %q, %v : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>) log_decay(%ld : tensor<1x12x2xf32>) outs(%v, %s0, %cs0 : tensor<1x12x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x2x8x4xf32>) -> tensor<1x12x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x2x8x4xf32>
    scf.yield %o, %s, %cs : tensor<1x12x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x2x8x4xf32>
  } else {
    scf.yield %v, %s0, %cs0 : tensor<1x12x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x2x8x4xf32>
  }
  %g:4 = mixer.linear_attention_backward chunk_size(8) scale(0.5) ins(%q, %q, %v : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>) log_decay(%ld : tensor<1x12x2xf32>) chunk_states(%r#2 : tensor<1x2x2x8x4xf32>) dout(%do : tensor<1x12x2x4xf32>) outs(%q, %q, %v, %ld : tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>) -> tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>
  return %r#0, %g#0, %g#1, %g#2, %g#3 : tensor<1x12x2x4xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x8xf32>, tensor<1x12x2x4xf32>, tensor<1x12x2xf32>
}
