// RUN: mixer-opt %s -split-input-file --transform-interpreter --canonicalize | FileCheck %s
// Upstream transform.structured.tile_using_forall tiles mixer ops through
// their TilingInterface.

// Heads are tiled by 2 with 4 heads per group: each tile reads one group.
// CHECK-DAG: #[[$HEAD:.*]] = affine_map<(d0) -> (d0 * 2)>
// CHECK-DAG: #[[$GROUP:.*]] = affine_map<(d0) -> (d0 floordiv 2)>
// CHECK-LABEL: func.func @ssd
// CHECK: scf.forall (%[[B:.*]], %[[H:.*]]) in (2, 4) shared_outs(%[[Y:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK:   %[[H0:.*]] = affine.apply #[[$HEAD]](%[[H]])
// CHECK:   %[[G0:.*]] = affine.apply #[[$GROUP]](%[[H]])
// CHECK:   tensor.extract_slice %{{.*}}[%[[B]], 0, %[[H0]], 0] [1, 100, 2, 16]
// CHECK:   tensor.extract_slice %{{.*}}[%[[B]], 0, %[[G0]], 0] [1, 100, 1, 32]
// CHECK:   mixer.ssd chunk_size(64) ins({{.*}} : tensor<1x100x2x16xf32>, tensor<1x100x2xf32>, tensor<1x100x1x32xf32>, tensor<1x100x1x32xf32>) init(%{{.*}} : tensor<1x2x16x32xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[Y]][%[[B]], 0, %[[H0]], 0] [1, 100, 2, 16]
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[B]], %[[H0]], 0, 0] [1, 2, 16, 32]
func.func @ssd(%x: tensor<2x100x8x16xf32>, %la: tensor<2x100x8xf32>, %b: tensor<2x100x2x32xf32>, %c: tensor<2x100x2x32xf32>, %h: tensor<2x8x16x32xf32>) -> (tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) {
  %y0 = tensor.empty() : tensor<2x100x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %c : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>) init(%h : tensor<2x8x16x32xf32>) outs(%y0, %s0 : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
  return %y, %s : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.ssd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
