// A private function returning its argument: buffer deallocation leaves a
// bufferization.clone that nothing lowers.

func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
