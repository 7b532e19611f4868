// RUN: mixer-opt %s --mixer-tile-parallel-dims | FileCheck %s

// mixer.ssd is tiled by its TilingInterface into an scf.forall over
// (batch, head): each iteration runs the scan of one (b, h) on slices of one
// batch and one head, the whole sequence and head dimension P. With G < H
// (here H = 8, G = 2), B and C are read at group h floordiv (H / G).

// CHECK-DAG: #[[$GROUP4:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-LABEL: func.func @ssd_grouped
// CHECK-SAME: (%[[X:[^:]*]]: tensor<2x100x8x16xf32>, %[[LA:[^:]*]]: tensor<2x100x8xf32>, %[[B:[^:]*]]: tensor<2x100x2x32xf32>, %[[C:[^:]*]]: tensor<2x100x2x32xf32>, %[[Y0:[^:]*]]: tensor<2x100x8x16xf32>, %[[S0:[^:]*]]: tensor<2x8x16x32xf32>)
// CHECK:       %[[R:.*]]:2 = scf.forall (%[[I:.*]], %[[H:.*]]) in (2, 8) shared_outs(%[[Y:.*]] = %[[Y0]], %[[S:.*]] = %[[S0]])
// CHECK:         %[[G:.*]] = affine.apply #[[$GROUP4]](%[[H]])
// CHECK-DAG:     %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I]], 0, %[[H]], 0] [1, 100, 1, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[LAT:.*]] = tensor.extract_slice %[[LA]][%[[I]], 0, %[[H]]] [1, 100, 1] [1, 1, 1]
// CHECK-DAG:     %[[BT:.*]] = tensor.extract_slice %[[B]][%[[I]], 0, %[[G]], 0] [1, 100, 1, 32] [1, 1, 1, 1]
// CHECK-DAG:     %[[CT:.*]] = tensor.extract_slice %[[C]][%[[I]], 0, %[[G]], 0] [1, 100, 1, 32] [1, 1, 1, 1]
// CHECK-DAG:     %[[YT:.*]] = tensor.extract_slice %[[Y]][%[[I]], 0, %[[H]], 0] [1, 100, 1, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[ST:.*]] = tensor.extract_slice %[[S]][%[[I]], %[[H]], 0, 0] [1, 1, 16, 32] [1, 1, 1, 1]
// CHECK:         %[[TY:.*]], %[[TS:.*]] = mixer.ssd chunk_size(64) ins(%[[XT]], %[[LAT]], %[[BT]], %[[CT]] : tensor<1x100x1x16xf32>, tensor<1x100x1xf32>, tensor<1x100x1x32xf32>, tensor<1x100x1x32xf32>) outs(%[[YT]], %[[ST]] : tensor<1x100x1x16xf32>, tensor<1x1x16x32xf32>)
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice %[[TY]] into %[[Y]][%[[I]], 0, %[[H]], 0] [1, 100, 1, 16] [1, 1, 1, 1]
// CHECK-NEXT:      tensor.parallel_insert_slice %[[TS]] into %[[S]][%[[I]], %[[H]], 0, 0] [1, 1, 16, 32] [1, 1, 1, 1]
// CHECK:       return %[[R]]#0, %[[R]]#1
func.func @ssd_grouped(%x: tensor<2x100x8x16xf32>, %la: tensor<2x100x8xf32>, %b: tensor<2x100x2x32xf32>, %c: tensor<2x100x2x32xf32>, %y0: tensor<2x100x8x16xf32>, %s0: tensor<2x8x16x32xf32>) -> (tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) {
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %c : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>) outs(%y0, %s0 : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
  return %y, %s : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
}

// G = H, an initial state and a dynamic sequence length: the init is sliced
// per (batch, head) like the final state, and the length stays whole.

// CHECK-LABEL: func.func @ssd_init_dynamic_length
// CHECK-SAME: (%[[X:[^:]*]]: tensor<1x?x4x8xf32>, %[[LA:[^:]*]]: tensor<1x?x4xf32>, %[[B:[^:]*]]: tensor<1x?x4x2xf32>, %[[C:[^:]*]]: tensor<1x?x4x2xf32>, %[[INIT:[^:]*]]: tensor<1x4x8x2xf32>
// CHECK:       scf.forall (%[[I:.*]], %[[H:.*]]) in (1, 4) shared_outs(%[[Y:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK-DAG:     %[[L:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<1x?x4x8xf32>
// CHECK-DAG:     %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I]], 0, %[[H]], 0] [1, %[[L]], 1, 8] [1, 1, 1, 1]
// CHECK-DAG:     %[[BT:.*]] = tensor.extract_slice %[[B]][%[[I]], 0, %[[H]], 0] [1, %{{.*}}, 1, 2] [1, 1, 1, 1]
// CHECK-DAG:     %[[IT:.*]] = tensor.extract_slice %[[INIT]][%[[I]], %[[H]], 0, 0] [1, 1, 8, 2] [1, 1, 1, 1]
// CHECK:         mixer.ssd chunk_size(16) ins(%[[XT]], %{{.*}}, %[[BT]], %{{.*}} : tensor<1x?x1x8xf32>, tensor<1x?x1xf32>, tensor<1x?x1x2xf32>, tensor<1x?x1x2xf32>) init(%[[IT]] : tensor<1x1x8x2xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x?x1x8xf32>, tensor<1x1x8x2xf32>)
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.*}} into %[[Y]][%[[I]], 0, %[[H]], 0] [1, %{{.*}}, 1, 8]
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[I]], %[[H]], 0, 0] [1, 1, 8, 2]
func.func @ssd_init_dynamic_length(%x: tensor<1x?x4x8xf32>, %la: tensor<1x?x4xf32>, %b: tensor<1x?x4x2xf32>, %c: tensor<1x?x4x2xf32>, %h: tensor<1x4x8x2xf32>, %y0: tensor<1x?x4x8xf32>, %s0: tensor<1x4x8x2xf32>) -> (tensor<1x?x4x8xf32>, tensor<1x4x8x2xf32>) {
  %y, %s = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<1x?x4x8xf32>, tensor<1x?x4xf32>, tensor<1x?x4x2xf32>, tensor<1x?x4x2xf32>) init(%h : tensor<1x4x8x2xf32>) outs(%y0, %s0 : tensor<1x?x4x8xf32>, tensor<1x4x8x2xf32>) -> tensor<1x?x4x8xf32>, tensor<1x4x8x2xf32>
  return %y, %s : tensor<1x?x4x8xf32>, tensor<1x4x8x2xf32>
}

// Mixer ops without a tiling rule in this pass stay as they are, outside any
// loop.

// CHECK-LABEL: func.func @untiled_ops
// CHECK-NOT:   scf.forall
// CHECK:       mixer.grouped_matmul ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<4x32x100xf32>, tensor<4xi64>) outs(%{{.*}} : tensor<64x100xf32>)
// CHECK-NOT:   scf.forall
// CHECK:       mixer.selective_scan ins({{.*}} : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<64x16xf32>, tensor<2x100x1x16xf32>, tensor<2x100x1x16xf32>) outs({{.*}} : tensor<2x100x64xf32>, tensor<2x64x16xf32>)
// CHECK-NOT:   scf.forall
// CHECK:       return
func.func @untiled_ops(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x100xf32>, %gs: tensor<4xi64>, %o: tensor<64x100xf32>, %u: tensor<2x100x64xf32>, %dt: tensor<2x100x64xf32>, %A: tensor<64x16xf32>, %b: tensor<2x100x1x16xf32>, %c: tensor<2x100x1x16xf32>, %y0: tensor<2x100x64xf32>, %s0: tensor<2x64x16xf32>) -> (tensor<64x100xf32>, tensor<2x100x64xf32>, tensor<2x64x16xf32>) {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x100xf32>, tensor<4xi64>) outs(%o : tensor<64x100xf32>) -> tensor<64x100xf32>
  %y, %s = mixer.selective_scan
      ins(%u, %dt, %A, %b, %c : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<64x16xf32>, tensor<2x100x1x16xf32>, tensor<2x100x1x16xf32>)
      outs(%y0, %s0 : tensor<2x100x64xf32>, tensor<2x64x16xf32>) -> tensor<2x100x64xf32>, tensor<2x64x16xf32>
  return %out, %y, %s : tensor<64x100xf32>, tensor<2x100x64xf32>, tensor<2x64x16xf32>
}

// -----

// An elementwise producer of an operand (dt scaling of x) is fused: each
// tile computes its own slice of it inside the forall.
// CHECK-LABEL: func.func @ssd_fuses_elementwise_producer
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%[[B:.*]], %[[H:.*]]) in (2, 4)
// CHECK:           %[[XS:.*]] = tensor.extract_slice %{{.*}}[%[[B]], 0, %[[H]], 0] [1, 100, 1, 16]
// CHECK:           %[[DTS:.*]] = tensor.extract_slice %{{.*}}[%[[B]], 0, %[[H]]] [1, 100, 1]
// CHECK:           %[[XDT:.*]] = linalg.generic {{.*}} ins(%[[XS]], %[[DTS]] : tensor<1x100x1x16xf32>, tensor<1x100x1xf32>)
// CHECK:             arith.mulf
// CHECK:           mixer.ssd chunk_size(32) ins(%[[XDT]], {{.*}} : tensor<1x100x1x16xf32>,
#x_map = affine_map<(b, l, h, p) -> (b, l, h, p)>
#dt_map = affine_map<(b, l, h, p) -> (b, l, h)>
func.func @ssd_fuses_elementwise_producer(%x: tensor<2x100x4x16xf32>, %dt: tensor<2x100x4xf32>, %la: tensor<2x100x4xf32>, %b: tensor<2x100x2x8xf32>, %c: tensor<2x100x2x8xf32>, %y0: tensor<2x100x4x16xf32>, %s0: tensor<2x4x16x8xf32>) -> (tensor<2x100x4x16xf32>, tensor<2x4x16x8xf32>) {
  %e = tensor.empty() : tensor<2x100x4x16xf32>
  %xdt = linalg.generic {indexing_maps = [#x_map, #dt_map, #x_map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %dt : tensor<2x100x4x16xf32>, tensor<2x100x4xf32>) outs(%e : tensor<2x100x4x16xf32>) {
  ^bb0(%a: f32, %d: f32, %o: f32):
    %m = arith.mulf %a, %d : f32
    linalg.yield %m : f32
  } -> tensor<2x100x4x16xf32>
  %y, %s = mixer.ssd chunk_size(32) ins(%xdt, %la, %b, %c : tensor<2x100x4x16xf32>, tensor<2x100x4xf32>, tensor<2x100x2x8xf32>, tensor<2x100x2x8xf32>) outs(%y0, %s0 : tensor<2x100x4x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x100x4x16xf32>, tensor<2x4x16x8xf32>
  return %y, %s : tensor<2x100x4x16xf32>, tensor<2x4x16x8xf32>
}
