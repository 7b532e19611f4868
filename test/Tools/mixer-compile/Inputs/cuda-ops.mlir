// Two mixer ops for the CUDA tests of mixer-compile: a grouped GEMM (ragged
// groups read at run time) and a kernel log-sum-exp.
func.func @gmm(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x16xf32>,
               %sizes: tensor<4xi64>,
               %out: tensor<64x16xf32> {bufferization.writable = true})
    -> tensor<64x16xf32> {
  %r = mixer.grouped_matmul ins(%lhs, %rhs, %sizes : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>)
                            outs(%out : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

func.func @lse(%x: tensor<100x8xf32>, %y: tensor<77x8xf32>, %eps: tensor<f32>,
               %g: tensor<77xf32>,
               %out: tensor<100xf32> {bufferization.writable = true})
    -> tensor<100xf32> {
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<100x8xf32>, tensor<77x8xf32>, tensor<f32>)
                        g(%g : tensor<77xf32>) outs(%out : tensor<100xf32>) -> tensor<100xf32>
  return %r : tensor<100xf32>
}
