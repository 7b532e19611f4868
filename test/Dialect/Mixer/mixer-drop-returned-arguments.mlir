// RUN: mixer-opt %s --mixer-drop-returned-arguments --split-input-file --verify-diagnostics | FileCheck %s

// A result computed in place into its argument: dropped.
// CHECK-LABEL: func.func @in_place
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) {
// CHECK: linalg.copy ins(%{{.*}} : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NEXT: return{{$}}
func.func @in_place(%x: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
  linalg.copy ins(%x : memref<4xf32>) outs(%out : memref<4xf32>)
  return %out : memref<4xf32>
}

// -----

// An allocated result whose destination is only asked for its sizes: the
// destination replaces the allocation.
// CHECK-LABEL: func.func @allocated
// CHECK-SAME: (%[[X:.*]]: memref<?x8xf32>, %[[OUT:.*]]: memref<?x8xf32>) {
// CHECK-NOT: memref.alloc
// CHECK: linalg.copy ins(%[[X]] : memref<?x8xf32>) outs(%[[OUT]] : memref<?x8xf32>)
// CHECK-NEXT: return{{$}}
func.func @allocated(%x: memref<?x8xf32>, %out: memref<?x8xf32>) -> memref<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %out, %c0 : memref<?x8xf32>
  %alloc = memref.alloc(%n) : memref<?x8xf32>
  linalg.copy ins(%x : memref<?x8xf32>) outs(%alloc : memref<?x8xf32>)
  return %alloc : memref<?x8xf32>
}

// -----

// An allocated result whose destination is also read: copied into it.
// CHECK-LABEL: func.func @copied
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) {
// CHECK: %[[ALLOC:.*]] = memref.alloc
// CHECK: linalg.add ins(%[[X]], %[[OUT]] : memref<4xf32>, memref<4xf32>) outs(%[[ALLOC]] : memref<4xf32>)
// CHECK: memref.copy %[[ALLOC]], %[[OUT]]
// CHECK-NEXT: return{{$}}
func.func @copied(%x: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
  %alloc = memref.alloc() : memref<4xf32>
  linalg.add ins(%x, %out : memref<4xf32>, memref<4xf32>) outs(%alloc : memref<4xf32>)
  return %alloc : memref<4xf32>
}

// -----

// No destination argument of the result's type.
// expected-error @+1 {{result #0 is not computed in place into an argument; pass its destination as an argument marked bufferization.writable}}
func.func @no_destination(%x: memref<4xf32>, %out: memref<5xf32>) -> memref<4xf32> {
  %alloc = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%alloc : memref<4xf32>)
  return %alloc : memref<4xf32>
}

// -----

// Private functions keep their results.
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: -> memref<4xf32>
func.func private @helper(%x: memref<4xf32>) -> memref<4xf32> {
  return %x : memref<4xf32>
}
