// RUN: mixer-opt %s -split-input-file -verify-diagnostics --transform-interpreter
// The backward scans refuse the head (channel) tiles that their tiles cannot
// serve: a grouped one a tile that does not cover whole groups (the
// gradients of b and c sum over the heads of a group, so a tile holding part
// of a group would write a partial sum), every one a tile that does not
// divide the heads (a partial last tile would have a dynamic head count).

func.func @ssd_backward_splits_a_group(%x: tensor<2x10x4x8xf32>, %la: tensor<2x10x4xf32>, %b: tensor<2x10x2x16xf32>) -> tensor<2x10x2x16xf32> {
  // expected-error @+4 {{cannot tile heads by 1: the gradients of 'b' and 'c' sum over a group, so a tile must cover whole groups (2 heads each)}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>) dy(%x : tensor<2x10x4x8xf32>) outs(%x, %la, %b, %b : tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>) -> tensor<2x10x4x8xf32>, tensor<2x10x4xf32>, tensor<2x10x2x16xf32>, tensor<2x10x2x16xf32>
  return %g#2 : tensor<2x10x2x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.ssd_backward"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// One group for all four heads: only the whole of H is a tile.
func.func @ssd_backward_one_group(%x: tensor<1x10x4x8xf32>, %la: tensor<1x10x4xf32>, %b: tensor<1x10x1x16xf32>) -> tensor<1x10x1x16xf32> {
  // expected-error @+4 {{cannot tile heads by 2: the gradients of 'b' and 'c' sum over a group, so a tile must cover whole groups (4 heads each)}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<1x10x4x8xf32>, tensor<1x10x4xf32>, tensor<1x10x1x16xf32>, tensor<1x10x1x16xf32>) dy(%x : tensor<1x10x4x8xf32>) outs(%x, %la, %b, %b : tensor<1x10x4x8xf32>, tensor<1x10x4xf32>, tensor<1x10x1x16xf32>, tensor<1x10x1x16xf32>) -> tensor<1x10x4x8xf32>, tensor<1x10x4xf32>, tensor<1x10x1x16xf32>, tensor<1x10x1x16xf32>
  return %g#2 : tensor<1x10x1x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.ssd_backward"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @selective_scan_backward_splits_a_group(%u: tensor<1x8x64xf32>, %A: tensor<64x4xf32>, %b: tensor<1x8x2x4xf32>, %dA: tensor<1x64x4xf32>) -> tensor<1x8x2x4xf32> {
  // expected-error @+4 {{cannot tile channels by 16: the gradients of 'b' and 'c' sum over a group, so a tile must cover whole groups (32 channels each)}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %g:5 = mixer.selective_scan_backward chunk_size(4) ins(%u, %u, %A, %b, %b : tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<64x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) dy(%u : tensor<1x8x64xf32>) outs(%u, %u, %dA, %b, %b : tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x64x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x64x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>
  return %g#3 : tensor<1x8x2x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.selective_scan_backward"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A head tile that does not divide H (6 heads in tiles of 4, whole groups of
// 2): the partial last tile would have a dynamic head count, which the
// lowering needs static.
func.func @ssd_backward_partial_tile(%x: tensor<1x10x6x8xf32>, %la: tensor<1x10x6xf32>, %b: tensor<1x10x3x16xf32>) -> tensor<1x10x3x16xf32> {
  // expected-error @+4 {{cannot tile heads by a size that does not divide them: the lowering needs a static number of heads in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %g:4 = mixer.ssd_backward chunk_size(4) ins(%x, %la, %b, %b : tensor<1x10x6x8xf32>, tensor<1x10x6xf32>, tensor<1x10x3x16xf32>, tensor<1x10x3x16xf32>) dy(%x : tensor<1x10x6x8xf32>) outs(%x, %la, %b, %b : tensor<1x10x6x8xf32>, tensor<1x10x6xf32>, tensor<1x10x3x16xf32>, tensor<1x10x3x16xf32>) -> tensor<1x10x6x8xf32>, tensor<1x10x6xf32>, tensor<1x10x3x16xf32>, tensor<1x10x3x16xf32>
  return %g#2 : tensor<1x10x3x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.ssd_backward"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @selective_scan_backward_partial_tile(%u: tensor<1x8x64xf32>, %A: tensor<64x4xf32>, %b: tensor<1x8x4x4xf32>, %dA: tensor<1x64x4xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error @+4 {{cannot tile channels by a size that does not divide them: the lowering needs a static number of channels in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %g:5 = mixer.selective_scan_backward chunk_size(4) ins(%u, %u, %A, %b, %b : tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<64x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) dy(%u : tensor<1x8x64xf32>) outs(%u, %u, %dA, %b, %b : tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x64x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x64x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
  return %g#3 : tensor<1x8x4x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.selective_scan_backward"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 48] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The ungrouped backward scans too: 4 heads in tiles of 3.
func.func @linear_attention_backward_partial_tile(%q: tensor<1x8x4x4xf32>, %v: tensor<1x8x4x6xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error @+4 {{cannot tile heads by a size that does not divide them: the lowering needs a static number of heads in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %g:3 = mixer.linear_attention_backward chunk_size(4) ins(%q, %q, %v : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x6xf32>) dout(%v : tensor<1x8x4x6xf32>) outs(%q, %q, %v : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x6xf32>) -> tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x6xf32>
  return %g#0 : tensor<1x8x4x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.linear_attention_backward"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @gated_delta_rule_backward_partial_tile(%q: tensor<1x8x4x4xf32>, %v: tensor<1x8x4x6xf32>, %g: tensor<1x8x4xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error @+4 {{cannot tile heads by a size that does not divide them: the lowering needs a static number of heads in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %r:5 = mixer.gated_delta_rule_backward chunk_size(4) ins(%q, %q, %v, %g, %g : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x6xf32>, tensor<1x8x4xf32>, tensor<1x8x4xf32>) d_o(%v : tensor<1x8x4x6xf32>) outs(%q, %q, %v, %g, %g : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x6xf32>, tensor<1x8x4xf32>, tensor<1x8x4xf32>) -> tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x6xf32>, tensor<1x8x4xf32>, tensor<1x8x4xf32>
  return %r#0 : tensor<1x8x4x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.gated_delta_rule_backward"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
