// RUN: mixer-opt %s --mixer-set-threads=threads=2 --mixer-tile-parallel-dims | FileCheck %s

// mixer.ssd is tiled by its TilingInterface into an scf.forall over
// (batch, head block): each iteration runs the scan of one batch entry and a
// block of the heads of one group (the target's scanHeadBlock: here 2 of a
// group's 4, two tiles per group), on slices of the whole sequence and head
// dimension P. The threads are stated (2) so that the blocks do not depend
// on the machine (mixer-tile-parallel-dims-threads.mlir). With G < H (here H = 8, G = 2), B and C are read at group
// h floordiv (H / G).

// CHECK-DAG: #[[$GROUP4:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-LABEL: func.func @ssd_grouped
// CHECK-SAME: (%[[X:[^:]*]]: tensor<2x100x8x16xf32>, %[[LA:[^:]*]]: tensor<2x100x8xf32>, %[[B:[^:]*]]: tensor<2x100x2x32xf32>, %[[C:[^:]*]]: tensor<2x100x2x32xf32>, %[[Y0:[^:]*]]: tensor<2x100x8x16xf32>, %[[S0:[^:]*]]: tensor<2x8x16x32xf32>)
// CHECK:       %[[R:.*]]:2 = scf.forall (%[[I:.*]], %[[H:.*]]) = (0, 0) to (2, 8) step (1, 2) shared_outs(%[[Y:.*]] = %[[Y0]], %[[S:.*]] = %[[S0]])
// CHECK:         %[[G:.*]] = affine.apply #[[$GROUP4]](%[[H]])
// CHECK-DAG:     %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I]], 0, %[[H]], 0] [1, 100, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[LAT:.*]] = tensor.extract_slice %[[LA]][%[[I]], 0, %[[H]]] [1, 100, 2] [1, 1, 1]
// CHECK-DAG:     %[[BT:.*]] = tensor.extract_slice %[[B]][%[[I]], 0, %[[G]], 0] [1, 100, 1, 32] [1, 1, 1, 1]
// CHECK-DAG:     %[[CT:.*]] = tensor.extract_slice %[[C]][%[[I]], 0, %[[G]], 0] [1, 100, 1, 32] [1, 1, 1, 1]
// CHECK-DAG:     %[[YT:.*]] = tensor.extract_slice %[[Y]][%[[I]], 0, %[[H]], 0] [1, 100, 2, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[ST:.*]] = tensor.extract_slice %[[S]][%[[I]], %[[H]], 0, 0] [1, 2, 16, 32] [1, 1, 1, 1]
// CHECK:         %[[TY:.*]], %[[TS:.*]] = mixer.ssd chunk_size(64) ins(%[[XT]], %[[LAT]], %[[BT]], %[[CT]] : tensor<1x100x2x16xf32>, tensor<1x100x2xf32>, tensor<1x100x1x32xf32>, tensor<1x100x1x32xf32>) outs(%[[YT]], %[[ST]] : tensor<1x100x2x16xf32>, tensor<1x2x16x32xf32>)
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice %[[TY]] into %[[Y]][%[[I]], 0, %[[H]], 0] [1, 100, 2, 16] [1, 1, 1, 1]
// CHECK-NEXT:      tensor.parallel_insert_slice %[[TS]] into %[[S]][%[[I]], %[[H]], 0, 0] [1, 2, 16, 32] [1, 1, 1, 1]
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
// CHECK:       return
func.func @untiled_ops(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x100xf32>, %gs: tensor<4xi64>, %o: tensor<64x100xf32>) -> tensor<64x100xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x100xf32>, tensor<4xi64>) outs(%o : tensor<64x100xf32>) -> tensor<64x100xf32>
  return %out : tensor<64x100xf32>
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

// -----

// mixer.grouped_matmul is tiled over its output columns: the largest block
// of at most 256 that splits N into an even number of tiles (512 -> 2 x 256,
// 768 -> 6 x 128), so that the threads share the columns evenly. Every tile
// reads all rows and all group sizes.

// CHECK-LABEL: func.func @grouped_matmul_column_blocks
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<?x64xf32>, %[[RHS:[^:]*]]: tensor<8x64x512xf32>, %[[GS:[^:]*]]: tensor<8xi64>, %[[O:[^:]*]]: tensor<?x512xf32>
// CHECK:         scf.forall (%[[J:.*]]) = (0) to (512) step (256) shared_outs(%[[OS:.*]] = %[[O]])
// CHECK:           %[[W:.*]] = tensor.extract_slice %[[RHS]][0, 0, %[[J]]] [8, 64, 256] [1, 1, 1] : tensor<8x64x512xf32> to tensor<8x64x256xf32>
// CHECK:           %[[OT:.*]] = tensor.extract_slice %[[OS]][0, %[[J]]] [%{{.*}}, 256] [1, 1] : tensor<?x512xf32> to tensor<?x256xf32>
// CHECK:           %[[R:.*]] = mixer.grouped_matmul ins(%[[LHS]], %[[W]], %[[GS]] : tensor<?x64xf32>, tensor<8x64x256xf32>, tensor<8xi64>) outs(%[[OT]] : tensor<?x256xf32>)
// CHECK:           tensor.parallel_insert_slice %[[R]] into %[[OS]][0, %[[J]]] [%{{.*}}, 256] [1, 1]
// CHECK:         scf.forall (%{{.*}}) = (0) to (768) step (128)
// CHECK:           mixer.grouped_matmul ins(%{{.*}} : tensor<?x64xf32>, tensor<8x64x128xf32>, tensor<8xi32>) outs(%{{.*}} : tensor<?x128xf32>)
func.func @grouped_matmul_column_blocks(%lhs: tensor<?x64xf32>, %rhs: tensor<8x64x512xf32>, %gs: tensor<8xi64>, %o: tensor<?x512xf32>, %rhs2: tensor<8x64x768xf32>, %gs2: tensor<8xi32>, %o2: tensor<?x768xf32>) -> (tensor<?x512xf32>, tensor<?x768xf32>) {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x64xf32>, tensor<8x64x512xf32>, tensor<8xi64>) outs(%o : tensor<?x512xf32>) -> tensor<?x512xf32>
  %out2 = mixer.grouped_matmul ins(%lhs, %rhs2, %gs2 : tensor<?x64xf32>, tensor<8x64x768xf32>, tensor<8xi32>) outs(%o2 : tensor<?x768xf32>) -> tensor<?x768xf32>
  return %out, %out2 : tensor<?x512xf32>, tensor<?x768xf32>
}

// -----

// mixer.linear_attention: one batch entry and the target's block of heads per
// tile (3 heads divide into no block of 2: one head each), the whole value dim;
// the optional log_decay and init are sliced like the other operands.
// CHECK-LABEL: func.func @linear_attention_tiles
// CHECK-SAME: (%[[Q:[^:]*]]: tensor<2x50x3x16xf32>, %[[K:[^:]*]]: tensor<2x50x3x16xf32>, %[[V:[^:]*]]: tensor<2x50x3x8xf32>, %[[LD:[^:]*]]: tensor<2x50x3xf32>, %[[INIT:[^:]*]]: tensor<2x3x16x8xf32>
// CHECK:       scf.forall (%[[I:.*]], %[[H:.*]]) in (2, 3) shared_outs(%[[O:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK-DAG:     %[[QT:.*]] = tensor.extract_slice %[[Q]][%[[I]], 0, %[[H]], 0] [1, 50, 1, 16] [1, 1, 1, 1]
// CHECK-DAG:     %[[VT:.*]] = tensor.extract_slice %[[V]][%[[I]], 0, %[[H]], 0] [1, 50, 1, 8] [1, 1, 1, 1]
// CHECK-DAG:     %[[LDT:.*]] = tensor.extract_slice %[[LD]][%[[I]], 0, %[[H]]] [1, 50, 1] [1, 1, 1]
// CHECK-DAG:     %[[IT:.*]] = tensor.extract_slice %[[INIT]][%[[I]], %[[H]], 0, 0] [1, 1, 16, 8] [1, 1, 1, 1]
// CHECK:         mixer.linear_attention chunk_size(16) window(4) scale(2.500000e-01) ins(%[[QT]], %{{.*}}, %[[VT]] : tensor<1x50x1x16xf32>, tensor<1x50x1x16xf32>, tensor<1x50x1x8xf32>) log_decay(%[[LDT]] : tensor<1x50x1xf32>) init(%[[IT]] : tensor<1x1x16x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x50x1x8xf32>, tensor<1x1x16x8xf32>)
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[I]], 0, %[[H]], 0] [1, 50, 1, 8]
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[I]], %[[H]], 0, 0] [1, 1, 16, 8]
func.func @linear_attention_tiles(%q: tensor<2x50x3x16xf32>, %k: tensor<2x50x3x16xf32>, %v: tensor<2x50x3x8xf32>, %ld: tensor<2x50x3xf32>, %h: tensor<2x3x16x8xf32>, %o0: tensor<2x50x3x8xf32>, %s0: tensor<2x3x16x8xf32>) -> (tensor<2x50x3x8xf32>, tensor<2x3x16x8xf32>) {
  %o, %s = mixer.linear_attention chunk_size(16) window(4) scale(0.25) ins(%q, %k, %v : tensor<2x50x3x16xf32>, tensor<2x50x3x16xf32>, tensor<2x50x3x8xf32>) log_decay(%ld : tensor<2x50x3xf32>) init(%h : tensor<2x3x16x8xf32>) outs(%o0, %s0 : tensor<2x50x3x8xf32>, tensor<2x3x16x8xf32>) -> tensor<2x50x3x8xf32>, tensor<2x3x16x8xf32>
  return %o, %s : tensor<2x50x3x8xf32>, tensor<2x3x16x8xf32>
}

// -----

// mixer.grouped_swiglu is tiled over F, both weights by the same column
// block (F = 2816 = 22 x 128: an even count; 256 would give 11).

// CHECK-LABEL: func.func @grouped_swiglu_column_blocks
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?x64xf32>, %[[WG:[^:]*]]: tensor<8x64x2816xf32>, %[[WU:[^:]*]]: tensor<8x64x2816xf32>, %[[GS:[^:]*]]: tensor<8xi32>, %[[O:[^:]*]]: tensor<?x2816xf32>
// CHECK:         scf.forall (%[[J:.*]]) = (0) to (2816) step (128) shared_outs(%[[OS:.*]] = %[[O]])
// CHECK-DAG:       %[[G:.*]] = tensor.extract_slice %[[WG]][0, 0, %[[J]]] [8, 64, 128] [1, 1, 1]
// CHECK-DAG:       %[[U:.*]] = tensor.extract_slice %[[WU]][0, 0, %[[J]]] [8, 64, 128] [1, 1, 1]
// CHECK:           mixer.grouped_swiglu ins(%[[X]], %[[G]], %[[U]], %[[GS]] : tensor<?x64xf32>, tensor<8x64x128xf32>, tensor<8x64x128xf32>, tensor<8xi32>) outs(%{{.*}} : tensor<?x128xf32>)
func.func @grouped_swiglu_column_blocks(%x: tensor<?x64xf32>, %wg: tensor<8x64x2816xf32>, %wu: tensor<8x64x2816xf32>, %gs: tensor<8xi32>, %o: tensor<?x2816xf32>) -> tensor<?x2816xf32> {
  %out = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<?x64xf32>, tensor<8x64x2816xf32>, tensor<8x64x2816xf32>, tensor<8xi32>) outs(%o : tensor<?x2816xf32>) -> tensor<?x2816xf32>
  return %out : tensor<?x2816xf32>
}

// -----

// mixer.selective_scan: one (batch, channel block) per tile. With D = 96
// channels in G = 2 groups (48 per group) the block is 16 channels (the
// largest power of two up to 64 dividing 48), so a tile reads the one group
// d floordiv 48 of b and c, and the rows of A, D_skip and delta_bias of its
// channels.
// CHECK-LABEL: func.func @selective_scan_tiles
// CHECK-SAME: (%[[U:[^:]*]]: tensor<2x30x96xf32>, %[[DT:[^:]*]]: tensor<2x30x96xf32>, %[[A:[^:]*]]: tensor<96x4xf32>, %[[B:[^:]*]]: tensor<2x30x2x4xf32>, %[[C:[^:]*]]: tensor<2x30x2x4xf32>, %[[D:[^:]*]]: tensor<96xf32>, %[[Z:[^:]*]]: tensor<2x30x96xf32>, %[[DB:[^:]*]]: tensor<96xf32>, %[[H:[^:]*]]: tensor<2x96x4xf32>
// CHECK:       scf.forall (%[[I:.*]], %[[CH:.*]]) = (0, 0) to (2, 96) step (1, 16) shared_outs(%[[Y:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK-DAG:     %[[G:.*]] = affine.apply #{{.*}}(%[[CH]])
// CHECK-DAG:     %[[UT:.*]] = tensor.extract_slice %[[U]][%[[I]], 0, %[[CH]]] [1, 30, 16] [1, 1, 1]
// CHECK-DAG:     %[[AT:.*]] = tensor.extract_slice %[[A]][%[[CH]], 0] [16, 4] [1, 1]
// CHECK-DAG:     %[[BT:.*]] = tensor.extract_slice %[[B]][%[[I]], 0, %[[G]], 0] [1, 30, 1, 4] [1, 1, 1, 1]
// CHECK-DAG:     %[[DT2:.*]] = tensor.extract_slice %[[D]][%[[CH]]] [16] [1]
// CHECK-DAG:     %[[HT:.*]] = tensor.extract_slice %[[H]][%[[I]], %[[CH]], 0] [1, 16, 4] [1, 1, 1]
// CHECK:         mixer.selective_scan delta_softplus ins(%[[UT]], %{{.*}}, %[[AT]], %[[BT]], %{{.*}} : tensor<1x30x16xf32>, tensor<1x30x16xf32>, tensor<16x4xf32>, tensor<1x30x1x4xf32>, tensor<1x30x1x4xf32>) D_skip(%[[DT2]] : tensor<16xf32>) z(%{{.*}} : tensor<1x30x16xf32>) delta_bias(%{{.*}} : tensor<16xf32>) init(%[[HT]] : tensor<1x16x4xf32>)
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.*}} into %[[Y]][%[[I]], 0, %[[CH]]] [1, 30, 16]
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[I]], %[[CH]], 0] [1, 16, 4]
func.func @selective_scan_tiles(%u: tensor<2x30x96xf32>, %dt: tensor<2x30x96xf32>, %A: tensor<96x4xf32>, %b: tensor<2x30x2x4xf32>, %c: tensor<2x30x2x4xf32>, %d: tensor<96xf32>, %z: tensor<2x30x96xf32>, %db: tensor<96xf32>, %h: tensor<2x96x4xf32>, %y0: tensor<2x30x96xf32>, %s0: tensor<2x96x4xf32>) -> (tensor<2x30x96xf32>, tensor<2x96x4xf32>) {
  %y, %s = mixer.selective_scan delta_softplus
      ins(%u, %dt, %A, %b, %c : tensor<2x30x96xf32>, tensor<2x30x96xf32>, tensor<96x4xf32>, tensor<2x30x2x4xf32>, tensor<2x30x2x4xf32>)
      D_skip(%d : tensor<96xf32>) z(%z : tensor<2x30x96xf32>) delta_bias(%db : tensor<96xf32>) init(%h : tensor<2x96x4xf32>)
      outs(%y0, %s0 : tensor<2x30x96xf32>, tensor<2x96x4xf32>) -> tensor<2x30x96xf32>, tensor<2x96x4xf32>
  return %y, %s : tensor<2x30x96xf32>, tensor<2x96x4xf32>
}

// -----

// The router is tiled over blocks of row-block (64) tokens; dispatch (a
// global sort) and the combine (a gather over tokens through the inverse
// permutation, parallel in its lowering) stay whole.

// CHECK-LABEL: func.func @routing_tiles
// CHECK:         scf.forall (%[[T:.*]]) = (0) to (%{{.*}}) step (64)
// CHECK:           mixer.topk_router k(2) normalize ins(%{{.*}} : tensor<?x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<?x2xf32>, tensor<?x2xi32>)
// CHECK:         scf.forall.in_parallel
// CHECK-NOT:     scf.forall (
// CHECK:         mixer.moe_dispatch num_experts(8)
// CHECK-NOT:     scf.forall (
// CHECK:         mixer.moe_combine ins(%{{.*}} : tensor<256x512xf32>, tensor<256xi32>, tensor<128x2xf32>) outs(%{{.*}} : tensor<128x512xf32>)
func.func @routing_tiles(%l: tensor<?x8xf32>, %w0: tensor<?x2xf32>, %i0: tensor<?x2xi32>, %x: tensor<128x64xf32>, %ids: tensor<128x2xi32>, %s0: tensor<256x64xf32>, %g0: tensor<8xi64>, %p0: tensor<256xi32>, %eo: tensor<256x512xf32>, %w: tensor<128x2xf32>, %o: tensor<128x512xf32>) -> (tensor<?x2xf32>, tensor<?x2xi32>, tensor<256x64xf32>, tensor<8xi64>, tensor<256xi32>, tensor<128x512xf32>) {
  %rw, %ri = mixer.topk_router k(2) normalize ins(%l : tensor<?x8xf32>) outs(%w0, %i0 : tensor<?x2xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>, tensor<?x2xi32>
  %s, %g, %p = mixer.moe_dispatch num_experts(8) ins(%x, %ids : tensor<128x64xf32>, tensor<128x2xi32>) outs(%s0, %g0, %p0 : tensor<256x64xf32>, tensor<8xi64>, tensor<256xi32>) -> tensor<256x64xf32>, tensor<8xi64>, tensor<256xi32>
  %y = mixer.moe_combine ins(%eo, %p0, %w : tensor<256x512xf32>, tensor<256xi32>, tensor<128x2xf32>) outs(%o : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %rw, %ri, %s, %g, %p, %y : tensor<?x2xf32>, tensor<?x2xi32>, tensor<256x64xf32>, tensor<8xi64>, tensor<256xi32>, tensor<128x512xf32>
}


// kernel_lse: one block of row-block = 64 rows per tile (the last of the
// 100 rows a partial tile of min(64, 100 - i) rows); y and g stay whole.

// CHECK-LABEL: func.func @kernel_lse_rows
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<100x3xf32>, %[[Y:[^:]*]]: tensor<50x3xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[G:[^:]*]]: tensor<50xf32>, %[[O:[^:]*]]: tensor<100xf32>)
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (100) step (64) shared_outs(%[[OUT:.*]] = %[[O]])
// CHECK:           %[[N:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK:           %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [%[[N]], 3] [1, 1]
// CHECK:           %[[OT:.*]] = tensor.extract_slice %[[OUT]][%[[I]]] [%[[N]]] [1]
// CHECK:           %[[R:.*]] = mixer.kernel_lse kernel(sqeuclidean) ins(%[[XT]], %[[Y]], %[[EPS]] : tensor<?x3xf32>, tensor<50x3xf32>, tensor<f32>) g(%[[G]] : tensor<50xf32>) outs(%[[OT]] : tensor<?xf32>)
// CHECK:           tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[I]]] [%[[N]]] [1]
func.func @kernel_lse_rows(%x: tensor<100x3xf32>, %y: tensor<50x3xf32>, %eps: tensor<f32>, %g: tensor<50xf32>, %o: tensor<100xf32>) -> tensor<100xf32> {
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<100x3xf32>, tensor<50x3xf32>, tensor<f32>) g(%g : tensor<50xf32>) outs(%o : tensor<100xf32>) -> tensor<100xf32>
  return %r : tensor<100xf32>
}

// Batched kernel_lse: tiles of (1 batch, 64 rows), y sliced by batch.

// CHECK-LABEL: func.func @kernel_lse_batched_rows
// CHECK:         scf.forall (%[[B:.*]], %[[I:.*]]) = (0, 0) to (2, 128) step (1, 64)
// CHECK:           mixer.kernel_lse kernel(gaussian) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x64x3xf32>, tensor<1x50x3xf32>, tensor<f32>) outs(%{{.*}} : tensor<1x64xf32>)
func.func @kernel_lse_batched_rows(%x: tensor<2x128x3xf32>, %y: tensor<2x50x3xf32>, %eps: tensor<f32>, %o: tensor<2x128xf32>) -> tensor<2x128xf32> {
  %r = mixer.kernel_lse kernel(gaussian) ins(%x, %y, %eps : tensor<2x128x3xf32>, tensor<2x50x3xf32>, tensor<f32>) outs(%o : tensor<2x128xf32>) -> tensor<2x128xf32>
  return %r : tensor<2x128xf32>
}

// transport_cost: blocks of 64 rows of x, log_u and out per tile; y and
// log_v stay whole.

// CHECK-LABEL: func.func @transport_cost_rows
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<100x3xf32>, %[[Y:[^:]*]]: tensor<50x3xf32>, %[[U:[^:]*]]: tensor<100xf32>, %[[V:[^:]*]]: tensor<50xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<100xf32>)
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (100) step (64) shared_outs(%[[OUT:.*]] = %[[O]])
// CHECK:           %[[N:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK-DAG:       %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [%[[N]], 3] [1, 1]
// CHECK-DAG:       %[[UT:.*]] = tensor.extract_slice %[[U]][%[[I]]] [%[[N]]] [1]
// CHECK-DAG:       %[[OT:.*]] = tensor.extract_slice %[[OUT]][%[[I]]] [%[[N]]] [1]
// CHECK:           %[[R:.*]] = mixer.transport_cost cost(gaussian) ins(%[[XT]], %[[Y]], %[[UT]], %[[V]], %[[EPS]] : tensor<?x3xf32>, tensor<50x3xf32>, tensor<?xf32>, tensor<50xf32>, tensor<f32>) outs(%[[OT]] : tensor<?xf32>)
// CHECK:           tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[I]]] [%[[N]]] [1]
func.func @transport_cost_rows(%x: tensor<100x3xf32>, %y: tensor<50x3xf32>, %u: tensor<100xf32>, %v: tensor<50xf32>, %eps: tensor<f32>, %o: tensor<100xf32>) -> tensor<100xf32> {
  %r = mixer.transport_cost cost(gaussian) ins(%x, %y, %u, %v, %eps : tensor<100x3xf32>, tensor<50x3xf32>, tensor<100xf32>, tensor<50xf32>, tensor<f32>) outs(%o : tensor<100xf32>) -> tensor<100xf32>
  return %r : tensor<100xf32>
}

// kernel_mv: tiles of (1 batch, 64 rows, all C channels); y and v are sliced
// by batch only.

// CHECK-LABEL: func.func @kernel_mv_rows
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x100x3xf32>, %[[Y:[^:]*]]: tensor<2x50x3xf32>, %[[V:[^:]*]]: tensor<2x50x8xf32>, %[[H:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<2x100x8xf32>)
// CHECK:         scf.forall (%[[B:.*]], %[[I:.*]]) = (0, 0) to (2, 100) step (1, 64) shared_outs(%[[OUT:.*]] = %[[O]])
// CHECK:           %[[N:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK-DAG:       %[[XT:.*]] = tensor.extract_slice %[[X]][%[[B]], %[[I]], 0] [1, %[[N]], 3] [1, 1, 1]
// CHECK-DAG:       %[[YT:.*]] = tensor.extract_slice %[[Y]][%[[B]], 0, 0] [1, 50, 3] [1, 1, 1]
// CHECK-DAG:       %[[VT:.*]] = tensor.extract_slice %[[V]][%[[B]], 0, 0] [1, 50, 8] [1, 1, 1]
// CHECK-DAG:       %[[OT:.*]] = tensor.extract_slice %[[OUT]][%[[B]], %[[I]], 0] [1, %[[N]], 8] [1, 1, 1]
// CHECK:           %[[R:.*]] = mixer.kernel_mv kernel(gaussian) ins(%[[XT]], %[[YT]], %[[VT]], %[[H]] : tensor<1x?x3xf32>, tensor<1x50x3xf32>, tensor<1x50x8xf32>, tensor<f32>) outs(%[[OT]] : tensor<1x?x8xf32>)
// CHECK:           tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[B]], %[[I]], 0] [1, %[[N]], 8] [1, 1, 1]
func.func @kernel_mv_rows(%x: tensor<2x100x3xf32>, %y: tensor<2x50x3xf32>, %v: tensor<2x50x8xf32>, %h: tensor<f32>, %o: tensor<2x100x8xf32>) -> tensor<2x100x8xf32> {
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<2x100x3xf32>, tensor<2x50x3xf32>, tensor<2x50x8xf32>, tensor<f32>) outs(%o : tensor<2x100x8xf32>) -> tensor<2x100x8xf32>
  return %r : tensor<2x100x8xf32>
}

// -----

// mixer.gated_delta_rule: one batch entry and the target's block of heads
// per tile (scanHeadBlock: 2 of the 4, leaving 4 tiles for the 2 threads),
// the whole value dim.
// CHECK-LABEL: func.func @gated_delta_rule_tiles
// CHECK-SAME: (%[[Q:[^:]*]]: tensor<2x40x4x8xf32>, %[[K:[^:]*]]: tensor<2x40x4x8xf32>, %[[V:[^:]*]]: tensor<2x40x4x16xf32>, %[[G:[^:]*]]: tensor<2x40x4xf32>, %[[BETA:[^:]*]]: tensor<2x40x4xf32>
// CHECK:       scf.forall (%[[I:.*]], %[[H:.*]]) = (0, 0) to (2, 4) step (1, 2) shared_outs(%[[O:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK-DAG:     %[[GT:.*]] = tensor.extract_slice %[[G]][%[[I]], 0, %[[H]]] [1, 40, 2] [1, 1, 1]
// CHECK-DAG:     %[[BT:.*]] = tensor.extract_slice %[[BETA]][%[[I]], 0, %[[H]]] [1, 40, 2] [1, 1, 1]
// CHECK:         mixer.gated_delta_rule chunk_size(32) ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[GT]], %[[BT]] : tensor<1x40x2x8xf32>, tensor<1x40x2x8xf32>, tensor<1x40x2x16xf32>, tensor<1x40x2xf32>, tensor<1x40x2xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x40x2x16xf32>, tensor<1x2x8x16xf32>)
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[I]], 0, %[[H]], 0] [1, 40, 2, 16]
// CHECK-NEXT:      tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[I]], %[[H]], 0, 0] [1, 2, 8, 16]
func.func @gated_delta_rule_tiles(%q: tensor<2x40x4x8xf32>, %k: tensor<2x40x4x8xf32>, %v: tensor<2x40x4x16xf32>, %g: tensor<2x40x4xf32>, %beta: tensor<2x40x4xf32>, %o0: tensor<2x40x4x16xf32>, %s0: tensor<2x4x8x16xf32>) -> (tensor<2x40x4x16xf32>, tensor<2x4x8x16xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(32) ins(%q, %k, %v, %g, %beta : tensor<2x40x4x8xf32>, tensor<2x40x4x8xf32>, tensor<2x40x4x16xf32>, tensor<2x40x4xf32>, tensor<2x40x4xf32>) outs(%o0, %s0 : tensor<2x40x4x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x40x4x16xf32>, tensor<2x4x8x16xf32>
  return %o, %s : tensor<2x40x4x16xf32>, tensor<2x4x8x16xf32>
}

// A statically empty sequence has no work to spread: the op stays whole
// (its lowering's loops run zero times and return the initial state).
// CHECK-LABEL: func.func @ssd_empty_sequence
// CHECK-NOT:     scf.forall
// CHECK:         mixer.ssd
// CHECK-NEXT:    return
func.func @ssd_empty_sequence(%x: tensor<1x0x2x4xf32>, %la: tensor<1x0x2xf32>, %b: tensor<1x0x1x8xf32>, %c: tensor<1x0x1x8xf32>, %y0: tensor<1x0x2x4xf32>, %s0: tensor<1x2x4x8xf32>) -> (tensor<1x0x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(16)
      ins(%x, %la, %b, %c : tensor<1x0x2x4xf32>, tensor<1x0x2xf32>, tensor<1x0x1x8xf32>, tensor<1x0x1x8xf32>)
      outs(%y0, %s0 : tensor<1x0x2x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x0x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x0x2x4xf32>, tensor<1x2x4x8xf32>
}

// A zero-size dimension (here the sequence length, as the pipeline fuzzer
// generated it) leaves the op untiled: there is nothing to distribute, and
// the tiles' slices at offset 0 of the empty dimension would not verify.

// CHECK-LABEL: func.func @gated_delta_rule_empty_sequence
// CHECK-NOT:     scf.forall
// CHECK:         mixer.gated_delta_rule chunk_size(8) ins(%{{.*}} : tensor<1x0x2x4xf32>
func.func @gated_delta_rule_empty_sequence(%q: tensor<1x0x2x4xf32>, %k: tensor<1x0x2x4xf32>, %v: tensor<1x0x2x4xf32>, %g: tensor<1x0x2xf32>, %beta: tensor<1x0x2xf32>, %o0: tensor<1x0x2x4xf32>, %s0: tensor<1x2x4x4xf32>) -> (tensor<1x0x2x4xf32>, tensor<1x2x4x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(8) ins(%q, %k, %v, %g, %beta : tensor<1x0x2x4xf32>, tensor<1x0x2x4xf32>, tensor<1x0x2x4xf32>, tensor<1x0x2xf32>, tensor<1x0x2xf32>) outs(%o0, %s0 : tensor<1x0x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x0x2x4xf32>, tensor<1x2x4x4xf32>
  return %o, %s : tensor<1x0x2x4xf32>, tensor<1x2x4x4xf32>
}
