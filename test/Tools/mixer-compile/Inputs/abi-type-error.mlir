// One writable argument per result, but of another type than the result.

func.func @mismatch(%x: tensor<4xf32>, %out: tensor<8xf32> {bufferization.writable = true}) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
