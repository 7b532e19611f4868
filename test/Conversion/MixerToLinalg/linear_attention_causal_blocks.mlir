// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s --check-prefix=CPU
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90" --convert-mixer-to-linalg \
// RUN:   | FileCheck %s --check-prefix=GPU

// The causal products of a chunk of 32 follow the target's triangular
// blocks (scan_chunk_limit = 0 keeps the op's chunk on the CPU;
// mixer-set-target replaces the attribute with the GPU's, which has no
// limit). On a CPU, rows of 16: the scores Q K^T for rows 0-15 against keys
// 0-15 and rows 16-31 against all 32, then M V with rows 0-15 reading
// M[0:16, 0:16] and V[0:16]; the inter-chunk product and the state update
// stay whole. On a GPU every product is whole.

// CPU-LABEL: func.func @la_causal_blocks
// CPU:         %[[KT:.*]] = linalg.transpose
// CPU:         %[[KT0:.*]] = tensor.extract_slice %[[KT]][0, 0] [8, 16] [1, 1] : tensor<8x32xf32> to tensor<8x16xf32>
// CPU:         linalg.generic {{.*}} ins(%{{.*}}, %[[KT0]] : tensor<16x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<16x16xf32>)
// CPU:         linalg.generic {{.*}} ins(%{{.*}}, %[[KT]] : tensor<16x8xf32>, tensor<8x32xf32>) outs(%{{.*}} : tensor<16x32xf32>)
// CPU:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x4xf32>) outs(%{{.*}} : tensor<16x4xf32>)
// CPU:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<32x4xf32>) outs(%{{.*}} : tensor<16x4xf32>)
// CPU:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<32x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<32x4xf32>)

// GPU-LABEL: func.func @la_causal_blocks
// GPU:         %[[KT:.*]] = linalg.transpose
// GPU:         linalg.generic {{.*}} ins(%{{.*}}, %[[KT]] : tensor<32x8xf32>, tensor<8x32xf32>) outs(%{{.*}} : tensor<32x32xf32>)
// GPU:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<32x32xf32>, tensor<32x4xf32>) outs(%{{.*}} : tensor<32x4xf32>)
// GPU-NOT:     tensor<16x
module attributes {mixer.target = {scan_chunk_limit = 0 : i64}} {
func.func @la_causal_blocks(%q: tensor<1x64x1x8xf32>, %k: tensor<1x64x1x8xf32>, %v: tensor<1x64x1x4xf32>,
                            %o0: tensor<1x64x1x4xf32>, %s0: tensor<1x1x8x4xf32>)
    -> (tensor<1x64x1x4xf32>, tensor<1x1x8x4xf32>) {
  %o, %s = mixer.linear_attention chunk_size(32) ins(%q, %k, %v : tensor<1x64x1x8xf32>, tensor<1x64x1x8xf32>, tensor<1x64x1x4xf32>)
      outs(%o0, %s0 : tensor<1x64x1x4xf32>, tensor<1x1x8x4xf32>) -> tensor<1x64x1x4xf32>, tensor<1x1x8x4xf32>
  return %o, %s : tensor<1x64x1x4xf32>, tensor<1x1x8x4xf32>
}
}
