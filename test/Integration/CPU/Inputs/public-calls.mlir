// Public functions that call a public function (and a private one), as
// mixer-compile gives them all the C interface: each call must follow the
// callee's new signature, which writes into its destination argument.

// The callee: c = a * b, any number of rows.
func.func @matmul(%a: tensor<?x64xf32>, %b: tensor<64x48xf32>,
                  %c: tensor<?x48xf32> {bufferization.writable = true})
    -> tensor<?x48xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<?x48xf32>) -> tensor<?x48xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x48xf32>)
                     outs(%init : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %r : tensor<?x48xf32>
}

// A private helper returning a fresh tensor: max(v, 0).
func.func private @relu(%v: tensor<?x48xf32>) -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %v, %c0 : tensor<?x48xf32>
  %e = tensor.empty(%n) : tensor<?x48xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<?x48xf32>) outs(%e : tensor<?x48xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x48xf32>
  return %r : tensor<?x48xf32>
}

// out = relu(a * b): the callee computes into the caller's destination.
func.func @matmul_relu(%a: tensor<?x64xf32>, %b: tensor<64x48xf32>,
                       %out: tensor<?x48xf32> {bufferization.writable = true})
    -> tensor<?x48xf32> {
  %m = func.call @matmul(%a, %b, %out)
      : (tensor<?x64xf32>, tensor<64x48xf32>, tensor<?x48xf32>) -> tensor<?x48xf32>
  %r = func.call @relu(%m) : (tensor<?x48xf32>) -> tensor<?x48xf32>
  return %r : tensor<?x48xf32>
}

// out = a * b + relu(a * b): the callee computes into a scratch tensor.
func.func @matmul_plus_relu(%a: tensor<?x64xf32>, %b: tensor<64x48xf32>,
                            %out: tensor<?x48xf32> {bufferization.writable = true})
    -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x48xf32>
  %m = func.call @matmul(%a, %b, %e)
      : (tensor<?x64xf32>, tensor<64x48xf32>, tensor<?x48xf32>) -> tensor<?x48xf32>
  %r = func.call @relu(%m) : (tensor<?x48xf32>) -> tensor<?x48xf32>
  %s = linalg.add ins(%m, %r : tensor<?x48xf32>, tensor<?x48xf32>)
                  outs(%out : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %s : tensor<?x48xf32>
}
