// RUN: mixer-opt %s --mixer-set-target="cpu=skylake-avx512" --convert-mixer-to-linalg | FileCheck %s --check-prefix=AVX512
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" --convert-mixer-to-linalg | FileCheck %s --check-prefix=AVX2

// A chunk of 8 tokens is one triangular block. With 16 lanes a row of
// either causal product (K K^T, Q K^T) would fill half a vector, so the
// forward forms both in one product K [K; Q]^T [8, 16] over [K^T, Q^T]
// [Dk, 16]: its left half is K K^T (symmetric), its right half (Q K^T)^T,
// which takes the decays' transpose and multiplies U' as a transposed
// left-hand side. With 8 lanes each product fills its vectors alone, and
// they stay two [8, Dk] x [Dk, 8] products.

// AVX512-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// AVX512-DAG:   #[[$KI:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// AVX512-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// AVX512-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// AVX512-LABEL: func.func @gdr_stacked
// AVX512:         %[[DEC:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8xf64>, tensor<8xf64>) outs(%{{.*}} : tensor<8x8xf32>)
// AVX512:         %[[KT:.*]] = linalg.transpose ins(%[[K:.*]] : tensor<8x32xf32>) outs(%{{.*}} : tensor<32x8xf32>)
// AVX512:         %[[KQT0:.*]] = tensor.insert_slice %[[KT]] into %{{.*}}[0, 0] [32, 8] [1, 1] : tensor<32x8xf32> into tensor<32x16xf32>
// AVX512:         %[[QT:.*]] = linalg.transpose ins(%{{.*}} : tensor<8x32xf32>) outs(%{{.*}} : tensor<32x8xf32>)
// AVX512:         %[[KQT:.*]] = tensor.insert_slice %[[QT]] into %[[KQT0]][0, 8] [32, 8] [1, 1] : tensor<32x8xf32> into tensor<32x16xf32>
// AVX512:         %[[P:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[K]], %[[KQT]] : tensor<8x32xf32>, tensor<32x16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// AVX512-DAG:     %[[KK:.*]] = tensor.extract_slice %[[P]][0, 0] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
// AVX512-DAG:     %[[QKT:.*]] = tensor.extract_slice %[[P]][0, 8] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
// AVX512:         linalg.generic {{.*}} ins(%[[DEC]], %{{.*}} : tensor<8x8xf32>, tensor<8xf32>) outs(%[[KK]] : tensor<8x8xf32>)
// AVX512:         %[[DECT:.*]] = linalg.transpose ins(%[[DEC]] : tensor<8x8xf32>) outs(%{{.*}} : tensor<8x8xf32>)
// AVX512:         %[[MT:.*]] = linalg.generic {{.*}} ins(%[[DECT]] : tensor<8x8xf32>) outs(%[[QKT]] : tensor<8x8xf32>)
// AVX512:         linalg.generic {indexing_maps = [#[[$KI]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[MT]], %{{.*}} : tensor<8x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// AVX512-NOT:     tensor<32x8xf32>) outs(%{{.*}} : tensor<8x8xf32>)

// AVX2-LABEL:   func.func @gdr_stacked
// AVX2-NOT:       tensor<8x16xf32>
// AVX2:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<32x8xf32>) outs(%{{.*}} : tensor<8x8xf32>)
// AVX2:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<32x8xf32>) outs(%{{.*}} : tensor<8x8xf32>)
// AVX2-NOT:       tensor<8x16xf32>
func.func @gdr_stacked(%q: tensor<1x16x1x32xf32>, %k: tensor<1x16x1x32xf32>, %v: tensor<1x16x1x4xf32>,
                       %g: tensor<1x16x1xf32>, %beta: tensor<1x16x1xf32>,
                       %o0: tensor<1x16x1x4xf32>, %s0: tensor<1x1x32x4xf32>)
    -> (tensor<1x16x1x4xf32>, tensor<1x1x32x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(8)
      ins(%q, %k, %v, %g, %beta : tensor<1x16x1x32xf32>, tensor<1x16x1x32xf32>, tensor<1x16x1x4xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>)
      outs(%o0, %s0 : tensor<1x16x1x4xf32>, tensor<1x1x32x4xf32>)
      -> tensor<1x16x1x4xf32>, tensor<1x1x32x4xf32>
  return %o, %s : tensor<1x16x1x4xf32>, tensor<1x1x32x4xf32>
}
