// RUN: mixer-opt %s --mixer-set-threads=threads=2 --mixer-tile-parallel-dims | FileCheck %s --check-prefix=T2
// RUN: mixer-opt %s --mixer-set-threads=threads=4 --mixer-tile-parallel-dims | FileCheck %s --check-prefix=T4
// RUN: mixer-opt %s --mixer-set-threads=threads=8 --mixer-tile-parallel-dims | FileCheck %s --check-prefix=T8

// The head block of mixer.ssd (TargetDescription::scanHeadBlock) leaves at
// least one tile per thread: with B = 1, H = 8 and one group, 2 threads get
// blocks of 4 heads (the limit), 4 threads blocks of 2, 8 threads one head
// per tile. The batch counts: with B = 2, 8 threads get blocks of 2.

// T2: module attributes {mixer.target = {{{.*}}threads = 2 : i64
// T2-LABEL: func.func @ssd_one_group
// T2:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (1, 8) step (1, 4)
// T2:           mixer.ssd chunk_size(32) ins({{.*}} : tensor<1x64x4x16xf32>,
// T4-LABEL: func.func @ssd_one_group
// T4:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (1, 8) step (1, 2)
// T4:           mixer.ssd chunk_size(32) ins({{.*}} : tensor<1x64x2x16xf32>,
// T8-LABEL: func.func @ssd_one_group
// T8:         scf.forall (%{{.*}}, %{{.*}}) in (1, 8)
// T8:           mixer.ssd chunk_size(32) ins({{.*}} : tensor<1x64x1x16xf32>,
func.func @ssd_one_group(%x: tensor<1x64x8x16xf32>, %la: tensor<1x64x8xf32>, %b: tensor<1x64x1x32xf32>, %c: tensor<1x64x1x32xf32>, %y0: tensor<1x64x8x16xf32>, %s0: tensor<1x8x16x32xf32>) -> (tensor<1x64x8x16xf32>, tensor<1x8x16x32xf32>) {
  %y, %s = mixer.ssd chunk_size(32) ins(%x, %la, %b, %c : tensor<1x64x8x16xf32>, tensor<1x64x8xf32>, tensor<1x64x1x32xf32>, tensor<1x64x1x32xf32>) outs(%y0, %s0 : tensor<1x64x8x16xf32>, tensor<1x8x16x32xf32>) -> tensor<1x64x8x16xf32>, tensor<1x8x16x32xf32>
  return %y, %s : tensor<1x64x8x16xf32>, tensor<1x8x16x32xf32>
}

// T2-LABEL: func.func @ssd_two_batches
// T2:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2, 8) step (1, 4)
// T4-LABEL: func.func @ssd_two_batches
// T4:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2, 8) step (1, 4)
// T8-LABEL: func.func @ssd_two_batches
// T8:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2, 8) step (1, 2)
// T8:           mixer.ssd chunk_size(32) ins({{.*}} : tensor<1x64x2x16xf32>,
func.func @ssd_two_batches(%x: tensor<2x64x8x16xf32>, %la: tensor<2x64x8xf32>, %b: tensor<2x64x1x32xf32>, %c: tensor<2x64x1x32xf32>, %y0: tensor<2x64x8x16xf32>, %s0: tensor<2x8x16x32xf32>) -> (tensor<2x64x8x16xf32>, tensor<2x8x16x32xf32>) {
  %y, %s = mixer.ssd chunk_size(32) ins(%x, %la, %b, %c : tensor<2x64x8x16xf32>, tensor<2x64x8xf32>, tensor<2x64x1x32xf32>, tensor<2x64x1x32xf32>) outs(%y0, %s0 : tensor<2x64x8x16xf32>, tensor<2x8x16x32xf32>) -> tensor<2x64x8x16xf32>, tensor<2x8x16x32xf32>
  return %y, %s : tensor<2x64x8x16xf32>, tensor<2x8x16x32xf32>
}
