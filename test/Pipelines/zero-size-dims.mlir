// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline=vector-width=4 | FileCheck %s
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline=naive=true | FileCheck %s

// Found by mixer-fuzz-pipeline: a scan with an empty sequence (L = 0) failed
// in mixer-tile-parallel-dims, whose tiles sliced the empty dimension; it
// now lowers to the LLVM dialect. (Other zero-size dimensions can still
// fail in convert-mixer-to-linalg: docs/Fuzzing.md.)

// CHECK-LABEL: llvm.func @empty_sequence(
func.func @empty_sequence(%q: tensor<1x0x2x4xf32>, %k: tensor<1x0x2x4xf32>, %v: tensor<1x0x2x4xf32>, %g: tensor<1x0x2xf32>, %beta: tensor<1x0x2xf32>, %o0: tensor<1x0x2x4xf32> {bufferization.writable = true}, %s0: tensor<1x2x4x4xf32> {bufferization.writable = true}) -> (tensor<1x0x2x4xf32>, tensor<1x2x4x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(8) ins(%q, %k, %v, %g, %beta : tensor<1x0x2x4xf32>, tensor<1x0x2x4xf32>, tensor<1x0x2x4xf32>, tensor<1x0x2xf32>, tensor<1x0x2xf32>) outs(%o0, %s0 : tensor<1x0x2x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x0x2x4xf32>, tensor<1x2x4x4xf32>
  return %o, %s : tensor<1x0x2x4xf32>, tensor<1x2x4x4xf32>
}
