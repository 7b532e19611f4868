// The grouped GEMM of Inputs/grouped-matmul-few-rows.mlir over weights
// packed beforehand (mixer.pack_weights) in panels of 16 columns
// ([E, P, K, 16]): each panel's K rows are consecutive lines.
func.func @grouped_matmul(%lhs: tensor<256x256xf32>, %rhs: tensor<8x16x256x16xf32>, %sizes: tensor<8xi64>, %out0: tensor<256x256xf32> {bufferization.writable = true}) -> tensor<256x256xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %sizes : tensor<256x256xf32>, tensor<8x16x256x16xf32>, tensor<8xi64>) outs(%out0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %out : tensor<256x256xf32>
}
