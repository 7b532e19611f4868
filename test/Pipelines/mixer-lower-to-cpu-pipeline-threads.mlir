// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="num-threads=2" \
// RUN:   --mlir-print-ir-after=mixer-tile-parallel-dims -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWO
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="num-threads=8" \
// RUN:   --mlir-print-ir-after=mixer-tile-parallel-dims -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EIGHT
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="num-threads=8" \
// RUN:   --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE

// num-threads reaches the target description (mixer-set-threads), so the
// head blocks of mixer.ssd leave a tile per thread: with B = 1, H = 8 and
// one group, blocks of 4 heads for 2 threads, of 1 head for 8.

// PIPE:      builtin.module(
// PIPE-NEXT:   mixer-set-threads{threads=8},

// TWO-LABEL: func.func @ssd(
// TWO:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (1, 8) step (1, 4)
// EIGHT-LABEL: func.func @ssd(
// EIGHT:         scf.forall (%{{.*}}, %{{.*}}) in (1, 8)
func.func @ssd(%x: tensor<1x64x8x16xf32>, %la: tensor<1x64x8xf32>,
               %b: tensor<1x64x1x32xf32>, %c: tensor<1x64x1x32xf32>,
               %y0: tensor<1x64x8x16xf32> {bufferization.writable = true},
               %s0: tensor<1x8x16x32xf32> {bufferization.writable = true})
    -> (tensor<1x64x8x16xf32>, tensor<1x8x16x32xf32>) {
  %y, %s = mixer.ssd chunk_size(32)
      ins(%x, %la, %b, %c : tensor<1x64x8x16xf32>, tensor<1x64x8xf32>,
                            tensor<1x64x1x32xf32>, tensor<1x64x1x32xf32>)
      outs(%y0, %s0 : tensor<1x64x8x16xf32>, tensor<1x8x16x32xf32>)
      -> tensor<1x64x8x16xf32>, tensor<1x8x16x32xf32>
  return %y, %s : tensor<1x64x8x16xf32>, tensor<1x8x16x32xf32>
}
