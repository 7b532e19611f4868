// With num-threads=1 the parallel loops run in sequence, so the pipeline
// makes them scf.for before the buffers are hoisted: every stack buffer of
// a chunk is allocated once, before the loops (left inside a loop, each
// iteration's alloca would stay until the function returns and overflow
// the stack at training sizes). With more threads the per-iteration
// buffers stay inside the parallel loop, which OpenMP scopes.
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="num-threads=1" \
// RUN:   --mlir-print-ir-after=promote-buffers-to-stack -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="num-threads=2" \
// RUN:   --mlir-print-ir-after=promote-buffers-to-stack -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWO

// ONE-LABEL: func.func @ssd(
// ONE-NOT:     scf.forall
// ONE:         memref.alloca() {{.*}} : memref<16x16xf32>
// ONE:         scf.for
// ONE-NOT:     memref.alloca
// ONE:         return

// TWO-LABEL: func.func @ssd(
// TWO:         scf.forall
// TWO:           memref.alloca() {{.*}} : memref<16x16xf32>
// TWO:         return
func.func @ssd(%x: tensor<2x256x4x32xf32>, %la: tensor<2x256x4xf32>,
               %b: tensor<2x256x2x32xf32>, %c: tensor<2x256x2x32xf32>,
               %y0: tensor<2x256x4x32xf32> {bufferization.writable = true},
               %s0: tensor<2x4x32x32xf32> {bufferization.writable = true})
    -> (tensor<2x256x4x32xf32>, tensor<2x4x32x32xf32>) {
  %y, %s = mixer.ssd chunk_size(64)
      ins(%x, %la, %b, %c : tensor<2x256x4x32xf32>, tensor<2x256x4xf32>,
                            tensor<2x256x2x32xf32>, tensor<2x256x2x32xf32>)
      outs(%y0, %s0 : tensor<2x256x4x32xf32>, tensor<2x4x32x32xf32>)
      -> tensor<2x256x4x32xf32>, tensor<2x4x32x32xf32>
  return %y, %s : tensor<2x256x4x32xf32>, tensor<2x4x32x32xf32>
}
