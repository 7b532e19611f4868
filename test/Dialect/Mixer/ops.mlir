// RUN: mixer-opt %s | mixer-opt | FileCheck %s
// RUN: mixer-opt %s --mlir-print-op-generic | mixer-opt | FileCheck %s
// Round trip of every mixer op, in custom and in generic form.

// CHECK-LABEL: func.func @ssd
// CHECK: mixer.ssd chunk_size(64) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>) outs(
func.func @ssd(%x: tensor<2x100x8x16xf32>, %la: tensor<2x100x8xf32>, %b: tensor<2x100x2x32xf32>, %c: tensor<2x100x2x32xf32>) -> (tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) {
  %y0 = tensor.empty() : tensor<2x100x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %y, %s = mixer.ssd chunk_size(64)
      ins(%x, %la, %b, %c : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>)
      outs(%y0, %s0 : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
  return %y, %s : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
}

// CHECK-LABEL: func.func @ssd_dynamic_length_with_init
// CHECK: mixer.ssd chunk_size(128) ins({{.*}}) init(%{{.*}} : tensor<1x4x64x128xf32>) outs(
func.func @ssd_dynamic_length_with_init(%x: tensor<1x?x4x64xf32>, %la: tensor<1x?x4xf32>, %b: tensor<1x?x1x128xf32>, %c: tensor<1x?x1x128xf32>, %h: tensor<1x4x64x128xf32>, %y0: tensor<1x?x4x64xf32>, %s0: tensor<1x4x64x128xf32>) -> (tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>) {
  %y, %s = mixer.ssd chunk_size(128)
      ins(%x, %la, %b, %c : tensor<1x?x4x64xf32>, tensor<1x?x4xf32>, tensor<1x?x1x128xf32>, tensor<1x?x1x128xf32>)
      init(%h : tensor<1x4x64x128xf32>)
      outs(%y0, %s0 : tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>
  return %y, %s : tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>
}
