// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="generate-vjp=1" | FileCheck %s
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline | FileCheck %s --check-prefix=PLAIN

// With generate-vjp, the pipeline first adds @scale_vjp, lowered like
// @scale to a function writing its results into its outputs: here inputs x
// and s, the cotangent of the result, the gradients of x and s.
// CHECK-LABEL: llvm.func @_mlir_ciface_scale(
// CHECK-LABEL: llvm.func @_mlir_ciface_scale_vjp(
// CHECK-SAME:    {{(%[^:]+: !llvm.ptr, ){4}%[^:]+: !llvm.ptr}})
// PLAIN-NOT: scale_vjp

func.func @scale(%x: tensor<16xf32>, %s: tensor<f32>,
                 %out: tensor<16xf32> {bufferization.writable = true}) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>,
                                        affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %s : tensor<16xf32>, tensor<f32>) outs(%out : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
