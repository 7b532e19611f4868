// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// dD_skip and ddelta_bias sum over a chunk's tokens: the tokens are the
// outer (reduction) dim and the block's channels the inner one, so that
// each token's row of channels adds to a vector of partial sums.
// CHECK-DAG:   #[[$TD:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$D:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @ssb_token_sums
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               linalg.generic {indexing_maps = [#[[$TD]], #[[$TD]], #[[$D]]], iterator_types = ["reduction", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<16x32xf32>) outs(%{{.*}} : tensor<32xf32>)
// CHECK:               arith.mulf
// CHECK:               linalg.generic {indexing_maps = [#[[$TD]], #[[$D]]], iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<16x32xf32>) outs(%{{.*}} : tensor<32xf32>)
func.func @ssb_token_sums(%u: tensor<1x64x32xf32>, %dt: tensor<1x64x32xf32>, %A: tensor<32x16xf32>, %b: tensor<1x64x1x16xf32>, %c: tensor<1x64x1x16xf32>, %d: tensor<32xf32>, %bias: tensor<32xf32>, %dy: tensor<1x64x32xf32>, %g0: tensor<1x64x32xf32>, %g1: tensor<1x64x32xf32>, %g2: tensor<1x32x16xf32>, %g3: tensor<1x64x1x16xf32>, %g4: tensor<1x64x1x16xf32>, %g5: tensor<1x32xf32>, %g7: tensor<1x32xf32>) -> (tensor<1x32xf32>, tensor<1x32xf32>) {
  %r:7 = mixer.selective_scan_backward chunk_size(16) delta_softplus ins(%u, %dt, %A, %b, %c : tensor<1x64x32xf32>, tensor<1x64x32xf32>, tensor<32x16xf32>, tensor<1x64x1x16xf32>, tensor<1x64x1x16xf32>) D_skip(%d : tensor<32xf32>) delta_bias(%bias : tensor<32xf32>) dy(%dy : tensor<1x64x32xf32>) outs(%g0, %g1, %g2, %g3, %g4, %g5, %g7 : tensor<1x64x32xf32>, tensor<1x64x32xf32>, tensor<1x32x16xf32>, tensor<1x64x1x16xf32>, tensor<1x64x1x16xf32>, tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x64x32xf32>, tensor<1x64x32xf32>, tensor<1x32x16xf32>, tensor<1x64x1x16xf32>, tensor<1x64x1x16xf32>, tensor<1x32xf32>, tensor<1x32xf32>
  return %r#5, %r#6 : tensor<1x32xf32>, tensor<1x32xf32>
}
