// Not valid MLIR: an unknown op.

func.func @f(%x: tensor<4xf32>) {
  linalg.nonexistent
  return
}
