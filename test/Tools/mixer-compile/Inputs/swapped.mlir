// Follows the ABI on its face, but computes each result in the other's
// destination: the lowering cannot return them and says so.

func.func @swapped(%x: tensor<4xf32>, %o: tensor<4xf32> {bufferization.writable = true},
                   %p: tensor<4xf32> {bufferization.writable = true}) -> (tensor<4xf32>, tensor<4xf32>) {
  %r1 = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %r2 = linalg.mul ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%p : tensor<4xf32>) -> tensor<4xf32>
  return %r2, %r1 : tensor<4xf32>, tensor<4xf32>
}
