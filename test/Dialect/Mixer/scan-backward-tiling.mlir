// RUN: mixer-opt %s -split-input-file --mixer-tile-parallel-dims --canonicalize | FileCheck %s
// The backward scans tile over B and H through the one TilingInterface
// model: one batch entry and one group of heads per tile for
// mixer.ssd_backward (db and dc sum over a group's heads), one head for
// mixer.linear_attention_backward.

// CHECK-LABEL: func.func @ssd_backward
// CHECK: scf.forall (%[[B:.*]], %[[H:.*]]) = (0, 0) to (2, 4) step (1, 2)
// CHECK:   tensor.extract_slice %{{.*}}[%[[B]], 0, %[[H]], 0] [1, 10, 2, 8]
// CHECK:   mixer.ssd_backward chunk_size(4) ins({{.*}} : tensor<1x10x2x8xf32>, tensor<1x10x2xf32>, tensor<1x10x1x16xf32>, tensor<1x10x1x16xf32>) dy(%{{.*}} : tensor<1x10x2x8xf32>)
// CHECK-SAME: -> tensor<1x10x2x8xf32>, tensor<1x10x2xf32>, tensor<1x10x1x16xf32>, tensor<1x10x1x16xf32>
// CHECK: scf.forall.in_parallel
func.func @ssd_backward(%x: tensor<2x10x4x8xf32>, %la: tensor<2x10x4xf32>, %b: tensor<2x10x2x16xf32>, %s: tensor<2x4x8x16xf32>) -> (tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>) {
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>) dy(%x : tensor<2x10x4x8xf32>) outs(%x, %la, %b, %b : tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>) -> tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>
  return %g#0, %g#1, %g#2, %g#3 : tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>
}

// -----

// CHECK-LABEL: func.func @linear_attention_backward
// CHECK: scf.forall (%[[H:.*]]) in (3)
// CHECK:   tensor.extract_slice %{{.*}}[0, 0, %[[H]], 0] [1, 8, 1, 4]
// CHECK:   mixer.linear_attention_backward chunk_size(4) ins({{.*}} : tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x6xf32>)
// CHECK: scf.forall.in_parallel
func.func @linear_attention_backward(%q: tensor<1x8x3x4xf32>, %v: tensor<1x8x3x6xf32>, %h: tensor<1x3x4x6xf32>) -> tensor<1x8x3x4xf32> {
  %g:3 = mixer.linear_attention_backward chunk_size(4) ins(%q, %q, %v : tensor<1x8x3x4xf32>, tensor<1x8x3x4xf32>, tensor<1x8x3x6xf32>) d_final_state(%h : tensor<1x3x4x6xf32>) outs(%q, %q, %v : tensor<1x8x3x4xf32>, tensor<1x8x3x4xf32>, tensor<1x8x3x6xf32>) -> tensor<1x8x3x4xf32>, tensor<1x8x3x4xf32>, tensor<1x8x3x6xf32>
  return %g#0 : tensor<1x8x3x4xf32>
}
