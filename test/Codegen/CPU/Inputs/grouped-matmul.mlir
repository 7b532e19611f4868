// A grouped GEMM of 512 rows over 8 experts, K = N = 256.
func.func @grouped_matmul(%lhs: tensor<512x256xf32>, %rhs: tensor<8x256x256xf32>, %sizes: tensor<8xi64>, %out0: tensor<512x256xf32> {bufferization.writable = true}) -> tensor<512x256xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %sizes : tensor<512x256xf32>, tensor<8x256x256xf32>, tensor<8xi64>) outs(%out0 : tensor<512x256xf32>) -> tensor<512x256xf32>
  return %out : tensor<512x256xf32>
}
