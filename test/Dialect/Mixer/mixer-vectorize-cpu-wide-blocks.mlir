// RUN: mixer-opt %s --mixer-vectorize-cpu | FileCheck %s
// RUN: mixer-opt %s --mixer-vectorize-cpu="block-accumulators=16" | FileCheck %s --check-prefix=NARROW
// RUN: mixer-opt %s --mixer-vectorize-cpu="vector-width=8 row-tile=6 block-accumulators=12" | FileCheck %s --check-prefix=AVX2

// With AVX-512's registers (the default target: 16 lanes, 32 registers,
// 24 wide-block accumulators) a contraction over at least 16 reduction
// steps with rows for two wide blocks takes them: 6 rows x 4 vectors where
// its columns are a multiple of 64, else 12 rows x 2 vectors; the rows the
// blocks leave over split off into a contraction of their own. Fewer rows
// or a shorter reduction keep the 8 x 32 block, as do targets whose
// wide block holds no more than it (block-accumulators <= 2 * row-tile:
// AVX2's 6 x 2 ymm).

#ik = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#ij = affine_map<(i, j, k) -> (i, j)>

// CHECK-LABEL: func.func @rows16_cols64
// CHECK:         tensor.extract_slice %{{.*}}[0, 0] [12, 64] [1, 1] : tensor<16x64xf32> to tensor<12x64xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<12x64xf32>)
// CHECK:           vector.transfer_read {{.*}} : tensor<6x64xf32>, vector<6x64xf32>
// CHECK:           scf.for
// CHECK-COUNT-6:     vector.fma {{.*}} : vector<64xf32>
// CHECK:         tensor.extract_slice %{{.*}}[12, 0] [4, 64] [1, 1] : tensor<16x64xf32> to tensor<4x64xf32>
// CHECK:         vector.transfer_read {{.*}} : tensor<4x64xf32>, vector<4x64xf32>
// CHECK-COUNT-4:   vector.fma {{.*}} : vector<64xf32>
// NARROW-LABEL: func.func @rows16_cols64
// NARROW-NOT:     vector<6x64xf32>
// NARROW:         vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// NARROW-NOT:     vector<6x64xf32>
// AVX2-LABEL:   func.func @rows16_cols64
// AVX2:           vector.transfer_read {{.*}} : tensor<6x16xf32>, vector<6x16xf32>
// AVX2:           vector.transfer_read {{.*}} : tensor<4x16xf32>, vector<4x16xf32>
func.func @rows16_cols64(%a: tensor<16x64xf32>, %b: tensor<64x64xf32>,
                         %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = linalg.generic {indexing_maps = [#ik, #kj, #ij],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x64xf32>, tensor<64x64xf32>)
      outs(%c : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// 32 columns: 12 rows x 2 vectors.
// CHECK-LABEL: func.func @rows24_cols32
// CHECK:         vector.transfer_read {{.*}} : tensor<12x32xf32>, vector<12x32xf32>
// CHECK-COUNT-12:    vector.fma {{.*}} : vector<32xf32>
func.func @rows24_cols32(%a: tensor<24x32xf32>, %b: tensor<32x32xf32>,
                         %c: tensor<24x32xf32>) -> tensor<24x32xf32> {
  %r = linalg.generic {indexing_maps = [#ik, #kj, #ij],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<24x32xf32>, tensor<32x32xf32>)
      outs(%c : tensor<24x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<24x32xf32>
  return %r : tensor<24x32xf32>
}

// 8 rows, fewer than two wide blocks (a gated delta rule's chunk
// products): 8 x 32.
// CHECK-LABEL: func.func @rows8_cols64
// CHECK-NOT:     vector<6x64xf32>
// CHECK:         vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
func.func @rows8_cols64(%a: tensor<8x64xf32>, %b: tensor<64x64xf32>,
                        %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %r = linalg.generic {indexing_maps = [#ik, #kj, #ij],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x64xf32>, tensor<64x64xf32>)
      outs(%c : tensor<8x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// 8 reduction steps (a gated delta rule's state update): 8 x 32.
// CHECK-LABEL: func.func @steps8
// CHECK-NOT:     vector<6x64xf32>
// CHECK:         vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
func.func @steps8(%a: tensor<64x8xf32>, %b: tensor<8x64xf32>,
                  %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [#ik, #kj, #ij],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x8xf32>, tensor<8x64xf32>)
      outs(%c : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
