// A grouped GEMM whose panels stream from L2: 2688 rows over 8 experts (336
// each: 24 slabs of 14 rows with AVX-512, 56 of 6 with AVX2, enough to pack
// the weights), K = 512, so that a packed panel of 16 or 32 columns (32 or
// 64 KiB) exceeds half of L1 and each slab sweeps every panel.
func.func @grouped_matmul(%lhs: tensor<2688x512xf32>, %rhs: tensor<8x512x64xf32>, %sizes: tensor<8xi64>, %out0: tensor<2688x64xf32> {bufferization.writable = true}) -> tensor<2688x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %sizes : tensor<2688x512xf32>, tensor<8x512x64xf32>, tensor<8xi64>) outs(%out0 : tensor<2688x64xf32>) -> tensor<2688x64xf32>
  return %out : tensor<2688x64xf32>
}
