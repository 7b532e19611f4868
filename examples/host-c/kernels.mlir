// Kernels of the host-c example, compiled by mixer-compile into kernels.o
// and kernels.h. Every public function takes its inputs, then one output
// per result marked {bufferization.writable = true}, and returns the result
// computed in place into it.

// c = a * b: static shapes.
func.func @matmul(%a: tensor<96x256xf32>, %b: tensor<256x80xf32>,
                  %c: tensor<96x80xf32> {bufferization.writable = true})
    -> tensor<96x80xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<96x80xf32>) -> tensor<96x80xf32>
  %r = linalg.matmul ins(%a, %b : tensor<96x256xf32>, tensor<256x80xf32>)
                     outs(%init : tensor<96x80xf32>) -> tensor<96x80xf32>
  return %r : tensor<96x80xf32>
}

// out = max(x + bias, 0) row by row: any number of rows (the `?`).
func.func @bias_relu(%x: tensor<?x64xf32>, %bias: tensor<64xf32>,
                     %out: tensor<?x64xf32> {bufferization.writable = true})
    -> tensor<?x64xf32> {
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<?x64xf32>, tensor<64xf32>)
      outs(%out : tensor<?x64xf32>) {
  ^bb0(%xv: f32, %bv: f32, %o: f32):
    %s = arith.addf %xv, %bv : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// The Mamba-2 SSD scan (mixer.ssd) from an initial state: y [B, L, H, P] and
// the final state [B, H, P, N]. Parallel over batch and heads with OpenMP.
func.func @ssd(%x: tensor<2x200x4x16xf32>, %log_a: tensor<2x200x4xf32>,
               %b: tensor<2x200x2x32xf32>, %c: tensor<2x200x2x32xf32>,
               %init: tensor<2x4x16x32xf32>,
               %y: tensor<2x200x4x16xf32> {bufferization.writable = true},
               %final_state: tensor<2x4x16x32xf32> {bufferization.writable = true})
    -> (tensor<2x200x4x16xf32>, tensor<2x4x16x32xf32>) {
  %0, %1 = mixer.ssd chunk_size(64)
      ins(%x, %log_a, %b, %c : tensor<2x200x4x16xf32>, tensor<2x200x4xf32>,
                               tensor<2x200x2x32xf32>, tensor<2x200x2x32xf32>)
      init(%init : tensor<2x4x16x32xf32>)
      outs(%y, %final_state : tensor<2x200x4x16xf32>, tensor<2x4x16x32xf32>)
      -> tensor<2x200x4x16xf32>, tensor<2x4x16x32xf32>
  return %0, %1 : tensor<2x200x4x16xf32>, tensor<2x4x16x32xf32>
}
