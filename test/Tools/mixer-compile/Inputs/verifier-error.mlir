// Parses, but mixer.ssd rejects the rank of 'x'.

func.func @ssd(%x: tensor<8x2x4xf32>, %la: tensor<1x8x2xf32>, %b: tensor<1x8x1x4xf32>, %y0: tensor<1x8x2x4xf32> {bufferization.writable = true}, %s0: tensor<1x2x4x4xf32> {bufferization.writable = true}) -> (tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) {
  %y, %s = mixer.ssd chunk_size(64) ins(%x, %la, %b, %b : tensor<8x2x4xf32>, tensor<1x8x2xf32>, tensor<1x8x1x4xf32>, tensor<1x8x1x4xf32>) outs(%y0, %s0 : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
  return %y, %s : tensor<1x8x2x4xf32>, tensor<1x2x4x4xf32>
}
