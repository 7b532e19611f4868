// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// mixer.grouped_swiglu_backward with K and F multiples of the CPU's panel
// width (32 columns, the default target): the packed form. Per group, the
// panels of w_gate and w_up (for gate and up) and of their transposes (for
// dx) are packed once, in parallel; the group's rows then go in blocks whose
// [rows, F] cotangents stay in L2 (672 rows for F = 96 and 1 MiB), each in
// three parallel passes over panels through the micro-kernel (contractions
// tagged mixer.register_tile_rows):
//   F panels: gate and up recomputed, dgate and dup written row-major and
//             packed (four shared outputs)
//   K panels: dx[block] = dgate w_gate^T + dup w_up^T
//   F panels: the [K, F] weight-gradient accumulators += x[block]^T dgate,
//             x[block]^T dup, with x[block]^T as the micro-kernel's rows.

// CHECK-LABEL: func.func @grouped_swiglu_backward_packed
// CHECK:         scf.for {{.*}} -> (tensor<?x64xf32>, tensor<2x64x96xf32>, tensor<2x64x96xf32>, index)
// CHECK:           scf.forall (%{{.*}}) in (3) shared_outs(%{{.*}}) -> (tensor<3x64x32xf32>)
// CHECK:             linalg.copy ins(%{{.*}} : tensor<64x32xf32>)
// CHECK:           scf.forall (%{{.*}}) in (3) shared_outs(%{{.*}}) -> (tensor<3x64x32xf32>)
// CHECK:             linalg.copy ins(%{{.*}} : tensor<64x32xf32>)
// CHECK:           scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}}) -> (tensor<2x96x32xf32>)
// CHECK:             linalg.transpose ins(%{{.*}} : tensor<32x96xf32>) outs(%{{.*}} : tensor<96x32xf32>)
// CHECK:           scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}}) -> (tensor<2x96x32xf32>)
// CHECK:             linalg.transpose ins(%{{.*}} : tensor<32x96xf32>) outs(%{{.*}} : tensor<96x32xf32>)
// CHECK:           scf.for {{.*}} -> (tensor<?x64xf32>, tensor<64x96xf32>, tensor<64x96xf32>)
// CHECK:             scf.forall (%{{.*}}) in (3) shared_outs({{.*}}) -> (tensor<672x96xf32>, tensor<672x96xf32>, tensor<3x672x32xf32>, tensor<3x672x32xf32>)
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x64xf32>, tensor<64x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x64xf32>, tensor<64x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:               scf.forall.in_parallel
// CHECK-COUNT-4:         tensor.parallel_insert_slice
// CHECK:             scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}}) -> (tensor<672x64xf32>)
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x96xf32>, tensor<96x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x96xf32>, tensor<96x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:             linalg.transpose ins(%{{.*}} : tensor<672x64xf32>) outs(%{{.*}} : tensor<64x672xf32>)
// CHECK:             scf.forall (%{{.*}}) in (3) shared_outs({{.*}}) -> (tensor<64x96xf32>, tensor<64x96xf32>)
// The cotangent's panels ([672, 32], 84 KiB) do not stay in L1 (48 KiB)
// while the block's slabs sweep them: the micro-kernel prefetches them
// into L1 16 rows ahead. The weights' panels above (8 and 12 KiB) stay.
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x672xf32>, tensor<672x32xf32>) {{.*}} attrs = {mixer.prefetch_panel_rows = 16 : i64, mixer.register_tile_rows = 14 : i64}
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x672xf32>, tensor<672x32xf32>) {{.*}} attrs = {mixer.prefetch_panel_rows = 16 : i64, mixer.register_tile_rows = 14 : i64}
// Rows past the groups: dx is zero.
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x64xf32>)
func.func @grouped_swiglu_backward_packed(%x: tensor<?x64xf32>, %wg: tensor<2x64x96xf32>, %wu: tensor<2x64x96xf32>, %s: tensor<2xi64>, %d: tensor<?x96xf32>, %dx0: tensor<?x64xf32>, %dg0: tensor<2x64x96xf32>, %du0: tensor<2x64x96xf32>) -> (tensor<?x64xf32>, tensor<2x64x96xf32>, tensor<2x64x96xf32>) {
  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : tensor<?x64xf32>, tensor<2x64x96xf32>, tensor<2x64x96xf32>, tensor<2xi64>, tensor<?x96xf32>) outs(%dx0, %dg0, %du0 : tensor<?x64xf32>, tensor<2x64x96xf32>, tensor<2x64x96xf32>) -> tensor<?x64xf32>, tensor<2x64x96xf32>, tensor<2x64x96xf32>
  return %g#0, %g#1, %g#2 : tensor<?x64xf32>, tensor<2x64x96xf32>, tensor<2x64x96xf32>
}

// F = 1024: blocks of 56 rows (their [56, 1024] cotangents in a quarter of
// L2). The panels of the transposed weights ([1024, 32], 128 KiB) stream
// from L2 past every slab of dx's products: prefetched into L1; those of
// the weights ([64, 32]) and of the cotangent ([56, 32]) stay in L1.

// CHECK-LABEL: func.func @grouped_swiglu_backward_wide
// CHECK:             scf.forall (%{{.*}}) in (32) shared_outs({{.*}}) -> (tensor<56x1024xf32>, tensor<56x1024xf32>, tensor<32x56x32xf32>, tensor<32x56x32xf32>)
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x64xf32>, tensor<64x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x64xf32>, tensor<64x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:             scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}}) -> (tensor<56x64xf32>)
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x1024xf32>, tensor<1024x32xf32>) {{.*}} attrs = {mixer.prefetch_panel_rows = 16 : i64, mixer.register_tile_rows = 14 : i64}
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x1024xf32>, tensor<1024x32xf32>) {{.*}} attrs = {mixer.prefetch_panel_rows = 16 : i64, mixer.register_tile_rows = 14 : i64}
// CHECK:             scf.forall (%{{.*}}) in (32) shared_outs({{.*}}) -> (tensor<64x1024xf32>, tensor<64x1024xf32>)
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x56xf32>, tensor<56x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<14x56xf32>, tensor<56x32xf32>) {{.*}} attrs = {mixer.register_tile_rows = 14 : i64}
func.func @grouped_swiglu_backward_wide(%x: tensor<?x64xf32>, %wg: tensor<2x64x1024xf32>, %wu: tensor<2x64x1024xf32>, %s: tensor<2xi64>, %d: tensor<?x1024xf32>, %dx0: tensor<?x64xf32>, %dg0: tensor<2x64x1024xf32>, %du0: tensor<2x64x1024xf32>) -> (tensor<?x64xf32>, tensor<2x64x1024xf32>, tensor<2x64x1024xf32>) {
  %g:3 = mixer.grouped_swiglu_backward ins(%x, %wg, %wu, %s, %d : tensor<?x64xf32>, tensor<2x64x1024xf32>, tensor<2x64x1024xf32>, tensor<2xi64>, tensor<?x1024xf32>) outs(%dx0, %dg0, %du0 : tensor<?x64xf32>, tensor<2x64x1024xf32>, tensor<2x64x1024xf32>) -> tensor<?x64xf32>, tensor<2x64x1024xf32>, tensor<2x64x1024xf32>
  return %g#0, %g#1, %g#2 : tensor<?x64xf32>, tensor<2x64x1024xf32>, tensor<2x64x1024xf32>
}
