// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file -verify-diagnostics

// The blocked algorithms need the per-head and per-point sizes static: an op
// with one of them dynamic is an error naming the size, and nothing is
// lowered (batch and sequence lengths may be dynamic).

func.func @ssd_dynamic_heads(%x: tensor<2x16x?x4xf32>, %la: tensor<2x16x?xf32>, %b: tensor<2x16x1x8xf32>, %c: tensor<2x16x1x8xf32>, %y0: tensor<2x16x?x4xf32>, %s0: tensor<2x?x4x8xf32>) -> tensor<2x16x?x4xf32> {
  // expected-error @+1 {{'mixer.ssd' op cannot be lowered: the head count (dim 2 of 'x') must be static}}
  %y, %s = mixer.ssd chunk_size(8) ins(%x, %la, %b, %c : tensor<2x16x?x4xf32>, tensor<2x16x?xf32>, tensor<2x16x1x8xf32>, tensor<2x16x1x8xf32>) outs(%y0, %s0 : tensor<2x16x?x4xf32>, tensor<2x?x4x8xf32>) -> tensor<2x16x?x4xf32>, tensor<2x?x4x8xf32>
  return %y : tensor<2x16x?x4xf32>
}

// -----

func.func @ssd_dynamic_state_dim(%x: tensor<2x16x2x4xf32>, %la: tensor<2x16x2xf32>, %b: tensor<2x16x1x?xf32>, %c: tensor<2x16x1x?xf32>, %y0: tensor<2x16x2x4xf32>, %s0: tensor<2x2x4x?xf32>) -> tensor<2x16x2x4xf32> {
  // expected-error @+1 {{'mixer.ssd' op cannot be lowered: the state dim (dim 3 of 'b') must be static}}
  %y, %s = mixer.ssd chunk_size(8) ins(%x, %la, %b, %c : tensor<2x16x2x4xf32>, tensor<2x16x2xf32>, tensor<2x16x1x?xf32>, tensor<2x16x1x?xf32>) outs(%y0, %s0 : tensor<2x16x2x4xf32>, tensor<2x2x4x?xf32>) -> tensor<2x16x2x4xf32>, tensor<2x2x4x?xf32>
  return %y : tensor<2x16x2x4xf32>
}

// -----

func.func @selective_scan_dynamic_channels(%u: tensor<1x8x?xf32>, %dt: tensor<1x8x?xf32>, %A: tensor<?x4xf32>, %b: tensor<1x8x1x4xf32>, %c: tensor<1x8x1x4xf32>, %y0: tensor<1x8x?xf32>, %s0: tensor<1x?x4xf32>) -> tensor<1x8x?xf32> {
  // expected-error @+1 {{'mixer.selective_scan' op cannot be lowered: the channel count (dim 2 of 'u') must be static}}
  %y, %s = mixer.selective_scan ins(%u, %dt, %A, %b, %c : tensor<1x8x?xf32>, tensor<1x8x?xf32>, tensor<?x4xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0 : tensor<1x8x?xf32>, tensor<1x?x4xf32>) -> tensor<1x8x?xf32>, tensor<1x?x4xf32>
  return %y : tensor<1x8x?xf32>
}

// -----

func.func @linear_attention_dynamic_value_dim(%q: tensor<2x8x2x16xf32>, %k: tensor<2x8x2x16xf32>, %v: tensor<2x8x2x?xf32>, %o0: tensor<2x8x2x?xf32>, %s0: tensor<2x2x16x?xf32>) -> tensor<2x8x2x?xf32> {
  // expected-error @+1 {{'mixer.linear_attention' op cannot be lowered: the value dim (dim 3 of 'v') must be static}}
  %o, %s = mixer.linear_attention chunk_size(16) ins(%q, %k, %v : tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>, tensor<2x8x2x?xf32>) outs(%o0, %s0 : tensor<2x8x2x?xf32>, tensor<2x2x16x?xf32>) -> tensor<2x8x2x?xf32>, tensor<2x2x16x?xf32>
  return %o : tensor<2x8x2x?xf32>
}

// -----

func.func @gated_delta_rule_dynamic_key_dim(%q: tensor<2x8x1x?xf32>, %k: tensor<2x8x1x?xf32>, %v: tensor<2x8x1x4xf32>, %g: tensor<2x8x1xf32>, %beta: tensor<2x8x1xf32>, %o0: tensor<2x8x1x4xf32>, %s0: tensor<2x1x?x4xf32>) -> tensor<2x8x1x4xf32> {
  // expected-error @+1 {{'mixer.gated_delta_rule' op cannot be lowered: the key dim (dim 3 of 'q') must be static}}
  %o, %s = mixer.gated_delta_rule chunk_size(8) ins(%q, %k, %v, %g, %beta : tensor<2x8x1x?xf32>, tensor<2x8x1x?xf32>, tensor<2x8x1x4xf32>, tensor<2x8x1xf32>, tensor<2x8x1xf32>) outs(%o0, %s0 : tensor<2x8x1x4xf32>, tensor<2x1x?x4xf32>) -> tensor<2x8x1x4xf32>, tensor<2x1x?x4xf32>
  return %o : tensor<2x8x1x4xf32>
}

// -----

func.func @kernel_lse_dynamic_point_dim(%x: tensor<16x?xf32>, %y: tensor<100x?xf32>, %eps: tensor<f32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'mixer.kernel_lse' op cannot be lowered: the point dim (dim 1 of 'x') must be static}}
  %r = mixer.kernel_lse kernel(gaussian) ins(%x, %y, %eps : tensor<16x?xf32>, tensor<100x?xf32>, tensor<f32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

func.func @kernel_mv_dynamic_channels(%x: tensor<2x16x3xf32>, %y: tensor<2x100x3xf32>, %v: tensor<2x100x?xf32>, %h: tensor<f32>, %o: tensor<2x16x?xf32>) -> tensor<2x16x?xf32> {
  // expected-error @+1 {{'mixer.kernel_mv' op cannot be lowered: the channel count (dim 2 of 'v') must be static}}
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x16x3xf32>, tensor<2x100x3xf32>, tensor<2x100x?xf32>, tensor<f32>) outs(%o : tensor<2x16x?xf32>) -> tensor<2x16x?xf32>
  return %r : tensor<2x16x?xf32>
}

// -----

// A composite op is expanded by mixer-decompose-composites, never lowered
// directly.
func.func @sinkhorn(%x: tensor<8x2xf32>, %y: tensor<4x2xf32>, %la: tensor<8xf32>, %lb: tensor<4xf32>, %eps: tensor<f32>, %f0: tensor<8xf32>, %g0: tensor<4xf32>, %c0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mixer.sinkhorn' op cannot be lowered: it is a composite op: run mixer-decompose-composites first}}
  %f, %g, %c = mixer.sinkhorn cost(gaussian) iterations(1) ins(%x, %y, %la, %lb, %eps : tensor<8x2xf32>, tensor<4x2xf32>, tensor<8xf32>, tensor<4xf32>, tensor<f32>) outs(%f0, %g0, %c0 : tensor<8xf32>, tensor<4xf32>, tensor<f32>) -> tensor<8xf32>, tensor<4xf32>, tensor<f32>
  return %c : tensor<f32>
}

// -----

// Every op that cannot be lowered is reported, not only the first.
func.func @two_blocked(%x: tensor<16x?xf32>, %y: tensor<100x?xf32>, %eps: tensor<f32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'mixer.kernel_lse' op cannot be lowered: the point dim (dim 1 of 'x') must be static}}
  %r = mixer.kernel_lse kernel(gaussian) ins(%x, %y, %eps : tensor<16x?xf32>, tensor<100x?xf32>, tensor<f32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{'mixer.kernel_lse' op cannot be lowered: the point dim (dim 1 of 'x') must be static}}
  %r2 = mixer.kernel_lse kernel(laplacian) ins(%x, %y, %eps : tensor<16x?xf32>, tensor<100x?xf32>, tensor<f32>) outs(%r : tensor<16xf32>) -> tensor<16xf32>
  return %r2 : tensor<16xf32>
}

// -----

func.func @transport_cost_dynamic_point_dim(%x: tensor<16x?xf32>, %y: tensor<100x?xf32>, %u: tensor<16xf32>, %v: tensor<100xf32>, %eps: tensor<f32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'mixer.transport_cost' op cannot be lowered: the point dim (dim 1 of 'x') must be static}}
  %r = mixer.transport_cost cost(sqeuclidean) ins(%x, %y, %u, %v, %eps : tensor<16x?xf32>, tensor<100x?xf32>, tensor<16xf32>, tensor<100xf32>, tensor<f32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

func.func @ssd_dynamic_head_dim(%x: tensor<2x16x2x?xf32>, %la: tensor<2x16x2xf32>, %b: tensor<2x16x1x8xf32>, %c: tensor<2x16x1x8xf32>, %y0: tensor<2x16x2x?xf32>, %s0: tensor<2x2x?x8xf32>) -> tensor<2x16x2x?xf32> {
  // expected-error @+1 {{'mixer.ssd' op cannot be lowered: the head dim (dim 3 of 'x') must be static}}
  %y, %s = mixer.ssd chunk_size(8) ins(%x, %la, %b, %c : tensor<2x16x2x?xf32>, tensor<2x16x2xf32>, tensor<2x16x1x8xf32>, tensor<2x16x1x8xf32>) outs(%y0, %s0 : tensor<2x16x2x?xf32>, tensor<2x2x?x8xf32>) -> tensor<2x16x2x?xf32>, tensor<2x2x?x8xf32>
  return %y : tensor<2x16x2x?xf32>
}

// -----

func.func @ssd_dynamic_groups(%x: tensor<2x16x2x4xf32>, %la: tensor<2x16x2xf32>, %b: tensor<2x16x?x8xf32>, %c: tensor<2x16x?x8xf32>, %y0: tensor<2x16x2x4xf32>, %s0: tensor<2x2x4x8xf32>) -> tensor<2x16x2x4xf32> {
  // expected-error @+1 {{'mixer.ssd' op cannot be lowered: the group count (dim 2 of 'b') must be static}}
  %y, %s = mixer.ssd chunk_size(8) ins(%x, %la, %b, %c : tensor<2x16x2x4xf32>, tensor<2x16x2xf32>, tensor<2x16x?x8xf32>, tensor<2x16x?x8xf32>) outs(%y0, %s0 : tensor<2x16x2x4xf32>, tensor<2x2x4x8xf32>) -> tensor<2x16x2x4xf32>, tensor<2x2x4x8xf32>
  return %y : tensor<2x16x2x4xf32>
}

// -----

func.func @selective_scan_dynamic_groups(%u: tensor<1x8x4xf32>, %dt: tensor<1x8x4xf32>, %A: tensor<4x4xf32>, %b: tensor<1x8x?x4xf32>, %c: tensor<1x8x?x4xf32>, %y0: tensor<1x8x4xf32>, %s0: tensor<1x4x4xf32>) -> tensor<1x8x4xf32> {
  // expected-error @+1 {{'mixer.selective_scan' op cannot be lowered: the group count (dim 2 of 'b') must be static}}
  %y, %s = mixer.selective_scan ins(%u, %dt, %A, %b, %c : tensor<1x8x4xf32>, tensor<1x8x4xf32>, tensor<4x4xf32>, tensor<1x8x?x4xf32>, tensor<1x8x?x4xf32>) outs(%y0, %s0 : tensor<1x8x4xf32>, tensor<1x4x4xf32>) -> tensor<1x8x4xf32>, tensor<1x4x4xf32>
  return %y : tensor<1x8x4xf32>
}

// -----

func.func @selective_scan_dynamic_state_dim(%u: tensor<1x8x4xf32>, %dt: tensor<1x8x4xf32>, %A: tensor<4x?xf32>, %b: tensor<1x8x1x?xf32>, %c: tensor<1x8x1x?xf32>, %y0: tensor<1x8x4xf32>, %s0: tensor<1x4x?xf32>) -> tensor<1x8x4xf32> {
  // expected-error @+1 {{'mixer.selective_scan' op cannot be lowered: the state dim (dim 3 of 'b') must be static}}
  %y, %s = mixer.selective_scan ins(%u, %dt, %A, %b, %c : tensor<1x8x4xf32>, tensor<1x8x4xf32>, tensor<4x?xf32>, tensor<1x8x1x?xf32>, tensor<1x8x1x?xf32>) outs(%y0, %s0 : tensor<1x8x4xf32>, tensor<1x4x?xf32>) -> tensor<1x8x4xf32>, tensor<1x4x?xf32>
  return %y : tensor<1x8x4xf32>
}

// -----

func.func @linear_attention_dynamic_heads(%q: tensor<2x8x?x16xf32>, %k: tensor<2x8x?x16xf32>, %v: tensor<2x8x?x8xf32>, %o0: tensor<2x8x?x8xf32>, %s0: tensor<2x?x16x8xf32>) -> tensor<2x8x?x8xf32> {
  // expected-error @+1 {{'mixer.linear_attention' op cannot be lowered: the head count (dim 2 of 'q') must be static}}
  %o, %s = mixer.linear_attention chunk_size(16) ins(%q, %k, %v : tensor<2x8x?x16xf32>, tensor<2x8x?x16xf32>, tensor<2x8x?x8xf32>) outs(%o0, %s0 : tensor<2x8x?x8xf32>, tensor<2x?x16x8xf32>) -> tensor<2x8x?x8xf32>, tensor<2x?x16x8xf32>
  return %o : tensor<2x8x?x8xf32>
}

// -----

func.func @linear_attention_dynamic_key_dim(%q: tensor<2x8x2x?xf32>, %k: tensor<2x8x2x?xf32>, %v: tensor<2x8x2x8xf32>, %o0: tensor<2x8x2x8xf32>, %s0: tensor<2x2x?x8xf32>) -> tensor<2x8x2x8xf32> {
  // expected-error @+1 {{'mixer.linear_attention' op cannot be lowered: the key dim (dim 3 of 'q') must be static}}
  %o, %s = mixer.linear_attention chunk_size(16) ins(%q, %k, %v : tensor<2x8x2x?xf32>, tensor<2x8x2x?xf32>, tensor<2x8x2x8xf32>) outs(%o0, %s0 : tensor<2x8x2x8xf32>, tensor<2x2x?x8xf32>) -> tensor<2x8x2x8xf32>, tensor<2x2x?x8xf32>
  return %o : tensor<2x8x2x8xf32>
}

// -----

func.func @gated_delta_rule_dynamic_heads(%q: tensor<2x8x?x4xf32>, %k: tensor<2x8x?x4xf32>, %v: tensor<2x8x?x4xf32>, %g: tensor<2x8x?xf32>, %beta: tensor<2x8x?xf32>, %o0: tensor<2x8x?x4xf32>, %s0: tensor<2x?x4x4xf32>) -> tensor<2x8x?x4xf32> {
  // expected-error @+1 {{'mixer.gated_delta_rule' op cannot be lowered: the head count (dim 2 of 'q') must be static}}
  %o, %s = mixer.gated_delta_rule chunk_size(8) ins(%q, %k, %v, %g, %beta : tensor<2x8x?x4xf32>, tensor<2x8x?x4xf32>, tensor<2x8x?x4xf32>, tensor<2x8x?xf32>, tensor<2x8x?xf32>) outs(%o0, %s0 : tensor<2x8x?x4xf32>, tensor<2x?x4x4xf32>) -> tensor<2x8x?x4xf32>, tensor<2x?x4x4xf32>
  return %o : tensor<2x8x?x4xf32>
}

// -----

func.func @gated_delta_rule_dynamic_value_dim(%q: tensor<2x8x1x4xf32>, %k: tensor<2x8x1x4xf32>, %v: tensor<2x8x1x?xf32>, %g: tensor<2x8x1xf32>, %beta: tensor<2x8x1xf32>, %o0: tensor<2x8x1x?xf32>, %s0: tensor<2x1x4x?xf32>) -> tensor<2x8x1x?xf32> {
  // expected-error @+1 {{'mixer.gated_delta_rule' op cannot be lowered: the value dim (dim 3 of 'v') must be static}}
  %o, %s = mixer.gated_delta_rule chunk_size(8) ins(%q, %k, %v, %g, %beta : tensor<2x8x1x4xf32>, tensor<2x8x1x4xf32>, tensor<2x8x1x?xf32>, tensor<2x8x1xf32>, tensor<2x8x1xf32>) outs(%o0, %s0 : tensor<2x8x1x?xf32>, tensor<2x1x4x?xf32>) -> tensor<2x8x1x?xf32>, tensor<2x1x4x?xf32>
  return %o : tensor<2x8x1x?xf32>
}

// -----

func.func @kernel_mv_dynamic_point_dim(%x: tensor<16x?xf32>, %y: tensor<100x?xf32>, %v: tensor<100x4xf32>, %h: tensor<f32>, %o: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // expected-error @+1 {{'mixer.kernel_mv' op cannot be lowered: the point dim (dim 1 of 'x') must be static}}
  %r = mixer.kernel_mv kernel(laplacian) ins(%x, %y, %v, %h : tensor<16x?xf32>, tensor<100x?xf32>, tensor<100x4xf32>, tensor<f32>) outs(%o : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %r : tensor<16x4xf32>
}
