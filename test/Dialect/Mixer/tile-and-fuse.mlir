// RUN: mixer-opt %s -split-input-file -verify-diagnostics --transform-interpreter --canonicalize -cse | FileCheck %s
// Mixer ops take part in upstream tile-and-fuse through the TilingInterface
// model built from their indexing maps: a consumer tiled over a mixer op's
// result fuses the mixer op as a producer (its tile computed from the result
// tile), unless the result tile splits a loop the op keeps whole.

// An elementwise consumer of kernel_lse tiled by 32 rows (100: the last tile
// is smaller): the fused kernel_lse reads its rows of x, all of y and g.
// CHECK-LABEL: func.func @kernel_lse_into_elementwise
// CHECK-SAME: (%[[X:[^:]*]]: tensor<100x3xf32>, %[[Y:[^:]*]]: tensor<77x3xf32>, %[[G:[^:]*]]: tensor<77xf32>, %[[E:[^:]*]]: tensor<f32>)
// CHECK: scf.forall (%[[I:.*]]) = (0) to (100) step (32) shared_outs(%[[R:.*]] = %{{.*}})
// CHECK:   %[[S:.*]] = affine.min
// CHECK:   %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [%[[S]], 3] [1, 1]
// CHECK:   %[[OT:.*]] = tensor.extract_slice %{{.*}}[%[[I]]] [%[[S]]] [1]
// CHECK:   %[[LSE:.*]] = mixer.kernel_lse kernel(sqeuclidean) ins(%[[XT]], %[[Y]], %[[E]] : tensor<?x3xf32>, tensor<77x3xf32>, tensor<f32>) g(%[[G]] : tensor<77xf32>) outs(%[[OT]] : tensor<?xf32>)
// CHECK:   %[[RT:.*]] = tensor.extract_slice %[[R]][%[[I]]] [%[[S]]] [1]
// CHECK:   linalg.generic {{.*}} ins(%[[LSE]] : tensor<?xf32>) outs(%[[RT]] : tensor<?xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK-NOT: mixer.kernel_lse
#id1 = affine_map<(d0) -> (d0)>
func.func @kernel_lse_into_elementwise(%x: tensor<100x3xf32>, %y: tensor<77x3xf32>, %g: tensor<77xf32>, %e: tensor<f32>) -> tensor<100xf32> {
  %o0 = tensor.empty() : tensor<100xf32>
  %lse = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<100x3xf32>, tensor<77x3xf32>, tensor<f32>) g(%g : tensor<77xf32>) outs(%o0 : tensor<100xf32>) -> tensor<100xf32>
  %r0 = tensor.empty() : tensor<100xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%lse : tensor<100xf32>) outs(%r0 : tensor<100xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<100xf32>
  return %r : tensor<100xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.fuse %m tile_sizes [32] {use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
// -----

// An elementwise consumer of the ssd output y tiled by (batch 1, heads 2):
// the fused ssd reads the group (head floordiv 4) of b and c.
// CHECK-DAG: #[[$GROUP:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-LABEL: func.func @ssd_into_elementwise
// CHECK-SAME: (%[[X:[^:]*]]: tensor<2x100x8x16xf32>, %[[LA:[^:]*]]: tensor<2x100x8xf32>, %[[B:[^:]*]]: tensor<2x100x2x32xf32>, %[[C:[^:]*]]: tensor<2x100x2x32xf32>)
// CHECK: scf.for %[[BI:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK:     %[[G0:.*]] = affine.apply #[[$GROUP]](%[[H]])
// CHECK:     tensor.extract_slice %[[X]][%[[BI]], 0, %[[H]], 0] [1, 100, 2, 16]
// CHECK:     tensor.extract_slice %[[LA]][%[[BI]], 0, %[[H]]] [1, 100, 2]
// CHECK:     tensor.extract_slice %[[B]][%[[BI]], 0, %[[G0]], 0] [1, 100, 1, 32]
// CHECK:     tensor.extract_slice %[[C]][%[[BI]], 0, %[[G0]], 0] [1, 100, 1, 32]
// CHECK:     %[[Y:.*]], %{{.*}} = mixer.ssd chunk_size(64) ins({{.*}} : tensor<1x100x2x16xf32>, tensor<1x100x2xf32>, tensor<1x100x1x32xf32>, tensor<1x100x1x32xf32>) outs({{.*}} : tensor<1x100x2x16xf32>, tensor<1x2x16x32xf32>)
// CHECK:     linalg.generic {{.*}} ins(%[[Y]] : tensor<1x100x2x16xf32>)
// CHECK:     tensor.insert_slice
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @ssd_into_elementwise(%x: tensor<2x100x8x16xf32>, %la: tensor<2x100x8xf32>, %b: tensor<2x100x2x32xf32>, %c: tensor<2x100x2x32xf32>) -> tensor<2x100x8x16xf32> {
  %y0 = tensor.empty() : tensor<2x100x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %c : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>) outs(%y0, %s0 : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
  %r0 = tensor.empty() : tensor<2x100x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<2x100x8x16xf32>) outs(%r0 : tensor<2x100x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<2x100x8x16xf32>
  return %r : tensor<2x100x8x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.fuse %m tile_sizes [1, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
// -----

// A consumer tiled over columns by tile_using_forall, then the grouped
// matmul fused into the forall: it reads its columns of rhs, all of lhs.
// CHECK-LABEL: func.func @grouped_matmul_into_forall
// CHECK-SAME: (%[[LHS:[^:]*]]: tensor<64x32xf32>, %[[RHS:[^:]*]]: tensor<4x32x64xf32>, %[[GS:[^:]*]]: tensor<4xi64>)
// CHECK-NOT: mixer.grouped_matmul
// CHECK: scf.forall (%[[I:.*]]) in (4)
// CHECK:   %[[N0:.*]] = affine.apply
// CHECK:   %[[RHS_T:.*]] = tensor.extract_slice %[[RHS]][0, 0, %[[N0]]] [4, 32, 16] [1, 1, 1]
// CHECK:   %[[OUT_T:.*]] = tensor.extract_slice %{{.*}}[0, %[[N0]]] [64, 16] [1, 1]
// CHECK:   %[[P:.*]] = mixer.grouped_matmul ins(%[[LHS]], %[[RHS_T]], %[[GS]] : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>) outs(%[[OUT_T]] : tensor<64x16xf32>)
// CHECK:   linalg.generic {{.*}} ins(%[[P]] : tensor<64x16xf32>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @grouped_matmul_into_forall(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi64>) -> tensor<64x64xf32> {
  %o0 = tensor.empty() : tensor<64x64xf32>
  %p = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x64xf32>, tensor<4xi64>) outs(%o0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r0 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<64x64xf32>) outs(%r0 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.structured.match ops{["mixer.grouped_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %forall = transform.structured.tile_using_forall %m tile_sizes [0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %nf = transform.structured.fuse_into_containing_op %p into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
// -----

// A consumer tiled over rows: the grouped matmul keeps its rows whole (they
// are tied to groups by run-time sizes), so it is not fused and runs whole
// before the loop.
// CHECK-LABEL: func.func @grouped_matmul_rows_not_fused
// CHECK: %[[P:.*]] = mixer.grouped_matmul {{.*}} -> tensor<64x64xf32>
// CHECK: scf.for
// CHECK-NOT: mixer.grouped_matmul
// CHECK:   tensor.extract_slice %[[P]]
// CHECK:   linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @grouped_matmul_rows_not_fused(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi64>) -> tensor<64x64xf32> {
  %o0 = tensor.empty() : tensor<64x64xf32>
  %p = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x64xf32>, tensor<4xi64>) outs(%o0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r0 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<64x64xf32>) outs(%r0 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.fuse %m tile_sizes [16, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
// -----

// A consumer tiled by 3 heads with 4 heads per group: a tile would split a
// group, so the ssd says why and stays whole before the loop.
// CHECK-LABEL: func.func @ssd_split_group
// CHECK: %[[Y:.*]], %{{.*}} = mixer.ssd {{.*}} -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
// CHECK: scf.for
// CHECK-NOT: mixer.ssd
// CHECK:   tensor.extract_slice %[[Y]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @ssd_split_group(%x: tensor<2x100x8x16xf32>, %la: tensor<2x100x8xf32>, %b: tensor<2x100x2x32xf32>, %c: tensor<2x100x2x32xf32>) -> tensor<2x100x8x16xf32> {
  %y0 = tensor.empty() : tensor<2x100x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  // expected-error @+1 {{cannot tile heads by a size that does not divide them: the lowering needs a static number of heads in every tile}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %c : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>) outs(%y0, %s0 : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
  %r0 = tensor.empty() : tensor<2x100x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<2x100x8x16xf32>) outs(%r0 : tensor<2x100x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<2x100x8x16xf32>
  return %r : tensor<2x100x8x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.fuse %m tile_sizes [0, 0, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
// -----

// Tiling heads with a dynamic number of heads per group is refused.
// (The failed transform prints nothing for this function.)
func.func @ssd_dynamic_groups(%x: tensor<2x100x?x16xf32>, %la: tensor<2x100x?xf32>, %b: tensor<2x100x?x32xf32>, %c: tensor<2x100x?x32xf32>, %y0: tensor<2x100x?x16xf32>, %s0: tensor<2x?x16x32xf32>) -> tensor<2x100x?x16xf32> {
  // expected-error @+4 {{cannot tile with a dynamic number of heads or groups}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-note @+1 {{when applied to this op}}
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %c : tensor<2x100x?x16xf32>, tensor<2x100x?xf32>, tensor<2x100x?x32xf32>, tensor<2x100x?x32xf32>) outs(%y0, %s0 : tensor<2x100x?x16xf32>, tensor<2x?x16x32xf32>) -> tensor<2x100x?x16xf32>, tensor<2x?x16x32xf32>
  return %y : tensor<2x100x?x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.ssd"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{failed to apply}}
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
