// RUN: mixer-opt %s | mixer-opt | FileCheck %s
// RUN: mixer-opt %s --mlir-print-op-generic | mixer-opt | FileCheck %s
// Round trip of every mixer op, in custom and in generic form.

// CHECK-LABEL: func.func @ssd
// CHECK: mixer.ssd chunk_size(64) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>) outs(
func.func @ssd(%x: tensor<2x100x8x16xf32>, %la: tensor<2x100x8xf32>, %b: tensor<2x100x2x32xf32>, %c: tensor<2x100x2x32xf32>) -> (tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) {
  %y0 = tensor.empty() : tensor<2x100x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %y, %s = mixer.ssd chunk_size(64)
      ins(%x, %la, %b, %c : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>)
      outs(%y0, %s0 : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
  return %y, %s : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
}

// CHECK-LABEL: func.func @ssd_dynamic_length_with_init
// CHECK: mixer.ssd chunk_size(128) ins({{.*}}) init(%{{.*}} : tensor<1x4x64x128xf32>) outs(
func.func @ssd_dynamic_length_with_init(%x: tensor<1x?x4x64xf32>, %la: tensor<1x?x4xf32>, %b: tensor<1x?x1x128xf32>, %c: tensor<1x?x1x128xf32>, %h: tensor<1x4x64x128xf32>, %y0: tensor<1x?x4x64xf32>, %s0: tensor<1x4x64x128xf32>) -> (tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>) {
  %y, %s = mixer.ssd chunk_size(128)
      ins(%x, %la, %b, %c : tensor<1x?x4x64xf32>, tensor<1x?x4xf32>, tensor<1x?x1x128xf32>, tensor<1x?x1x128xf32>)
      init(%h : tensor<1x4x64x128xf32>)
      outs(%y0, %s0 : tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>
  return %y, %s : tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>
}

// CHECK-LABEL: func.func @selective_scan
// CHECK: mixer.selective_scan ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<64x16xf32>, tensor<2x100x1x16xf32>, tensor<2x100x1x16xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x100x64xf32>, tensor<2x64x16xf32>) -> tensor<2x100x64xf32>, tensor<2x64x16xf32>
func.func @selective_scan(%u: tensor<2x100x64xf32>, %dt: tensor<2x100x64xf32>, %A: tensor<64x16xf32>, %b: tensor<2x100x1x16xf32>, %c: tensor<2x100x1x16xf32>) -> (tensor<2x100x64xf32>, tensor<2x64x16xf32>) {
  %y0 = tensor.empty() : tensor<2x100x64xf32>
  %s0 = tensor.empty() : tensor<2x64x16xf32>
  %y, %s = mixer.selective_scan
      ins(%u, %dt, %A, %b, %c : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<64x16xf32>, tensor<2x100x1x16xf32>, tensor<2x100x1x16xf32>)
      outs(%y0, %s0 : tensor<2x100x64xf32>, tensor<2x64x16xf32>) -> tensor<2x100x64xf32>, tensor<2x64x16xf32>
  return %y, %s : tensor<2x100x64xf32>, tensor<2x64x16xf32>
}

// CHECK-LABEL: func.func @selective_scan_all_options_dynamic_length
// CHECK: mixer.selective_scan delta_softplus ins({{.*}} : tensor<1x?x64xf32>, tensor<1x?x64xf32>, tensor<64x16xf32>, tensor<1x?x4x16xf32>, tensor<1x?x4x16xf32>)
// CHECK-SAME: D_skip(%{{.*}} : tensor<64xf32>) z(%{{.*}} : tensor<1x?x64xf32>) delta_bias(%{{.*}} : tensor<64xf32>) init(%{{.*}} : tensor<1x64x16xf32>)
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<1x?x64xf32>, tensor<1x64x16xf32>) -> tensor<1x?x64xf32>, tensor<1x64x16xf32>
func.func @selective_scan_all_options_dynamic_length(%u: tensor<1x?x64xf32>, %dt: tensor<1x?x64xf32>, %A: tensor<64x16xf32>, %b: tensor<1x?x4x16xf32>, %c: tensor<1x?x4x16xf32>, %d: tensor<64xf32>, %z: tensor<1x?x64xf32>, %db: tensor<64xf32>, %h: tensor<1x64x16xf32>, %y0: tensor<1x?x64xf32>, %s0: tensor<1x64x16xf32>) -> (tensor<1x?x64xf32>, tensor<1x64x16xf32>) {
  %y, %s = mixer.selective_scan delta_softplus
      ins(%u, %dt, %A, %b, %c : tensor<1x?x64xf32>, tensor<1x?x64xf32>, tensor<64x16xf32>, tensor<1x?x4x16xf32>, tensor<1x?x4x16xf32>)
      D_skip(%d : tensor<64xf32>) z(%z : tensor<1x?x64xf32>) delta_bias(%db : tensor<64xf32>)
      init(%h : tensor<1x64x16xf32>)
      outs(%y0, %s0 : tensor<1x?x64xf32>, tensor<1x64x16xf32>) -> tensor<1x?x64xf32>, tensor<1x64x16xf32>
  return %y, %s : tensor<1x?x64xf32>, tensor<1x64x16xf32>
}

// Any subset of the optional operands.
// CHECK-LABEL: func.func @selective_scan_some_options
// CHECK: mixer.selective_scan ins({{.*}}) z(%{{.*}} : tensor<1x8x4xf32>) init(%{{.*}} : tensor<1x4x2xf32>) outs(
func.func @selective_scan_some_options(%u: tensor<1x8x4xf32>, %A: tensor<4x2xf32>, %b: tensor<1x8x2x2xf32>, %h: tensor<1x4x2xf32>, %s0: tensor<1x4x2xf32>) -> (tensor<1x8x4xf32>, tensor<1x4x2xf32>) {
  %y, %s = mixer.selective_scan
      ins(%u, %u, %A, %b, %b : tensor<1x8x4xf32>, tensor<1x8x4xf32>, tensor<4x2xf32>, tensor<1x8x2x2xf32>, tensor<1x8x2x2xf32>)
      z(%u : tensor<1x8x4xf32>) init(%h : tensor<1x4x2xf32>)
      outs(%u, %s0 : tensor<1x8x4xf32>, tensor<1x4x2xf32>) -> tensor<1x8x4xf32>, tensor<1x4x2xf32>
  return %y, %s : tensor<1x8x4xf32>, tensor<1x4x2xf32>
}

// window and scale are elided when they have their default values.
// CHECK-LABEL: func.func @linear_attention
// CHECK: mixer.linear_attention chunk_size(64) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
// CHECK: mixer.linear_attention chunk_size(32) ins(
func.func @linear_attention(%q: tensor<2x100x8x16xf32>, %k: tensor<2x100x8x16xf32>, %v: tensor<2x100x8x32xf32>) -> (tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) {
  %o0 = tensor.empty() : tensor<2x100x8x32xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %o, %s = mixer.linear_attention chunk_size(64)
      ins(%q, %k, %v : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>)
      outs(%o0, %s0 : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
  %o1, %s1 = mixer.linear_attention chunk_size(32) window(0) scale(1.0)
      ins(%q, %k, %v : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>)
      outs(%o, %s : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
  return %o1, %s1 : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
}

// CHECK-LABEL: func.func @linear_attention_all_options_dynamic_length
// CHECK: mixer.linear_attention chunk_size(64) window(512) scale(1.250000e-01) ins({{.*}} : tensor<1x?x4x64xf32>, tensor<1x?x4x64xf32>, tensor<1x?x4x128xf32>)
// CHECK-SAME: log_decay(%{{.*}} : tensor<1x?x4xf32>) init(%{{.*}} : tensor<1x4x64x128xf32>)
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
func.func @linear_attention_all_options_dynamic_length(%q: tensor<1x?x4x64xf32>, %k: tensor<1x?x4x64xf32>, %v: tensor<1x?x4x128xf32>, %ld: tensor<1x?x4xf32>, %h: tensor<1x4x64x128xf32>, %o0: tensor<1x?x4x128xf32>, %s0: tensor<1x4x64x128xf32>) -> (tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) {
  %o, %s = mixer.linear_attention chunk_size(64) window(512) scale(0.125)
      ins(%q, %k, %v : tensor<1x?x4x64xf32>, tensor<1x?x4x64xf32>, tensor<1x?x4x128xf32>)
      log_decay(%ld : tensor<1x?x4xf32>) init(%h : tensor<1x4x64x128xf32>)
      outs(%o0, %s0 : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
  return %o, %s : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
}

// CHECK-LABEL: func.func @linear_attention_init_only
// CHECK: mixer.linear_attention chunk_size(16) window(1) ins({{.*}}) init(%{{.*}} : tensor<1x2x4x8xf32>) outs(
func.func @linear_attention_init_only(%q: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x8xf32>, %h: tensor<1x2x4x8xf32>) -> (tensor<1x1x2x8xf32>, tensor<1x2x4x8xf32>) {
  %o, %s = mixer.linear_attention chunk_size(16) window(1)
      ins(%q, %q, %v : tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x8xf32>)
      init(%h : tensor<1x2x4x8xf32>)
      outs(%v, %h : tensor<1x1x2x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x1x2x8xf32>, tensor<1x2x4x8xf32>
  return %o, %s : tensor<1x1x2x8xf32>, tensor<1x2x4x8xf32>
}

// CHECK-LABEL: func.func @gated_delta_rule
// CHECK: mixer.gated_delta_rule chunk_size(64) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>, tensor<2x100x8xf32>, tensor<2x100x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
func.func @gated_delta_rule(%q: tensor<2x100x8x16xf32>, %k: tensor<2x100x8x16xf32>, %v: tensor<2x100x8x32xf32>, %g: tensor<2x100x8xf32>, %beta: tensor<2x100x8xf32>) -> (tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) {
  %o0 = tensor.empty() : tensor<2x100x8x32xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %o, %s = mixer.gated_delta_rule chunk_size(64)
      ins(%q, %k, %v, %g, %beta : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>, tensor<2x100x8xf32>, tensor<2x100x8xf32>)
      outs(%o0, %s0 : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
  return %o, %s : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
}

// CHECK-LABEL: func.func @gated_delta_rule_init_dynamic_length
// CHECK: mixer.gated_delta_rule chunk_size(64) scale(1.250000e-01) ins({{.*}} : tensor<1x?x4x64xf32>, tensor<1x?x4x64xf32>, tensor<1x?x4x128xf32>, tensor<1x?x4xf32>, tensor<1x?x4xf32>)
// CHECK-SAME: init(%{{.*}} : tensor<1x4x64x128xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
func.func @gated_delta_rule_init_dynamic_length(%q: tensor<1x?x4x64xf32>, %k: tensor<1x?x4x64xf32>, %v: tensor<1x?x4x128xf32>, %g: tensor<1x?x4xf32>, %beta: tensor<1x?x4xf32>, %h: tensor<1x4x64x128xf32>, %o0: tensor<1x?x4x128xf32>, %s0: tensor<1x4x64x128xf32>) -> (tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(64) scale(0.125)
      ins(%q, %k, %v, %g, %beta : tensor<1x?x4x64xf32>, tensor<1x?x4x64xf32>, tensor<1x?x4x128xf32>, tensor<1x?x4xf32>, tensor<1x?x4xf32>)
      init(%h : tensor<1x4x64x128xf32>)
      outs(%o0, %s0 : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
  return %o, %s : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
}
