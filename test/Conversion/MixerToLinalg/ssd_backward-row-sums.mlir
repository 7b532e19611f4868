// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// The sums over a row of the reverse step (o and e over N, the row sums of
// R over Q, <dS, S0> over the state) add a vector of 16 lanes (the default
// target's) at a time and reduce the 16 partial sums last; the column sums
// of R accumulate whole rows. R keeps only its strictly lower triangle.
// CHECK-LABEL: func.func @ssd_backward_row_sums
// CHECK:         scf.for
// CHECK:           arith.cmpi ugt
// CHECK:           tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [32, 2, 16] : tensor<32x32xf32> into tensor<32x2x16xf32>
// CHECK:           tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [32, 2, 16] : tensor<32x32xf32> into tensor<32x2x16xf32>
// CHECK:           %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[RL:.*]] : tensor<32x32xf32>) outs(%{{.*}} : tensor<32xf32>)
// CHECK:           tensor.expand_shape %[[RL]] {{\[}}[0], [1, 2]] output_shape [32, 2, 16] : tensor<32x32xf32> into tensor<32x2x16xf32>
// CHECK:           tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<32x16xf32> into tensor<512xf32>
// CHECK:           tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<32x16xf32> into tensor<512xf32>
// CHECK:           tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [32, 16] : tensor<512xf32> into tensor<32x16xf32>
// CHECK:           linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<32x16xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK:         return
func.func @ssd_backward_row_sums(%x: tensor<1x64x2x16xf32>, %la: tensor<1x64x2xf32>, %b: tensor<1x64x1x32xf32>, %c: tensor<1x64x1x32xf32>, %cs: tensor<1x2x3x32x16xf32>, %dy: tensor<1x64x2x16xf32>, %dx0: tensor<1x64x2x16xf32>, %dla0: tensor<1x64x2xf32>, %db0: tensor<1x64x1x32xf32>, %dc0: tensor<1x64x1x32xf32>) -> (tensor<1x64x2x16xf32>, tensor<1x64x2xf32>, tensor<1x64x1x32xf32>, tensor<1x64x1x32xf32>) {
  %g:4 = mixer.ssd_backward chunk_size(32) ins(%x, %la, %b, %c : tensor<1x64x2x16xf32>, tensor<1x64x2xf32>, tensor<1x64x1x32xf32>, tensor<1x64x1x32xf32>) chunk_states(%cs : tensor<1x2x3x32x16xf32>) dy(%dy : tensor<1x64x2x16xf32>) outs(%dx0, %dla0, %db0, %dc0 : tensor<1x64x2x16xf32>, tensor<1x64x2xf32>, tensor<1x64x1x32xf32>, tensor<1x64x1x32xf32>) -> tensor<1x64x2x16xf32>, tensor<1x64x2xf32>, tensor<1x64x1x32xf32>, tensor<1x64x1x32xf32>
  return %g#0, %g#1, %g#2, %g#3 : tensor<1x64x2x16xf32>, tensor<1x64x2xf32>, tensor<1x64x1x32xf32>, tensor<1x64x1x32xf32>
}
