// RUN: mixer-opt %s --pass-pipeline="builtin.module(func.func(mixer-gpu-host-allocs))" | FileCheck %s

// Host buffers (a temporary between kernels, a scratch buffer) live in
// device memory; what is inside a kernel stays as it is.
// CHECK-LABEL: func.func @host
// CHECK:         %[[T:.*]] = gpu.alloc () : memref<64xf32>
// CHECK:         %[[S:.*]] = gpu.alloc (%{{.*}}) : memref<?xi8>
// CHECK:         gpu.launch
// CHECK:           memref.alloca() : memref<4xf32>
// CHECK:         gpu.dealloc %[[S]] : memref<?xi8>
// CHECK:         gpu.dealloc %[[T]] : memref<64xf32>
func.func @host(%n: index) {
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<64xf32>
  %s = memref.alloc(%n) : memref<?xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %p = memref.alloca() : memref<4xf32>
    gpu.terminator
  }
  memref.dealloc %s : memref<?xi8>
  memref.dealloc %t : memref<64xf32>
  return
}
