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
