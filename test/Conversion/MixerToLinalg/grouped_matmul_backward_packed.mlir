// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s
// RUN: mixer-opt %s --mixer-set-threads=threads=2 --mixer-tile-parallel-dims --convert-mixer-to-linalg | FileCheck %s --check-prefix=TILED

// mixer.grouped_matmul_backward with K and N multiples of the CPU's panel
// width (32 columns, the default target): the packed form.
// dlhs is the forward grouped GEMM of dout with rhs[e]^T: each expert's
// transpose packed into [N, 32] panels (the forward's packing, transposing)
// and multiplied by its rows through the micro-kernel (14-row slabs); then
// drhs, per group, in blocks of rows whose [rows, N] blocks stay in L2
// (672 rows for N = 96 and 1 MiB; a multiple of the vector width, 16, for
// the transpose's square blocks): the dout block packed into [rows, 32]
// panels, the lhs block transposed ([K, rows], the micro-kernel's rows),
// drhs[e] += lhs_block^T dout_block panel by panel, in parallel. The
// [672, 32] panels (84 KiB) do not stay in L1: prefetched 16 rows ahead.

// CHECK-LABEL: func.func @grouped_matmul_backward_packed
// CHECK:         scf.for {{.*}} -> (tensor<?x64xf32>, tensor<2x96x32xf32>, index)
// CHECK:           linalg.transpose ins(%{{.*}} : tensor<32x96xf32>) outs(%{{.*}} : tensor<96x32xf32>)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x96xf32>, tensor<96x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:         scf.for {{.*}} -> (tensor<4x64x96xf32>, index)
// CHECK:           scf.for {{.*}} -> (tensor<64x96xf32>)
// CHECK:             scf.forall (%{{.*}}) in (3) shared_outs(%{{.*}}) -> (tensor<3x672x32xf32>)
// CHECK:               linalg.copy ins(%{{.*}} : tensor<672x32xf32>)
// CHECK:             linalg.transpose ins(%{{.*}} : tensor<672x64xf32>) outs(%{{.*}} : tensor<64x672xf32>)
// CHECK:             scf.forall (%{{.*}}) in (3) shared_outs(%{{.*}}) -> (tensor<64x96xf32>)
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x672xf32>, tensor<672x32xf32>) {{.*}} attrs = {mixer.prefetch_panel_rows = 16 : i64, mixer.register_tile_rows = 14 : i64}

// Split over K across two threads (mixer-tile-parallel-dims), each tile
// takes its panels in order: no scf.forall inside the tile's.
// TILED-LABEL: func.func @grouped_matmul_backward_packed
// TILED:         scf.forall (%{{.*}}) = (0) to (64) step (32) shared_outs({{.*}}) -> (tensor<?x64xf32>, tensor<4x64x96xf32>)
// TILED-NOT:     scf.forall
// TILED:           linalg.transpose ins(%{{.*}} : tensor<32x96xf32>) outs(%{{.*}} : tensor<96x32xf32>)
// TILED-NOT:     scf.forall
// TILED:           linalg.copy ins(%{{.*}} : tensor<672x32xf32>)
// TILED-NOT:     scf.forall
// TILED:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x672xf32>, tensor<672x32xf32>) {{.*}} attrs = {mixer.prefetch_panel_rows = 16 : i64, mixer.register_tile_rows = 14 : i64}
// TILED:         scf.forall.in_parallel
func.func @grouped_matmul_backward_packed(%l: tensor<?x64xf32>, %r: tensor<4x64x96xf32>, %s: tensor<4xi64>, %d: tensor<?x96xf32>, %dl0: tensor<?x64xf32>, %dr0: tensor<4x64x96xf32>) -> (tensor<?x64xf32>, tensor<4x64x96xf32>) {
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<?x64xf32>, tensor<4x64x96xf32>, tensor<4xi64>, tensor<?x96xf32>) outs(%dl0, %dr0 : tensor<?x64xf32>, tensor<4x64x96xf32>) -> tensor<?x64xf32>, tensor<4x64x96xf32>
  return %g#0, %g#1 : tensor<?x64xf32>, tensor<4x64x96xf32>
}

// N = 128: a quarter of L2 holds 512 rows, a multiple of 16 (whole 14-row
// slabs would be 504, whose transpose has no square blocks).
// CHECK-LABEL: func.func @grouped_matmul_backward_packed_block_rows
// CHECK:         scf.for {{.*}} -> (tensor<4x64x128xf32>, index)
// CHECK:           scf.for {{.*}} -> (tensor<64x128xf32>)
// CHECK:             linalg.copy ins(%{{.*}} : tensor<512x32xf32>)
// CHECK:             linalg.transpose ins(%{{.*}} : tensor<512x64xf32>) outs(%{{.*}} : tensor<64x512xf32>)
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x512xf32>, tensor<512x32xf32>)
func.func @grouped_matmul_backward_packed_block_rows(%l: tensor<?x64xf32>, %r: tensor<4x64x128xf32>, %s: tensor<4xi64>, %d: tensor<?x128xf32>, %dl0: tensor<?x64xf32>, %dr0: tensor<4x64x128xf32>) -> (tensor<?x64xf32>, tensor<4x64x128xf32>) {
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<?x64xf32>, tensor<4x64x128xf32>, tensor<4xi64>, tensor<?x128xf32>) outs(%dl0, %dr0 : tensor<?x64xf32>, tensor<4x64x128xf32>) -> tensor<?x64xf32>, tensor<4x64x128xf32>
  return %g#0, %g#1 : tensor<?x64xf32>, tensor<4x64x128xf32>
}
