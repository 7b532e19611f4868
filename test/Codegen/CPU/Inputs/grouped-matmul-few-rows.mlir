// A grouped GEMM of 256 rows over 8 experts (32 rows each on average: fewer
// than 8 slabs of the micro-kernel's rows with AVX2 as with AVX-512), K = N
// = 256: its weights are read in place.
func.func @grouped_matmul(%lhs: tensor<256x256xf32>, %rhs: tensor<8x256x256xf32>, %sizes: tensor<8xi64>, %out0: tensor<256x256xf32> {bufferization.writable = true}) -> tensor<256x256xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %sizes : tensor<256x256xf32>, tensor<8x256x256xf32>, tensor<8xi64>) outs(%out0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %out : tensor<256x256xf32>
}
