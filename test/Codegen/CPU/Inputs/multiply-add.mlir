// o = a * b + c over 1024 floats: one multiply feeding one add.
#id = affine_map<(i) -> (i)>
func.func @multiply_add(%a: tensor<1024xf32>, %b: tensor<1024xf32>, %c: tensor<1024xf32>, %o0: tensor<1024xf32> {bufferization.writable = true}) -> tensor<1024xf32> {
  %o = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%a, %b, %c : tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) outs(%o0 : tensor<1024xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %out: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %z : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  return %o : tensor<1024xf32>
}
