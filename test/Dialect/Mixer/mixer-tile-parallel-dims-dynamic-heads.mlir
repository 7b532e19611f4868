// RUN: mixer-opt %s --mixer-tile-parallel-dims -verify-diagnostics

// Found by mixer-fuzz-pipeline: a grouped scan whose numbers of heads and
// groups are dynamic verifies, but the CPU lowering cannot map heads to
// groups per tile; the pass stops with a clear error instead of crashing.

func.func @ssd_dynamic_heads(%x: tensor<?x?x?x?xf32>, %la: tensor<?x?x?xf32>, %b: tensor<?x?x?x?xf32>, %c: tensor<?x?x?x?xf32>, %y0: tensor<?x?x?x?xf32>, %s0: tensor<?x?x?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  // expected-error @below {{cannot tile with a dynamic number of heads or groups}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  %y, %s = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%y0, %s0 : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
  return %y, %s : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}
