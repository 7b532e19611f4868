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

// -----

// Columns N are tiled by 32 (100 is not a multiple: the last tile is
// smaller); lhs and group_sizes are read whole by every tile.
// CHECK-DAG: #[[$COL32:.*]] = affine_map<(d0) -> (d0 * 32)>
// CHECK-DAG: #[[$REM32:.*]] = affine_map<(d0) -> (d0 * -32 + 100, 32)>
// CHECK-LABEL: func.func @grouped_matmul
// CHECK-SAME: (%[[LHS:.*]]: tensor<64x32xf32>, %[[RHS:.*]]: tensor<4x32x100xf32>, %[[GS:.*]]: tensor<4xi64>)
// CHECK: scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:   %[[N0:.*]] = affine.apply #[[$COL32]](%[[I]])
// CHECK:   %[[NS:.*]] = affine.min #[[$REM32]](%[[I]])
// CHECK:   %[[RHS_T:.*]] = tensor.extract_slice %[[RHS]][0, 0, %[[N0]]] [4, 32, %[[NS]]] [1, 1, 1]
// CHECK:   %[[OUT_T:.*]] = tensor.extract_slice %[[OUT]][0, %[[N0]]] [64, %[[NS]]] [1, 1]
// CHECK:   mixer.grouped_matmul ins(%[[LHS]], %[[RHS_T]], %[[GS]] : tensor<64x32xf32>, tensor<4x32x?xf32>, tensor<4xi64>) outs(%[[OUT_T]] : tensor<64x?xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %[[N0]]] [64, %[[NS]]] [1, 1]
func.func @grouped_matmul(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x100xf32>, %gs: tensor<4xi64>) -> tensor<64x100xf32> {
  %init = tensor.empty() : tensor<64x100xf32>
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x100xf32>, tensor<4xi64>) outs(%init : tensor<64x100xf32>) -> tensor<64x100xf32>
  return %out : tensor<64x100xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.grouped_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Dynamic T: the rows of every tile stay whole.
// CHECK-DAG: #[[$COL16:.*]] = affine_map<(d0) -> (d0 * 16)>
// CHECK-LABEL: func.func @grouped_matmul_dynamic_rows
// CHECK-SAME: (%[[LHS:.*]]: tensor<?x32xf32>, %[[RHS:.*]]: tensor<4x32x64xf32>, %[[GS:.*]]: tensor<4xi32>, %[[INIT:.*]]: tensor<?x64xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OUT:.*]] = %[[INIT]])
// CHECK:   %[[N0:.*]] = affine.apply #[[$COL16]](%[[I]])
// CHECK:   %[[RHS_T:.*]] = tensor.extract_slice %[[RHS]][0, 0, %[[N0]]] [4, 32, 16] [1, 1, 1]
// CHECK:   %[[T:.*]] = tensor.dim %[[OUT]], %{{.*}} : tensor<?x64xf32>
// CHECK:   %[[OUT_T:.*]] = tensor.extract_slice %[[OUT]][0, %[[N0]]] [%[[T]], 16] [1, 1]
// CHECK:   mixer.grouped_matmul ins(%[[LHS]], %[[RHS_T]], %[[GS]] : tensor<?x32xf32>, tensor<4x32x16xf32>, tensor<4xi32>) outs(%[[OUT_T]] : tensor<?x16xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %[[N0]]] [%{{.*}}, 16] [1, 1]
func.func @grouped_matmul_dynamic_rows(%lhs: tensor<?x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi32>, %init: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x32xf32>, tensor<4x32x64xf32>, tensor<4xi32>) outs(%init : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.grouped_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Columns F are tiled by 16: both weights take the same column tile.
// CHECK-DAG: #[[$COL16:.*]] = affine_map<(d0) -> (d0 * 16)>
// CHECK-LABEL: func.func @grouped_swiglu
// CHECK-SAME: (%[[X:.*]]: tensor<64x32xf32>, %[[WG:.*]]: tensor<4x32x48xf32>, %[[WU:.*]]: tensor<4x32x48xf32>, %[[GS:.*]]: tensor<4xi32>)
// CHECK: scf.forall (%[[I:.*]]) in (3) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:   %[[F0:.*]] = affine.apply #[[$COL16]](%[[I]])
// CHECK:   %[[WG_T:.*]] = tensor.extract_slice %[[WG]][0, 0, %[[F0]]] [4, 32, 16] [1, 1, 1]
// CHECK:   %[[WU_T:.*]] = tensor.extract_slice %[[WU]][0, 0, %[[F0]]] [4, 32, 16] [1, 1, 1]
// CHECK:   %[[OUT_T:.*]] = tensor.extract_slice %[[OUT]][0, %[[F0]]] [64, 16] [1, 1]
// CHECK:   mixer.grouped_swiglu ins(%[[X]], %[[WG_T]], %[[WU_T]], %[[GS]] : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4x32x16xf32>, tensor<4xi32>) outs(%[[OUT_T]] : tensor<64x16xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %[[F0]]] [64, 16] [1, 1]
func.func @grouped_swiglu(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %gs: tensor<4xi32>) -> tensor<64x48xf32> {
  %init = tensor.empty() : tensor<64x48xf32>
  %out = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>) outs(%init : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %out : tensor<64x48xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.grouped_swiglu"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Tokens T (dynamic) are tiled by 32: logits and both outs take the row tile.
// CHECK-DAG: #[[$NTILES:.*]] = affine_map<()[s0] -> (s0 ceildiv 32)>
// CHECK-DAG: #[[$ROW32:.*]] = affine_map<(d0) -> (d0 * 32)>
// CHECK-DAG: #[[$REMT:.*]] = affine_map<(d0)[s0] -> (d0 * -32 + s0, 32)>
// CHECK-LABEL: func.func @topk_router
// CHECK-SAME: (%[[LOGITS:.*]]: tensor<?x8xf32>, %[[W0:.*]]: tensor<?x2xf32>, %[[I0:.*]]: tensor<?x2xi32>)
// CHECK: %[[T:.*]] = tensor.dim %[[LOGITS]], %{{.*}} : tensor<?x8xf32>
// CHECK: %[[NT:.*]] = affine.apply #[[$NTILES]]()[%[[T]]]
// CHECK: scf.forall (%[[I:.*]]) in (%[[NT]]) shared_outs(%[[W:.*]] = %[[W0]], %[[IDS:.*]] = %[[I0]])
// CHECK:   %[[T0:.*]] = affine.apply #[[$ROW32]](%[[I]])
// CHECK:   %[[TS:.*]] = affine.min #[[$REMT]](%[[I]])[%[[T]]]
// CHECK:   %[[L_T:.*]] = tensor.extract_slice %[[LOGITS]][%[[T0]], 0] [%[[TS]], 8] [1, 1]
// CHECK:   %[[W_T:.*]] = tensor.extract_slice %[[W]][%[[T0]], 0] [%[[TS]], 2] [1, 1]
// CHECK:   %[[IDS_T:.*]] = tensor.extract_slice %[[IDS]][%[[T0]], 0] [%[[TS]], 2] [1, 1]
// CHECK:   mixer.topk_router k(2) normalize ins(%[[L_T]] : tensor<?x8xf32>) outs(%[[W_T]], %[[IDS_T]] : tensor<?x2xf32>, tensor<?x2xi32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[W]][%[[T0]], 0] [%[[TS]], 2] [1, 1]
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[IDS]][%[[T0]], 0] [%[[TS]], 2] [1, 1]
func.func @topk_router(%logits: tensor<?x8xf32>, %w0: tensor<?x2xf32>, %i0: tensor<?x2xi32>) -> (tensor<?x2xf32>, tensor<?x2xi32>) {
  %w, %ids = mixer.topk_router k(2) normalize ins(%logits : tensor<?x8xf32>) outs(%w0, %i0 : tensor<?x2xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>, tensor<?x2xi32>
  return %w, %ids : tensor<?x2xf32>, tensor<?x2xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.topk_router"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Columns N are tiled by 16; permutation and weights are read whole.
// CHECK-DAG: #[[$COL16:.*]] = affine_map<(d0) -> (d0 * 16)>
// CHECK-LABEL: func.func @moe_combine
// CHECK-SAME: (%[[EO:.*]]: tensor<128x64xf32>, %[[PERM:.*]]: tensor<128xi32>, %[[W:.*]]: tensor<64x2xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:   %[[N0:.*]] = affine.apply #[[$COL16]](%[[I]])
// CHECK:   %[[EO_T:.*]] = tensor.extract_slice %[[EO]][0, %[[N0]]] [128, 16] [1, 1]
// CHECK:   %[[OUT_T:.*]] = tensor.extract_slice %[[OUT]][0, %[[N0]]] [64, 16] [1, 1]
// CHECK:   mixer.moe_combine ins(%[[EO_T]], %[[PERM]], %[[W]] : tensor<128x16xf32>, tensor<128xi32>, tensor<64x2xf32>) outs(%[[OUT_T]] : tensor<64x16xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %[[N0]]] [64, 16] [1, 1]
func.func @moe_combine(%eo: tensor<128x64xf32>, %perm: tensor<128xi32>, %w: tensor<64x2xf32>) -> tensor<64x64xf32> {
  %init = tensor.empty() : tensor<64x64xf32>
  %out = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x64xf32>, tensor<128xi32>, tensor<64x2xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %out : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.moe_combine"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// kernel_mv tiled over (Bt, N, C): a tile reads its rows of x, all of y and
// its columns of v; the bandwidth is shared.
// CHECK-DAG: #[[$ROW32:.*]] = affine_map<(d0) -> (d0 * 32)>
// CHECK-DAG: #[[$COL8:.*]] = affine_map<(d0) -> (d0 * 8)>
// CHECK-LABEL: func.func @kernel_mv
// CHECK-SAME: (%[[X:[^:]*]]: tensor<2x128x3xf32>, %[[Y:[^:]*]]: tensor<2x64x3xf32>, %[[V:[^:]*]]: tensor<2x64x16xf32>, %[[H:[^:]*]]: tensor<f32>)
// CHECK: scf.forall (%[[B:.*]], %[[I:.*]], %[[J:.*]]) in (2, 4, 2) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK:   %[[I0:.*]] = affine.apply #[[$ROW32]](%[[I]])
// CHECK:   %[[J0:.*]] = affine.apply #[[$COL8]](%[[J]])
// CHECK:   %[[XT:.*]] = tensor.extract_slice %[[X]][%[[B]], %[[I0]], 0] [1, 32, 3] [1, 1, 1]
// CHECK:   %[[YT:.*]] = tensor.extract_slice %[[Y]][%[[B]], 0, 0] [1, 64, 3] [1, 1, 1]
// CHECK:   %[[VT:.*]] = tensor.extract_slice %[[V]][%[[B]], 0, %[[J0]]] [1, 64, 8] [1, 1, 1]
// CHECK:   %[[OT:.*]] = tensor.extract_slice %[[O]][%[[B]], %[[I0]], %[[J0]]] [1, 32, 8] [1, 1, 1]
// CHECK:   %[[R:.*]] = mixer.kernel_mv kernel(gaussian) ins(%[[XT]], %[[YT]], %[[VT]], %[[H]] : tensor<1x32x3xf32>, tensor<1x64x3xf32>, tensor<1x64x8xf32>, tensor<f32>) outs(%[[OT]] : tensor<1x32x8xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %[[R]] into %[[O]][%[[B]], %[[I0]], %[[J0]]] [1, 32, 8] [1, 1, 1]
func.func @kernel_mv(%x: tensor<2x128x3xf32>, %y: tensor<2x64x3xf32>, %v: tensor<2x64x16xf32>, %h: tensor<f32>) -> tensor<2x128x16xf32> {
  %o0 = tensor.empty() : tensor<2x128x16xf32>
  %o = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x128x3xf32>, tensor<2x64x3xf32>, tensor<2x64x16xf32>, tensor<f32>) outs(%o0 : tensor<2x128x16xf32>) -> tensor<2x128x16xf32>
  return %o : tensor<2x128x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.kernel_mv"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 32, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Unbatched kernel_mv with dynamic N and M, rows tiled by 64 (the last tile
// is partial), columns whole: y is used as it is.
// CHECK-DAG: #[[$ROW64:.*]] = affine_map<(d0) -> (d0 * 64)>
// CHECK-DAG: #[[$ROWMIN:.*]] = affine_map<(d0)[s0] -> (d0 * -64 + s0, 64)>
// CHECK-LABEL: func.func @kernel_mv_unbatched_dynamic
// CHECK-SAME: (%[[X:[^:]*]]: tensor<?x3xf32>, %[[Y:[^:]*]]: tensor<?x3xf32>, %[[V:[^:]*]]: tensor<?x16xf32>, %[[H:[^:]*]]: tensor<f32>, %[[O0:[^:]*]]: tensor<?x16xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[O0]], %{{.*}} : tensor<?x16xf32>
// CHECK: scf.forall (%[[I:.*]]) in (%{{.*}}) shared_outs(%[[O:.*]] = %[[O0]])
// CHECK:   %[[I0:.*]] = affine.apply #[[$ROW64]](%[[I]])
// CHECK:   %[[SZ:.*]] = affine.min #[[$ROWMIN]](%[[I]])[%[[N]]]
// CHECK:   %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I0]], 0] [%[[SZ]], 3] [1, 1]
// CHECK:   %[[M:.*]] = tensor.dim %[[V]], %{{.*}} : tensor<?x16xf32>
// CHECK:   %[[VT:.*]] = tensor.extract_slice %[[V]][0, 0] [%[[M]], 16] [1, 1]
// CHECK:   %[[OT:.*]] = tensor.extract_slice %[[O]][%[[I0]], 0] [%[[SZ]], 16] [1, 1]
// CHECK:   %[[R:.*]] = mixer.kernel_mv kernel(matern32) ins(%[[XT]], %[[Y]], %[[VT]], %[[H]] : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x16xf32>, tensor<f32>) outs(%[[OT]] : tensor<?x16xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %[[R]] into %[[O]][%[[I0]], 0] [%[[SZ]], 16] [1, 1]
func.func @kernel_mv_unbatched_dynamic(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>, %v: tensor<?x16xf32>, %h: tensor<f32>, %o0: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %o = mixer.kernel_mv kernel(matern32) ins(%x, %y, %v, %h : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x16xf32>, tensor<f32>) outs(%o0 : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %o : tensor<?x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.kernel_mv"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [64, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// kernel_lse tiled over (Bt, N): a tile reads its rows of x and its batch of
// y and g; eps is shared and the sum over M stays inside the tile.
// CHECK-DAG: #[[$ROW32:.*]] = affine_map<(d0) -> (d0 * 32)>
// CHECK-LABEL: func.func @kernel_lse
// CHECK-SAME: (%[[X:[^:]*]]: tensor<2x128x3xf32>, %[[Y:[^:]*]]: tensor<2x64x3xf32>, %[[G:[^:]*]]: tensor<2x64xf32>, %[[E:[^:]*]]: tensor<f32>)
// CHECK: scf.forall (%[[B:.*]], %[[I:.*]]) in (2, 4) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK:   %[[I0:.*]] = affine.apply #[[$ROW32]](%[[I]])
// CHECK:   %[[XT:.*]] = tensor.extract_slice %[[X]][%[[B]], %[[I0]], 0] [1, 32, 3] [1, 1, 1]
// CHECK:   %[[YT:.*]] = tensor.extract_slice %[[Y]][%[[B]], 0, 0] [1, 64, 3] [1, 1, 1]
// CHECK:   %[[GT:.*]] = tensor.extract_slice %[[G]][%[[B]], 0] [1, 64] [1, 1]
// CHECK:   %[[OT:.*]] = tensor.extract_slice %[[O]][%[[B]], %[[I0]]] [1, 32] [1, 1]
// CHECK:   %[[R:.*]] = mixer.kernel_lse kernel(sqeuclidean) ins(%[[XT]], %[[YT]], %[[E]] : tensor<1x32x3xf32>, tensor<1x64x3xf32>, tensor<f32>) g(%[[GT]] : tensor<1x64xf32>) outs(%[[OT]] : tensor<1x32xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %[[R]] into %[[O]][%[[B]], %[[I0]]] [1, 32] [1, 1]
func.func @kernel_lse(%x: tensor<2x128x3xf32>, %y: tensor<2x64x3xf32>, %g: tensor<2x64xf32>, %e: tensor<f32>) -> tensor<2x128xf32> {
  %o0 = tensor.empty() : tensor<2x128xf32>
  %o = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %e : tensor<2x128x3xf32>, tensor<2x64x3xf32>, tensor<f32>) g(%g : tensor<2x64xf32>) outs(%o0 : tensor<2x128xf32>) -> tensor<2x128xf32>
  return %o : tensor<2x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.kernel_lse"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Unbatched kernel_lse without g, dynamic M, rows tiled by 16: y is used as
// it is.
// CHECK-DAG: #[[$ROW16:.*]] = affine_map<(d0) -> (d0 * 16)>
// CHECK-LABEL: func.func @kernel_lse_unbatched
// CHECK-SAME: (%[[X:[^:]*]]: tensor<128x3xf32>, %[[Y:[^:]*]]: tensor<?x3xf32>, %[[E:[^:]*]]: tensor<f32>)
// CHECK: scf.forall (%[[I:.*]]) in (8) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK:   %[[I0:.*]] = affine.apply #[[$ROW16]](%[[I]])
// CHECK:   %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I0]], 0] [16, 3] [1, 1]
// CHECK:   %[[OT:.*]] = tensor.extract_slice %[[O]][%[[I0]]] [16] [1]
// CHECK:   %[[R:.*]] = mixer.kernel_lse kernel(laplacian) ins(%[[XT]], %[[Y]], %[[E]] : tensor<16x3xf32>, tensor<?x3xf32>, tensor<f32>) outs(%[[OT]] : tensor<16xf32>)
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %[[R]] into %[[O]][%[[I0]]] [16] [1]
func.func @kernel_lse_unbatched(%x: tensor<128x3xf32>, %y: tensor<?x3xf32>, %e: tensor<f32>) -> tensor<128xf32> {
  %o0 = tensor.empty() : tensor<128xf32>
  %o = mixer.kernel_lse kernel(laplacian) ins(%x, %y, %e : tensor<128x3xf32>, tensor<?x3xf32>, tensor<f32>) outs(%o0 : tensor<128xf32>) -> tensor<128xf32>
  return %o : tensor<128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.kernel_lse"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Channels are tiled by 2 with 4 channels per group: each tile reads one
// group of b and c, and its rows of A, D_skip and delta_bias.
// CHECK-DAG: #[[$CH2:.*]] = affine_map<(d0) -> (d0 * 2)>
// CHECK-DAG: #[[$GRP2:.*]] = affine_map<(d0) -> (d0 floordiv 2)>
// CHECK-LABEL: func.func @selective_scan
// CHECK-SAME: (%[[U:[a-z0-9]+]]: {{[^,]*}}, %[[DT:[a-z0-9]+]]: {{[^,]*}}, %[[A:[a-z0-9]+]]: {{[^,]*}}, %[[BB:[a-z0-9]+]]: {{[^,]*}}, %[[CC:[a-z0-9]+]]: {{[^,]*}}, %[[DS:[a-z0-9]+]]: {{[^,]*}}, %[[Z:[a-z0-9]+]]: {{[^,]*}}, %[[DB:[a-z0-9]+]]: {{[^,]*}}, %[[H:[a-z0-9]+]]: {{[^,)]*}})
// CHECK: scf.forall (%[[B:.*]], %[[D:.*]]) in (2, 4) shared_outs(%[[Y:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK-DAG:   %[[D0:.*]] = affine.apply #[[$CH2]](%[[D]])
// CHECK-DAG:   %[[G0:.*]] = affine.apply #[[$GRP2]](%[[D]])
// CHECK-DAG:   %[[U_T:.*]] = tensor.extract_slice %[[U]][%[[B]], 0, %[[D0]]] [1, 100, 2] [1, 1, 1]
// CHECK-DAG:   %[[DT_T:.*]] = tensor.extract_slice %[[DT]][%[[B]], 0, %[[D0]]] [1, 100, 2] [1, 1, 1]
// CHECK-DAG:   %[[A_T:.*]] = tensor.extract_slice %[[A]][%[[D0]], 0] [2, 16] [1, 1]
// CHECK-DAG:   %[[B_T:.*]] = tensor.extract_slice %[[BB]][%[[B]], 0, %[[G0]], 0] [1, 100, 1, 16] [1, 1, 1, 1]
// CHECK-DAG:   %[[C_T:.*]] = tensor.extract_slice %[[CC]][%[[B]], 0, %[[G0]], 0] [1, 100, 1, 16] [1, 1, 1, 1]
// CHECK-DAG:   %[[DS_T:.*]] = tensor.extract_slice %[[DS]][%[[D0]]] [2] [1]
// CHECK-DAG:   %[[Z_T:.*]] = tensor.extract_slice %[[Z]][%[[B]], 0, %[[D0]]] [1, 100, 2] [1, 1, 1]
// CHECK-DAG:   %[[DB_T:.*]] = tensor.extract_slice %[[DB]][%[[D0]]] [2] [1]
// CHECK-DAG:   %[[H_T:.*]] = tensor.extract_slice %[[H]][%[[B]], %[[D0]], 0] [1, 2, 16] [1, 1, 1]
// CHECK-DAG:   %[[Y_T:.*]] = tensor.extract_slice %[[Y]][%[[B]], 0, %[[D0]]] [1, 100, 2] [1, 1, 1]
// CHECK-DAG:   %[[S_T:.*]] = tensor.extract_slice %[[S]][%[[B]], %[[D0]], 0] [1, 2, 16] [1, 1, 1]
// CHECK:       mixer.selective_scan delta_softplus ins(%[[U_T]], %[[DT_T]], %[[A_T]], %[[B_T]], %[[C_T]] : tensor<1x100x2xf32>, tensor<1x100x2xf32>, tensor<2x16xf32>, tensor<1x100x1x16xf32>, tensor<1x100x1x16xf32>)
// CHECK-SAME:    D_skip(%[[DS_T]] : tensor<2xf32>) z(%[[Z_T]] : tensor<1x100x2xf32>) delta_bias(%[[DB_T]] : tensor<2xf32>) init(%[[H_T]] : tensor<1x2x16xf32>)
// CHECK-SAME:    outs(%[[Y_T]], %[[S_T]] : tensor<1x100x2xf32>, tensor<1x2x16xf32>)
// CHECK:       scf.forall.in_parallel
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[Y]][%[[B]], 0, %[[D0]]] [1, 100, 2]
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[B]], %[[D0]], 0] [1, 2, 16]
func.func @selective_scan(%u: tensor<2x100x8xf32>, %dt: tensor<2x100x8xf32>, %A: tensor<8x16xf32>, %b: tensor<2x100x2x16xf32>, %c: tensor<2x100x2x16xf32>, %d: tensor<8xf32>, %z: tensor<2x100x8xf32>, %db: tensor<8xf32>, %h: tensor<2x8x16xf32>) -> (tensor<2x100x8xf32>, tensor<2x8x16xf32>) {
  %y0 = tensor.empty() : tensor<2x100x8xf32>
  %s0 = tensor.empty() : tensor<2x8x16xf32>
  %y, %s = mixer.selective_scan delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x100x8xf32>, tensor<2x100x8xf32>, tensor<8x16xf32>, tensor<2x100x2x16xf32>, tensor<2x100x2x16xf32>) D_skip(%d : tensor<8xf32>) z(%z : tensor<2x100x8xf32>) delta_bias(%db : tensor<8xf32>) init(%h : tensor<2x8x16xf32>) outs(%y0, %s0 : tensor<2x100x8xf32>, tensor<2x8x16xf32>) -> tensor<2x100x8xf32>, tensor<2x8x16xf32>
  return %y, %s : tensor<2x100x8xf32>, tensor<2x8x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.selective_scan"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Channels only (batch untiled), by 4 with 2 channels per group: each tile
// reads two whole groups. L is dynamic.
// CHECK-DAG: #[[$CH4:.*]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-DAG: #[[$GRP4:.*]] = affine_map<(d0) -> (d0 * 2)>
// CHECK-LABEL: func.func @selective_scan_whole_groups
// CHECK-SAME: (%[[U:[a-z0-9]+]]: {{[^,]*}}, %[[DT:[a-z0-9]+]]: {{[^,]*}}, %[[A:[a-z0-9]+]]: {{[^,]*}}, %[[BB:[a-z0-9]+]]: {{[^,]*}}, %[[CC:[a-z0-9]+]]: {{[^,]*}},
// CHECK: scf.forall (%[[D:.*]]) in (2) shared_outs(%[[Y:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK-DAG:   %[[D0:.*]] = affine.apply #[[$CH4]](%[[D]])
// CHECK-DAG:   %[[G0:.*]] = affine.apply #[[$GRP4]](%[[D]])
// CHECK-DAG:   tensor.extract_slice %[[U]][0, 0, %[[D0]]] [2, %{{.*}}, 4] [1, 1, 1] : tensor<2x?x8xf32> to tensor<2x?x4xf32>
// CHECK-DAG:   tensor.extract_slice %[[DT]][0, 0, %[[D0]]] [2, %{{.*}}, 4] [1, 1, 1] : tensor<2x?x8xf32> to tensor<2x?x4xf32>
// CHECK-DAG:   tensor.extract_slice %[[A]][%[[D0]], 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
// CHECK-DAG:   tensor.extract_slice %[[BB]][0, 0, %[[G0]], 0] [2, %{{.*}}, 2, 16] [1, 1, 1, 1] : tensor<2x?x4x16xf32> to tensor<2x?x2x16xf32>
// CHECK-DAG:   tensor.extract_slice %[[CC]][0, 0, %[[G0]], 0] [2, %{{.*}}, 2, 16] [1, 1, 1, 1] : tensor<2x?x4x16xf32> to tensor<2x?x2x16xf32>
// CHECK:       mixer.selective_scan ins({{.*}} : tensor<2x?x4xf32>, tensor<2x?x4xf32>, tensor<4x16xf32>, tensor<2x?x2x16xf32>, tensor<2x?x2x16xf32>) outs({{.*}} : tensor<2x?x4xf32>, tensor<2x4x16xf32>)
// CHECK:       scf.forall.in_parallel
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[Y]][0, 0, %[[D0]]] [2, %{{.*}}, 4]
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[S]][0, %[[D0]], 0] [2, 4, 16]
func.func @selective_scan_whole_groups(%u: tensor<2x?x8xf32>, %dt: tensor<2x?x8xf32>, %A: tensor<8x16xf32>, %b: tensor<2x?x4x16xf32>, %c: tensor<2x?x4x16xf32>, %y0: tensor<2x?x8xf32>, %s0: tensor<2x8x16xf32>) -> (tensor<2x?x8xf32>, tensor<2x8x16xf32>) {
  %y, %s = mixer.selective_scan ins(%u, %dt, %A, %b, %c : tensor<2x?x8xf32>, tensor<2x?x8xf32>, tensor<8x16xf32>, tensor<2x?x4x16xf32>, tensor<2x?x4x16xf32>) outs(%y0, %s0 : tensor<2x?x8xf32>, tensor<2x8x16xf32>) -> tensor<2x?x8xf32>, tensor<2x8x16xf32>
  return %y, %s : tensor<2x?x8xf32>, tensor<2x8x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.selective_scan"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Batch, heads and state columns (Dv) are tiled; q and k keep all of Dk.
// CHECK-DAG: #[[$LA_H:.*]] = affine_map<(d0) -> (d0 * 2)>
// CHECK-DAG: #[[$LA_DV:.*]] = affine_map<(d0) -> (d0 * 16)>
// CHECK-LABEL: func.func @linear_attention
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: {{[^,]*}}, %[[K:[a-z0-9]+]]: {{[^,]*}}, %[[V:[a-z0-9]+]]: {{[^,]*}}, %[[LD:[a-z0-9]+]]: {{[^,]*}}, %[[H:[a-z0-9]+]]: {{[^,)]*}})
// CHECK: scf.forall (%[[B:.*]], %[[HD:.*]], %[[DV:.*]]) in (2, 4, 2) shared_outs(%[[O:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK-DAG:   %[[H0:.*]] = affine.apply #[[$LA_H]](%[[HD]])
// CHECK-DAG:   %[[DV0:.*]] = affine.apply #[[$LA_DV]](%[[DV]])
// CHECK-DAG:   %[[Q_T:.*]] = tensor.extract_slice %[[Q]][%[[B]], 0, %[[H0]], 0] [1, 100, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:   %[[K_T:.*]] = tensor.extract_slice %[[K]][%[[B]], 0, %[[H0]], 0] [1, 100, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:   %[[V_T:.*]] = tensor.extract_slice %[[V]][%[[B]], 0, %[[H0]], %[[DV0]]] [1, 100, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:   %[[LD_T:.*]] = tensor.extract_slice %[[LD]][%[[B]], 0, %[[H0]]] [1, 100, 2] [1, 1, 1]
// CHECK-DAG:   %[[H_T:.*]] = tensor.extract_slice %[[H]][%[[B]], %[[H0]], 0, %[[DV0]]] [1, 2, 16, 16] [1, 1, 1, 1]
// CHECK-DAG:   %[[O_T:.*]] = tensor.extract_slice %[[O]][%[[B]], 0, %[[H0]], %[[DV0]]] [1, 100, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:   %[[S_T:.*]] = tensor.extract_slice %[[S]][%[[B]], %[[H0]], 0, %[[DV0]]] [1, 2, 16, 16] [1, 1, 1, 1]
// CHECK:       mixer.linear_attention chunk_size(64) window(4) scale(2.500000e-01) ins(%[[Q_T]], %[[K_T]], %[[V_T]] : tensor<1x100x2x16xf32>, tensor<1x100x2x16xf32>, tensor<1x100x2x16xf32>)
// CHECK-SAME:    log_decay(%[[LD_T]] : tensor<1x100x2xf32>) init(%[[H_T]] : tensor<1x2x16x16xf32>) outs(%[[O_T]], %[[S_T]] : tensor<1x100x2x16xf32>, tensor<1x2x16x16xf32>)
// CHECK:       scf.forall.in_parallel
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[B]], 0, %[[H0]], %[[DV0]]] [1, 100, 2, 16]
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[B]], %[[H0]], 0, %[[DV0]]] [1, 2, 16, 16]
func.func @linear_attention(%q: tensor<2x100x8x16xf32>, %k: tensor<2x100x8x16xf32>, %v: tensor<2x100x8x32xf32>, %ld: tensor<2x100x8xf32>, %h: tensor<2x8x16x32xf32>) -> (tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) {
  %o0 = tensor.empty() : tensor<2x100x8x32xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %o, %s = mixer.linear_attention chunk_size(64) window(4) scale(0.25) ins(%q, %k, %v : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>) log_decay(%ld : tensor<2x100x8xf32>) init(%h : tensor<2x8x16x32xf32>) outs(%o0, %s0 : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
  return %o, %s : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.linear_attention"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 2, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Batch, heads and state columns (Dv) are tiled; q and k keep all of Dk.
// CHECK-DAG: #[[$GDR_H:.*]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-DAG: #[[$GDR_DV:.*]] = affine_map<(d0) -> (d0 * 8)>
// CHECK-LABEL: func.func @gated_delta_rule
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: {{[^,]*}}, %[[K:[a-z0-9]+]]: {{[^,]*}}, %[[V:[a-z0-9]+]]: {{[^,]*}}, %[[G:[a-z0-9]+]]: {{[^,]*}}, %[[BETA:[a-z0-9]+]]: {{[^,]*}}, %[[H:[a-z0-9]+]]: {{[^,)]*}})
// CHECK: scf.forall (%[[B:.*]], %[[HD:.*]], %[[DV:.*]]) in (2, 2, 4) shared_outs(%[[O:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK-DAG:   %[[H0:.*]] = affine.apply #[[$GDR_H]](%[[HD]])
// CHECK-DAG:   %[[DV0:.*]] = affine.apply #[[$GDR_DV]](%[[DV]])
// CHECK-DAG:   %[[Q_T:.*]] = tensor.extract_slice %[[Q]][%[[B]], 0, %[[H0]], 0] [1, 100, 4, 16] [1, 1, 1, 1]
// CHECK-DAG:   %[[K_T:.*]] = tensor.extract_slice %[[K]][%[[B]], 0, %[[H0]], 0] [1, 100, 4, 16] [1, 1, 1, 1]
// CHECK-DAG:   %[[V_T:.*]] = tensor.extract_slice %[[V]][%[[B]], 0, %[[H0]], %[[DV0]]] [1, 100, 4, 8] [1, 1, 1, 1]
// CHECK-DAG:   %[[G_T:.*]] = tensor.extract_slice %[[G]][%[[B]], 0, %[[H0]]] [1, 100, 4] [1, 1, 1]
// CHECK-DAG:   %[[BETA_T:.*]] = tensor.extract_slice %[[BETA]][%[[B]], 0, %[[H0]]] [1, 100, 4] [1, 1, 1]
// CHECK-DAG:   %[[H_T:.*]] = tensor.extract_slice %[[H]][%[[B]], %[[H0]], 0, %[[DV0]]] [1, 4, 16, 8] [1, 1, 1, 1]
// CHECK-DAG:   %[[O_T:.*]] = tensor.extract_slice %[[O]][%[[B]], 0, %[[H0]], %[[DV0]]] [1, 100, 4, 8] [1, 1, 1, 1]
// CHECK-DAG:   %[[S_T:.*]] = tensor.extract_slice %[[S]][%[[B]], %[[H0]], 0, %[[DV0]]] [1, 4, 16, 8] [1, 1, 1, 1]
// CHECK:       mixer.gated_delta_rule chunk_size(64) scale(2.500000e-01) ins(%[[Q_T]], %[[K_T]], %[[V_T]], %[[G_T]], %[[BETA_T]] : tensor<1x100x4x16xf32>, tensor<1x100x4x16xf32>, tensor<1x100x4x8xf32>, tensor<1x100x4xf32>, tensor<1x100x4xf32>)
// CHECK-SAME:    init(%[[H_T]] : tensor<1x4x16x8xf32>) outs(%[[O_T]], %[[S_T]] : tensor<1x100x4x8xf32>, tensor<1x4x16x8xf32>)
// CHECK:       scf.forall.in_parallel
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[B]], 0, %[[H0]], %[[DV0]]] [1, 100, 4, 8]
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[B]], %[[H0]], 0, %[[DV0]]] [1, 4, 16, 8]
func.func @gated_delta_rule(%q: tensor<2x100x8x16xf32>, %k: tensor<2x100x8x16xf32>, %v: tensor<2x100x8x32xf32>, %g: tensor<2x100x8xf32>, %beta: tensor<2x100x8xf32>, %h: tensor<2x8x16x32xf32>) -> (tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) {
  %o0 = tensor.empty() : tensor<2x100x8x32xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %o, %s = mixer.gated_delta_rule chunk_size(64) scale(0.25) ins(%q, %k, %v, %g, %beta : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>, tensor<2x100x8xf32>, tensor<2x100x8xf32>) init(%h : tensor<2x8x16x32xf32>) outs(%o0, %s0 : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
  return %o, %s : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.gated_delta_rule"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 4, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// One group (G = 1) serves every channel: a channel tile of any size, here of
// a dynamic D, reads the whole group.
// CHECK-DAG: #[[$CH16:.*]] = affine_map<(d0) -> (d0 * 16)>
// CHECK-LABEL: func.func @selective_scan_one_group
// CHECK-SAME: (%[[U:[a-z0-9]+]]: {{[^,]*}}, %[[A:[a-z0-9]+]]: {{[^,]*}}, %[[BB:[a-z0-9]+]]: {{[^,]*}},
// CHECK: scf.forall (%[[B:.*]], %[[D:.*]]) in (2, %{{.*}}) shared_outs(
// CHECK-DAG:   %[[D0:.*]] = affine.apply #[[$CH16]](%[[D]])
// CHECK-DAG:   tensor.extract_slice %[[U]][%[[B]], 0, %[[D0]]] [1, 100, %{{.*}}] [1, 1, 1] : tensor<2x100x?xf32> to tensor<1x100x?xf32>
// CHECK-DAG:   tensor.extract_slice %[[A]][%[[D0]], 0] [%{{.*}}, 16] [1, 1] : tensor<?x16xf32> to tensor<?x16xf32>
// CHECK-DAG:   tensor.extract_slice %[[BB]][%[[B]], 0, 0, 0] [1, 100, 1, 16] [1, 1, 1, 1] : tensor<2x100x1x16xf32> to tensor<1x100x1x16xf32>
// CHECK:       mixer.selective_scan ins({{.*}} : tensor<1x100x?xf32>, tensor<1x100x?xf32>, tensor<?x16xf32>, tensor<1x100x1x16xf32>, tensor<1x100x1x16xf32>)
func.func @selective_scan_one_group(%u: tensor<2x100x?xf32>, %A: tensor<?x16xf32>, %b: tensor<2x100x1x16xf32>, %y0: tensor<2x100x?xf32>, %s0: tensor<2x?x16xf32>) -> (tensor<2x100x?xf32>, tensor<2x?x16xf32>) {
  %y, %s = mixer.selective_scan ins(%u, %u, %A, %b, %b : tensor<2x100x?xf32>, tensor<2x100x?xf32>, tensor<?x16xf32>, tensor<2x100x1x16xf32>, tensor<2x100x1x16xf32>) outs(%y0, %s0 : tensor<2x100x?xf32>, tensor<2x?x16xf32>) -> tensor<2x100x?xf32>, tensor<2x?x16xf32>
  return %y, %s : tensor<2x100x?xf32>, tensor<2x?x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["mixer.selective_scan"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %m tile_sizes [1, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
