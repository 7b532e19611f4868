// RUN: mixer-opt %s | mixer-opt | FileCheck %s
// RUN: mixer-opt %s --mlir-print-op-generic | mixer-opt | FileCheck %s
// Round trip of mixer.ssd_backward and mixer.linear_attention_backward, with
// and without their optional operands.

// CHECK-LABEL: func.func @ssd_backward_all
// CHECK: mixer.ssd_backward chunk_size(4) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x8x4x4xf32>, tensor<1x8x4xf32>, tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>) init(%{{.*}} : tensor<1x4x4x8xf32>) chunk_states(%{{.*}} : tensor<1x4x3x8x4xf32>) dy(%{{.*}} : tensor<1x8x4x4xf32>) d_final_state(%{{.*}} : tensor<1x4x4x8xf32>) outs(
// CHECK-SAME: -> tensor<1x8x4x4xf32>, tensor<1x8x4xf32>, tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>, tensor<1x4x4x8xf32>
func.func @ssd_backward_all(%x: tensor<1x8x4x4xf32>, %la: tensor<1x8x4xf32>, %b: tensor<1x8x2x8xf32>, %c: tensor<1x8x2x8xf32>, %h: tensor<1x4x4x8xf32>, %s: tensor<1x4x3x8x4xf32>, %dy: tensor<1x8x4x4xf32>, %ds: tensor<1x4x4x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4xf32>, tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>, tensor<1x4x4x8xf32>) {
  %g:5 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %c : tensor<1x8x4x4xf32>, tensor<1x8x4xf32>, tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>) init(%h : tensor<1x4x4x8xf32>) chunk_states(%s : tensor<1x4x3x8x4xf32>) dy(%dy : tensor<1x8x4x4xf32>) d_final_state(%ds : tensor<1x4x4x8xf32>) outs(%x, %la, %b, %c, %h : tensor<1x8x4x4xf32>, tensor<1x8x4xf32>, tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x8x4x4xf32>, tensor<1x8x4xf32>, tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>, tensor<1x4x4x8xf32>
  return %g#0, %g#1, %g#2, %g#3, %g#4 : tensor<1x8x4x4xf32>, tensor<1x8x4xf32>, tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>, tensor<1x4x4x8xf32>
}

// CHECK-LABEL: func.func @ssd_backward_dy_only
// CHECK: mixer.ssd_backward chunk_size(4) ins({{.*}}) dy(%{{.*}} : tensor<?x?x4x4xf32>) outs(
// CHECK-NOT: d_final_state
// CHECK-SAME: -> tensor<?x?x4x4xf32>, tensor<?x?x4xf32>, tensor<?x?x2x8xf32>, tensor<?x?x2x8xf32>{{$}}
func.func @ssd_backward_dy_only(%x: tensor<?x?x4x4xf32>, %la: tensor<?x?x4xf32>, %b: tensor<?x?x2x8xf32>, %s: tensor<?x4x4x8xf32>) -> tensor<?x?x4x4xf32> {
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<?x?x4x4xf32>, tensor<?x?x4xf32>, tensor<?x?x2x8xf32>, tensor<?x?x2x8xf32>) dy(%x : tensor<?x?x4x4xf32>) outs(%x, %la, %b, %b : tensor<?x?x4x4xf32>, tensor<?x?x4xf32>, tensor<?x?x2x8xf32>, tensor<?x?x2x8xf32>) -> tensor<?x?x4x4xf32>, tensor<?x?x4xf32>, tensor<?x?x2x8xf32>, tensor<?x?x2x8xf32>
  return %g#0 : tensor<?x?x4x4xf32>
}

// CHECK-LABEL: func.func @linear_attention_backward_all
// CHECK: mixer.linear_attention_backward chunk_size(4) window(2) scale(5.000000e-01) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x6xf32>) log_decay(%{{.*}} : tensor<2x8x3xf32>) init(%{{.*}} : tensor<2x3x4x6xf32>) dout(%{{.*}} : tensor<2x8x3x6xf32>) d_final_state(%{{.*}} : tensor<2x3x4x6xf32>) outs(
func.func @linear_attention_backward_all(%q: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x6xf32>, %ld: tensor<2x8x3xf32>, %h: tensor<2x3x4x6xf32>, %do: tensor<2x8x3x6xf32>) -> tensor<2x8x3x4xf32> {
  %g:5 = mixer.linear_attention_backward chunk_size(4) window(2) scale(0.5) ins(%q, %q, %v : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x6xf32>) log_decay(%ld : tensor<2x8x3xf32>) init(%h : tensor<2x3x4x6xf32>) dout(%do : tensor<2x8x3x6xf32>) d_final_state(%h : tensor<2x3x4x6xf32>) outs(%q, %q, %v, %ld, %h : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x6xf32>, tensor<2x8x3xf32>, tensor<2x3x4x6xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x6xf32>, tensor<2x8x3xf32>, tensor<2x3x4x6xf32>
  return %g#0 : tensor<2x8x3x4xf32>
}

// CHECK-LABEL: func.func @linear_attention_backward_plain
// CHECK: mixer.linear_attention_backward chunk_size(4) ins({{.*}}) d_final_state(%{{.*}} : tensor<2x3x4x6xf32>) outs(
// CHECK-SAME: -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x6xf32>{{$}}
func.func @linear_attention_backward_plain(%q: tensor<2x8x3x4xf32>, %v: tensor<2x8x3x6xf32>, %h: tensor<2x3x4x6xf32>) -> tensor<2x8x3x4xf32> {
  %g:3 = mixer.linear_attention_backward chunk_size(4) ins(%q, %q, %v : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x6xf32>) d_final_state(%h : tensor<2x3x4x6xf32>) outs(%q, %q, %v : tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x6xf32>) -> tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x6xf32>
  return %g#0 : tensor<2x8x3x4xf32>
}
