# The module of linalg functions (matmul, axpy) that the tests of the
# generic layer (call.py, threads.py) compile and call.

SOURCE = """
func.func @matmul(%a: tensor<64x96xf32>, %b: tensor<96x48xf32>,
                  %c: tensor<64x48xf32> {bufferization.writable = true}) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x48xf32>)
                     outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

func.func @axpy(%alpha: f32, %x: tensor<?xf32>, %y: tensor<?xf32>,
                %out: tensor<?xf32> {bufferization.writable = true}) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%out : tensor<?xf32>) {
  ^bb0(%xv: f32, %yv: f32, %o: f32):
    %m = arith.mulf %alpha, %xv : f32
    %s = arith.addf %m, %yv : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
"""
