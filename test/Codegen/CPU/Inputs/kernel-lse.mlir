// kernel_lse with log-weights g, static shapes: x [256, 3], y [512, 3].
func.func @kernel_lse(%x: tensor<256x3xf32>, %y: tensor<512x3xf32>, %eps: tensor<f32>, %g: tensor<512xf32>, %o0: tensor<256xf32> {bufferization.writable = true}) -> tensor<256xf32> {
  %o = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<256x3xf32>, tensor<512x3xf32>, tensor<f32>) g(%g : tensor<512xf32>) outs(%o0 : tensor<256xf32>) -> tensor<256xf32>
  return %o : tensor<256xf32>
}
