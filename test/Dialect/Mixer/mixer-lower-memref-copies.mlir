// RUN: mixer-opt %s --mixer-lower-memref-copies | FileCheck %s

// A static tile into a strided view: one vector row per iteration.
// CHECK-LABEL: func.func @static_rows
// CHECK-NOT: memref.copy
// CHECK: scf.for %[[I:.*]] = %c0 to %c64 step %c1
// CHECK:   %[[ROW:.*]] = vector.transfer_read %{{.*}}[%[[I]], %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<64x32xf32>, vector<32xf32>
// CHECK:   vector.transfer_write %[[ROW]], %{{.*}}[%[[I]], %{{.*}}] {in_bounds = [true]} : vector<32xf32>, memref<64x32xf32, strided<[512, 1], offset: ?>>
func.func @static_rows(%src: memref<64x32xf32>, %dst: memref<64x32xf32, strided<[512, 1], offset: ?>>) {
  memref.copy %src, %dst : memref<64x32xf32> to memref<64x32xf32, strided<[512, 1], offset: ?>>
  return
}

// A 1-D copy is one vector, no loop.
// CHECK-LABEL: func.func @static_vector
// CHECK-NOT: scf.for
// CHECK: vector.transfer_read {{.*}} : memref<16xf32>, vector<16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<16xf32>, memref<16xf32>
func.func @static_vector(%src: memref<16xf32>, %dst: memref<16xf32>) {
  memref.copy %src, %dst : memref<16xf32> to memref<16xf32>
  return
}

// Dynamic shapes become linalg.copy (scalar loops later in the pipeline).
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.*}} : memref<?x8xf32>) outs(%{{.*}} : memref<?x8xf32>)
func.func @dynamic(%src: memref<?x8xf32>, %dst: memref<?x8xf32>) {
  memref.copy %src, %dst : memref<?x8xf32> to memref<?x8xf32>
  return
}

// A copy of a buffer onto itself disappears.
// CHECK-LABEL: func.func @self
// CHECK-NEXT: return
func.func @self(%buf: memref<8xf32>) {
  memref.copy %buf, %buf : memref<8xf32> to memref<8xf32>
  return
}
