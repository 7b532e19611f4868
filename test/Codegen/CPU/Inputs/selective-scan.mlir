// selective_scan over 64 tokens of 256 channels (one group of 16 states),
// with delta_softplus, a bias, D and z: the bench's layout, shorter. A
// channel block's rows lie 256 floats apart.
func.func @selective_scan(%u: tensor<1x64x256xf32>, %dt: tensor<1x64x256xf32>, %A: tensor<256x16xf32>, %b: tensor<1x64x1x16xf32>, %c: tensor<1x64x1x16xf32>,
    %d: tensor<256xf32>, %z: tensor<1x64x256xf32>, %db: tensor<256xf32>,
    %y0: tensor<1x64x256xf32> {bufferization.writable = true}, %s0: tensor<1x256x16xf32> {bufferization.writable = true}) -> (tensor<1x64x256xf32>, tensor<1x256x16xf32>) {
  %y, %s = mixer.selective_scan delta_softplus
      ins(%u, %dt, %A, %b, %c : tensor<1x64x256xf32>, tensor<1x64x256xf32>, tensor<256x16xf32>, tensor<1x64x1x16xf32>, tensor<1x64x1x16xf32>)
      D_skip(%d : tensor<256xf32>) z(%z : tensor<1x64x256xf32>) delta_bias(%db : tensor<256xf32>)
      outs(%y0, %s0 : tensor<1x64x256xf32>, tensor<1x256x16xf32>) -> tensor<1x64x256xf32>, tensor<1x256x16xf32>
  return %y, %s : tensor<1x64x256xf32>, tensor<1x256x16xf32>
}
