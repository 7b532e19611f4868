// RUN: mixer-opt %s -split-input-file --mixer-generate-vjp -verify-diagnostics
// What mixer-generate-vjp cannot differentiate is an error naming the op.

func.func @sine(%x: tensor<8xf32>, %out: tensor<8xf32> {bufferization.writable = true})
    -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%out : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    // expected-error @+1 {{mixer-generate-vjp cannot differentiate 'math.sin' in the body of a linalg.generic}}
    %s = math.sin %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func private @opaque(tensor<8xf32>) -> tensor<8xf32>

func.func @call(%x: tensor<8xf32>, %out: tensor<8xf32> {bufferization.writable = true})
    -> tensor<8xf32> {
  // expected-error @+1 {{mixer-generate-vjp cannot differentiate 'func.call'}}
  %r = func.call @opaque(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @max_reduction(%x: tensor<8xf32>, %out: tensor<f32> {bufferization.writable = true})
    -> tensor<f32> {
  // expected-error @+1 {{mixer-generate-vjp cannot differentiate a linalg.generic whose reduction does not only sum (out + e) into outs #0}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%x : tensor<8xf32>) outs(%out : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// expected-error @+1 {{mixer-generate-vjp expects outs argument #1 of @mismatch to have the type of result #0}}
func.func @mismatch(%x: tensor<8xf32>, %out: tensor<4xf32> {bufferization.writable = true})
    -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// Packed weights (mixer.pack_weights) are an inference layout.
func.func @grouped_matmul_packed(%lhs: tensor<64x32xf32>, %rhs: tensor<4x1x32x16xf32>, %gs: tensor<4xi64>,
                                 %out: tensor<64x16xf32> {bufferization.writable = true}) -> tensor<64x16xf32> {
  // expected-error @+1 {{has no VJP with packed weights: differentiate with the [E, K, N] weights (mixer.pack_weights is for inference)}}
  %r = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x1x32x16xf32>, tensor<4xi64>) outs(%out : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
