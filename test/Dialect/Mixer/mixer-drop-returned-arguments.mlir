// RUN: mixer-opt %s -split-input-file --mixer-drop-returned-arguments -verify-diagnostics | FileCheck %s

// A public function returning its argument buffers loses those results: the
// caller already holds them.

// CHECK-LABEL: func.func @returns_arguments
// CHECK-SAME:    (%[[A:[^:]*]]: memref<4xf32>, %[[B:[^:]*]]: memref<2x3xf32>) {
// CHECK:         memref.store %{{.*}}, %[[A]]
// CHECK-NEXT:    return{{$}}
func.func @returns_arguments(%a: memref<4xf32>, %b: memref<2x3xf32>) -> (memref<4xf32>, memref<2x3xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<4xf32>
  return %a, %b : memref<4xf32>, memref<2x3xf32>
}

// Also through memref.cast (a layout or static-shape cast of the argument);
// result attributes go with the results.

// CHECK-LABEL: func.func @returns_cast_argument
// CHECK-SAME:    (%{{[^:]*}}: memref<?xf32>) {
// CHECK:         return{{$}}
func.func @returns_cast_argument(%a: memref<?xf32>) -> (memref<4xf32> {mixer.res = 1 : i64}) {
  %0 = memref.cast %a : memref<?xf32> to memref<4xf32>
  %1 = memref.cast %0 : memref<4xf32> to memref<?xf32, strided<[?], offset: ?>>
  %2 = memref.cast %1 : memref<?xf32, strided<[?], offset: ?>> to memref<4xf32>
  return %2 : memref<4xf32>
}

// Private functions are left to drop-equivalent-buffer-results and their call
// sites; functions without results are unchanged.

// CHECK-LABEL: func.func private @private_returns_argument
// CHECK-SAME:    (%[[P:[^:]*]]: memref<4xf32>) -> memref<4xf32>
// CHECK:         return %[[P]] : memref<4xf32>
func.func private @private_returns_argument(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}

// CHECK-LABEL: func.func @no_results
// CHECK-SAME:    (%{{[^:]*}}: memref<4xf32>) {
func.func @no_results(%a: memref<4xf32>) {
  return
}

// -----

// A buffer the function allocated cannot be handed to the caller.

// expected-error @+1 {{result #1 is not computed in place into an argument; pass its destination as an argument marked bufferization.writable}}
func.func @returns_alloc(%a: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %0 = memref.alloc() : memref<4xf32>
  return %a, %0 : memref<4xf32>, memref<4xf32>
}

// -----

// Neither can a scalar result.

// expected-error @+1 {{result #0 is not computed in place into an argument}}
func.func @returns_scalar(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %0 = memref.load %a[%c0] : memref<4xf32>
  return %0 : f32
}

// -----

// A subview of an argument is not the argument.

// expected-error @+1 {{result #0 is not computed in place into an argument}}
func.func @returns_subview(%a: memref<4xf32>) -> memref<2xf32, strided<[1], offset: 1>> {
  %0 = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  return %0 : memref<2xf32, strided<[1], offset: 1>>
}

// -----

// expected-error @+1 {{expected a single-block function body}}
func.func @multi_block(%a: memref<4xf32>, %c: i1) -> memref<4xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : memref<4xf32>
^bb2:
  return %a : memref<4xf32>
}
