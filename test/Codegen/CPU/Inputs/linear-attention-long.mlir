// linear_attention over 2048 tokens, 8 heads of 64: its output o is 4 MiB,
// more than any core's L2, and the function only writes it.
func.func @la(%q: tensor<1x2048x8x64xf32>, %k: tensor<1x2048x8x64xf32>, %v: tensor<1x2048x8x64xf32>, %g: tensor<1x2048x8xf32>, %o0: tensor<1x2048x8x64xf32> {bufferization.writable = true}, %s0: tensor<1x8x64x64xf32> {bufferization.writable = true}) -> (tensor<1x2048x8x64xf32>, tensor<1x8x64x64xf32>) {
  %o, %s = mixer.linear_attention chunk_size(64) scale(0.125) ins(%q, %k, %v : tensor<1x2048x8x64xf32>, tensor<1x2048x8x64xf32>, tensor<1x2048x8x64xf32>) log_decay(%g : tensor<1x2048x8xf32>) outs(%o0, %s0 : tensor<1x2048x8x64xf32>, tensor<1x8x64x64xf32>) -> tensor<1x2048x8x64xf32>, tensor<1x8x64x64xf32>
  return %o, %s : tensor<1x2048x8x64xf32>, tensor<1x8x64x64xf32>
}
