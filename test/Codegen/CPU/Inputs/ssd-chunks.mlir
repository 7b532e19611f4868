// ssd with 4 chunks of 64 tokens, 8 heads of 64 channels, state 64: the
// chunk products (C B^T, the chunk states, the off-diagonal outputs).
func.func @ssd(%x: tensor<1x256x8x64xf32>, %la: tensor<1x256x8xf32>, %b: tensor<1x256x1x64xf32>, %c: tensor<1x256x1x64xf32>, %y0: tensor<1x256x8x64xf32> {bufferization.writable = true}, %s0: tensor<1x8x64x64xf32> {bufferization.writable = true}) -> (tensor<1x256x8x64xf32>, tensor<1x8x64x64xf32>) {
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %c : tensor<1x256x8x64xf32>, tensor<1x256x8xf32>, tensor<1x256x1x64xf32>, tensor<1x256x1x64xf32>) outs(%y0, %s0 : tensor<1x256x8x64xf32>, tensor<1x8x64x64xf32>) -> tensor<1x256x8x64xf32>, tensor<1x8x64x64xf32>
  return %y, %s : tensor<1x256x8x64xf32>, tensor<1x8x64x64xf32>
}
