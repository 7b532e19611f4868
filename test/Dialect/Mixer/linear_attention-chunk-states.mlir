// RUN: mixer-opt %s | mixer-opt | FileCheck %s
// RUN: mixer-opt %s --mlir-print-op-generic | mixer-opt | FileCheck %s

// linear_attention with a third `outs`: the chunk states [B, H, C, Dk, Dv],
// C = 100 / 16 + 1 = 7; the backward reads them.
// CHECK-LABEL: func.func @linear_attention_chunk_states
// CHECK: %{{.*}}, %{{.*}}, %[[CS:.*]] = mixer.linear_attention chunk_size(16) scale(1.250000e-01) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x4x8xf32>, tensor<2x100x4x8xf32>, tensor<2x100x4x16xf32>) log_decay(%{{.*}} : tensor<2x100x4xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x4x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x7x8x16xf32>) -> tensor<2x100x4x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x7x8x16xf32>
// CHECK: mixer.linear_attention_backward chunk_size(16) scale(1.250000e-01) ins({{.*}}) log_decay(%{{.*}} : tensor<2x100x4xf32>) chunk_states(%[[CS]] : tensor<2x4x7x8x16xf32>) dout(%{{.*}} : tensor<2x100x4x16xf32>) outs(
func.func @linear_attention_chunk_states(%q: tensor<2x100x4x8xf32>, %v: tensor<2x100x4x16xf32>, %ld: tensor<2x100x4xf32>, %s0: tensor<2x4x8x16xf32>, %cs0: tensor<2x4x7x8x16xf32>) -> (tensor<2x100x4x8xf32>, tensor<2x100x4x8xf32>, tensor<2x100x4x16xf32>, tensor<2x100x4xf32>) {
  %o:3 = mixer.linear_attention chunk_size(16) scale(0.125) ins(%q, %q, %v : tensor<2x100x4x8xf32>, tensor<2x100x4x8xf32>, tensor<2x100x4x16xf32>) log_decay(%ld : tensor<2x100x4xf32>) outs(%v, %s0, %cs0 : tensor<2x100x4x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x7x8x16xf32>) -> tensor<2x100x4x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x7x8x16xf32>
  %g:4 = mixer.linear_attention_backward chunk_size(16) scale(0.125) ins(%q, %q, %v : tensor<2x100x4x8xf32>, tensor<2x100x4x8xf32>, tensor<2x100x4x16xf32>) log_decay(%ld : tensor<2x100x4xf32>) chunk_states(%o#2 : tensor<2x4x7x8x16xf32>) dout(%o#0 : tensor<2x100x4x16xf32>) outs(%q, %q, %v, %ld : tensor<2x100x4x8xf32>, tensor<2x100x4x8xf32>, tensor<2x100x4x16xf32>, tensor<2x100x4xf32>) -> tensor<2x100x4x8xf32>, tensor<2x100x4x8xf32>, tensor<2x100x4x16xf32>, tensor<2x100x4xf32>
  return %g#0, %g#1, %g#2, %g#3 : tensor<2x100x4x8xf32>, tensor<2x100x4x8xf32>, tensor<2x100x4x16xf32>, tensor<2x100x4xf32>
}
