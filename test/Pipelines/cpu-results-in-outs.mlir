// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline=naive=true \
// RUN:   | FileCheck %s --implicit-check-not=bufferization.clone

// Results computed in place into `outs` arguments leave the signatures: the
// loops of the naive lowering thread the buffers through their iter_args, and
// the returned loop results must still be seen to be the arguments. Calls to
// a private function returning its arguments are rewritten too (no clone of
// the returned buffers is left for the LLVM dialect).

// CHECK-LABEL: llvm.func @step(
// CHECK-NOT:     -> !llvm.struct
// CHECK-SAME:    attributes {llvm.emit_c_interface, prefer_vector_width = "512"}
// CHECK:       llvm.func @_mlir_ciface_step(
// CHECK-SAME:    {{(%[^:]+: !llvm.ptr, ){6}%[^:]+: !llvm.ptr}})
// CHECK-LABEL: llvm.func @caller(
// CHECK:         llvm.call @scan({{.*}}) -> ()
func.func @step(%x: tensor<1x1x2x4xf32>, %log_a: tensor<1x1x2xf32>,
                %b: tensor<1x1x1x8xf32>, %c: tensor<1x1x1x8xf32>,
                %init: tensor<1x2x4x8xf32>,
                %y0: tensor<1x1x2x4xf32> {bufferization.writable = true},
                %s0: tensor<1x2x4x8xf32> {bufferization.writable = true})
    -> (tensor<1x1x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(8)
      ins(%x, %log_a, %b, %c : tensor<1x1x2x4xf32>, tensor<1x1x2xf32>,
                               tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32>)
      init(%init : tensor<1x2x4x8xf32>)
      outs(%y0, %s0 : tensor<1x1x2x4xf32>, tensor<1x2x4x8xf32>)
      -> tensor<1x1x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x1x2x4xf32>, tensor<1x2x4x8xf32>
}

func.func private @scan(%x: tensor<1x?x2x4xf32>, %log_a: tensor<1x?x2xf32>,
                        %b: tensor<1x?x1x8xf32>, %c: tensor<1x?x1x8xf32>,
                        %y0: tensor<1x?x2x4xf32>, %s0: tensor<1x2x4x8xf32>)
    -> (tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(8)
      ins(%x, %log_a, %b, %c : tensor<1x?x2x4xf32>, tensor<1x?x2xf32>,
                               tensor<1x?x1x8xf32>, tensor<1x?x1x8xf32>)
      outs(%y0, %s0 : tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>)
      -> tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>
}

func.func @caller(%x: tensor<1x?x2x4xf32>, %log_a: tensor<1x?x2xf32>,
                  %b: tensor<1x?x1x8xf32>, %c: tensor<1x?x1x8xf32>,
                  %y0: tensor<1x?x2x4xf32> {bufferization.writable = true},
                  %s0: tensor<1x2x4x8xf32> {bufferization.writable = true})
    -> (tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = call @scan(%x, %log_a, %b, %c, %y0, %s0)
      : (tensor<1x?x2x4xf32>, tensor<1x?x2xf32>, tensor<1x?x1x8xf32>,
         tensor<1x?x1x8xf32>, tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>)
      -> (tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>)
  return %y, %s : tensor<1x?x2x4xf32>, tensor<1x2x4x8xf32>
}
