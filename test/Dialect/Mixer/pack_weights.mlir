// RUN: mixer-opt %s | mixer-opt | FileCheck %s
// mixer.pack_weights and the grouped ops over packed weights round-trip.

// CHECK-LABEL: func.func @pack_then_grouped
// CHECK:         %[[P:.+]] = mixer.pack_weights ins(%{{.+}} : tensor<8x64x40xf32>) outs(%{{.+}} : tensor<8x3x64x16xf32>) -> tensor<8x3x64x16xf32>
// CHECK:         mixer.grouped_matmul ins(%{{.+}}, %[[P]], %{{.+}} : tensor<?x64xf32>, tensor<8x3x64x16xf32>, tensor<8xi64>) outs(%{{.+}} : tensor<?x40xf32>) -> tensor<?x40xf32>
// CHECK:         mixer.grouped_swiglu ins(%{{.+}}, %[[P]], %[[P]], %{{.+}} : tensor<?x64xf32>, tensor<8x3x64x16xf32>, tensor<8x3x64x16xf32>, tensor<8xi64>) outs(%{{.+}} : tensor<?x40xf32>) -> tensor<?x40xf32>
func.func @pack_then_grouped(%x: tensor<?x64xf32>, %w: tensor<8x64x40xf32>, %gs: tensor<8xi64>, %p0: tensor<8x3x64x16xf32>, %o: tensor<?x40xf32>) -> (tensor<?x40xf32>, tensor<?x40xf32>) {
  %p = mixer.pack_weights ins(%w : tensor<8x64x40xf32>) outs(%p0 : tensor<8x3x64x16xf32>) -> tensor<8x3x64x16xf32>
  %m = mixer.grouped_matmul ins(%x, %p, %gs : tensor<?x64xf32>, tensor<8x3x64x16xf32>, tensor<8xi64>) outs(%o : tensor<?x40xf32>) -> tensor<?x40xf32>
  %s = mixer.grouped_swiglu ins(%x, %p, %p, %gs : tensor<?x64xf32>, tensor<8x3x64x16xf32>, tensor<8x3x64x16xf32>, tensor<8xi64>) outs(%o : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %m, %s : tensor<?x40xf32>, tensor<?x40xf32>
}
