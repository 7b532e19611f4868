// gated_delta_rule over 64 tokens (8 chunks of 8 on CPUs), 8 heads of
// Dk = Dv = 64: the bench's layout, shorter.
func.func @gated_delta_rule(%q: tensor<1x64x8x64xf32>, %k: tensor<1x64x8x64xf32>, %v: tensor<1x64x8x64xf32>, %g: tensor<1x64x8xf32>, %beta: tensor<1x64x8xf32>, %o0: tensor<1x64x8x64xf32> {bufferization.writable = true}, %s0: tensor<1x8x64x64xf32> {bufferization.writable = true}) -> (tensor<1x64x8x64xf32>, tensor<1x8x64x64xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(64) scale(0.125)
      ins(%q, %k, %v, %g, %beta : tensor<1x64x8x64xf32>, tensor<1x64x8x64xf32>, tensor<1x64x8x64xf32>, tensor<1x64x8xf32>, tensor<1x64x8xf32>)
      outs(%o0, %s0 : tensor<1x64x8x64xf32>, tensor<1x8x64x64xf32>) -> tensor<1x64x8x64xf32>, tensor<1x8x64x64xf32>
  return %o, %s : tensor<1x64x8x64xf32>, tensor<1x8x64x64xf32>
}
