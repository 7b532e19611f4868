// RUN: mixer-opt %s -split-input-file -verify-diagnostics --transform-interpreter
// The forward scans refuse, when tiled, a tile of a dim other than the batch
// that does not divide it (heads, channels, the head or value dim): the
// partial last tile would have a dynamic size there, which their lowering
// needs static. The backward scans share the check
// (scan-backward-tiling-invalid.mlir); batch tiles may be partial.

// 4 heads in tiles of 3: the last tile holds one head, a dynamic count.
func.func @linear_attention_partial_head_tile(%q: tensor<1x8x4x4xf32>, %v: tensor<1x8x4x6xf32>, %s: tensor<1x4x4x6xf32>) -> tensor<1x8x4x6xf32> {
  // expected-error @+4 {{cannot tile heads by a size that does not divide them: the lowering needs a static number of heads in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %o, %f = mixer.linear_attention chunk_size(4) ins(%q, %q, %v : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x6xf32>) outs(%v, %s : tensor<1x8x4x6xf32>, tensor<1x4x4x6xf32>) -> tensor<1x8x4x6xf32>, tensor<1x4x4x6xf32>
  return %o : tensor<1x8x4x6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.linear_attention"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The value dim Dv = 6 in tiles of 4.
func.func @linear_attention_partial_value_tile(%q: tensor<1x8x4x4xf32>, %v: tensor<1x8x4x6xf32>, %s: tensor<1x4x4x6xf32>) -> tensor<1x8x4x6xf32> {
  // expected-error @+4 {{cannot tile dim Dv by a size that does not divide it: the lowering needs it static in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %o, %f = mixer.linear_attention chunk_size(4) ins(%q, %q, %v : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x6xf32>) outs(%v, %s : tensor<1x8x4x6xf32>, tensor<1x4x4x6xf32>) -> tensor<1x8x4x6xf32>, tensor<1x4x4x6xf32>
  return %o : tensor<1x8x4x6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.linear_attention"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 1, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @gated_delta_rule_partial_head_tile(%q: tensor<1x8x4x4xf32>, %v: tensor<1x8x4x6xf32>, %g: tensor<1x8x4xf32>, %s: tensor<1x4x4x6xf32>) -> tensor<1x8x4x6xf32> {
  // expected-error @+4 {{cannot tile heads by a size that does not divide them: the lowering needs a static number of heads in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %o, %f = mixer.gated_delta_rule chunk_size(4) ins(%q, %q, %v, %g, %g : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x6xf32>, tensor<1x8x4xf32>, tensor<1x8x4xf32>) outs(%v, %s : tensor<1x8x4x6xf32>, tensor<1x4x4x6xf32>) -> tensor<1x8x4x6xf32>, tensor<1x4x4x6xf32>
  return %o : tensor<1x8x4x6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.gated_delta_rule"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// 6 heads in tiles of 4, two heads a group: the last tile would also
// split a group.
func.func @ssd_partial_head_tile(%x: tensor<1x10x6x8xf32>, %la: tensor<1x10x6xf32>, %b: tensor<1x10x3x16xf32>, %s: tensor<1x6x8x16xf32>) -> tensor<1x10x6x8xf32> {
  // expected-error @+4 {{cannot tile heads by a size that does not divide them: the lowering needs a static number of heads in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %y, %f = mixer.ssd chunk_size(4) ins(%x, %la, %b, %b : tensor<1x10x6x8xf32>, tensor<1x10x6xf32>, tensor<1x10x3x16xf32>, tensor<1x10x3x16xf32>) outs(%x, %s : tensor<1x10x6x8xf32>, tensor<1x6x8x16xf32>) -> tensor<1x10x6x8xf32>, tensor<1x6x8x16xf32>
  return %y : tensor<1x10x6x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.ssd"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// One group for all heads (read whole by every tile): still no partial
// tile.
func.func @ssd_one_group_partial_head_tile(%x: tensor<1x10x4x8xf32>, %la: tensor<1x10x4xf32>, %b: tensor<1x10x1x16xf32>, %s: tensor<1x4x8x16xf32>) -> tensor<1x10x4x8xf32> {
  // expected-error @+4 {{cannot tile heads by a size that does not divide them: the lowering needs a static number of heads in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %y, %f = mixer.ssd chunk_size(4) ins(%x, %la, %b, %b : tensor<1x10x4x8xf32>, tensor<1x10x4xf32>, tensor<1x10x1x16xf32>, tensor<1x10x1x16xf32>) outs(%x, %s : tensor<1x10x4x8xf32>, tensor<1x4x8x16xf32>) -> tensor<1x10x4x8xf32>, tensor<1x4x8x16xf32>
  return %y : tensor<1x10x4x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.ssd"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The head dim P = 8 in tiles of 3.
func.func @ssd_partial_head_dim_tile(%x: tensor<1x10x4x8xf32>, %la: tensor<1x10x4xf32>, %b: tensor<1x10x2x16xf32>, %s: tensor<1x4x8x16xf32>) -> tensor<1x10x4x8xf32> {
  // expected-error @+4 {{cannot tile dim P by a size that does not divide it: the lowering needs it static in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %y, %f = mixer.ssd chunk_size(4) ins(%x, %la, %b, %b : tensor<1x10x4x8xf32>, tensor<1x10x4xf32>, tensor<1x10x2x16xf32>, tensor<1x10x2x16xf32>) outs(%x, %s : tensor<1x10x4x8xf32>, tensor<1x4x8x16xf32>) -> tensor<1x10x4x8xf32>, tensor<1x4x8x16xf32>
  return %y : tensor<1x10x4x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.ssd"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 2, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// 64 channels of one group in tiles of 48.
func.func @selective_scan_partial_channel_tile(%u: tensor<1x8x64xf32>, %A: tensor<64x4xf32>, %b: tensor<1x8x1x4xf32>, %s: tensor<1x64x4xf32>) -> tensor<1x8x64xf32> {
  // expected-error @+4 {{cannot tile channels by a size that does not divide them: the lowering needs a static number of channels in every tile}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %y, %f = mixer.selective_scan ins(%u, %u, %A, %b, %b : tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<64x4xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%u, %s : tensor<1x8x64xf32>, tensor<1x64x4xf32>) -> tensor<1x8x64xf32>, tensor<1x64x4xf32>
  return %y : tensor<1x8x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.selective_scan"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 48] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
