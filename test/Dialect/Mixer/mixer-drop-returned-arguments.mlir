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

// The destination has another type than the result.
// expected-error @+1 {{result #0 is not computed in place into its destination, argument #1; the last 1 arguments are the destinations of the results, in order}}
func.func @wrong_destination(%x: memref<4xf32>, %out: memref<5xf32>) -> memref<4xf32> {
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

// -----

// A result that is another argument (here an input): copied into the
// destination, the trailing argument.
// CHECK-LABEL: func.func @returns_input
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) {
// CHECK-NEXT: memref.copy %[[X]], %[[OUT]]
// CHECK-NEXT: return{{$}}
func.func @returns_input(%x: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
  return %x : memref<4xf32>
}

// -----

// Two results computed into the same argument: the second is copied into
// its own destination.
// CHECK-LABEL: func.func @same_twice
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[O:.*]]: memref<4xf32>, %[[P:.*]]: memref<4xf32>) {
// CHECK: linalg.copy ins(%[[X]] : memref<4xf32>) outs(%[[O]] : memref<4xf32>)
// CHECK-NEXT: memref.copy %[[O]], %[[P]]
// CHECK-NEXT: return{{$}}
func.func @same_twice(%x: memref<4xf32>, %o: memref<4xf32>, %p: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  linalg.copy ins(%x : memref<4xf32>) outs(%o : memref<4xf32>)
  return %o, %o : memref<4xf32>, memref<4xf32>
}

// -----

// Results swapped between their destinations: an error, not a silent swap.
// expected-error @+1 {{result #0 is not computed in place into its destination, argument #0}}
func.func @swapped(%o: memref<4xf32>, %p: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  return %p, %o : memref<4xf32>, memref<4xf32>
}

// -----

// Fewer arguments than results.
// expected-error @+1 {{result #0 has no destination; pass one argument marked bufferization.writable per result, after the inputs}}
func.func @too_few(%o: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  return %o, %o : memref<4xf32>, memref<4xf32>
}

// -----

// A public caller of a public callee that computes in place: the call
// passes the caller's destination and returns nothing, so the caller
// computes in place too. The caller comes first: callees are rewritten
// before their callers.
// CHECK-LABEL: func.func @caller_in_place
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) {
// CHECK-NEXT: call @callee_in_place(%[[X]], %[[OUT]]) : (memref<4xf32>, memref<4xf32>) -> (){{$}}
// CHECK-NEXT: linalg.exp ins(%[[OUT]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NEXT: return{{$}}
func.func @caller_in_place(%x: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
  %c = call @callee_in_place(%x, %out) : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>
  linalg.exp ins(%c : memref<4xf32>) outs(%out : memref<4xf32>)
  return %out : memref<4xf32>
}
// CHECK-LABEL: func.func @callee_in_place
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) {
// CHECK: linalg.copy
// CHECK-NEXT: return{{$}}
func.func @callee_in_place(%x: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
  linalg.copy ins(%x : memref<4xf32>) outs(%out : memref<4xf32>)
  return %out : memref<4xf32>
}

// -----

// A public callee that did not compute into its destination now writes it,
// while the caller's bufferization took that argument as only read (here
// it is the caller's input, read again after the call): the call gets a
// fresh buffer, sized like the destination it passed.
// CHECK-LABEL: func.func @callee_copied
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>) {
// CHECK-NEXT: memref.copy %[[X]], %[[OUT]]
// CHECK-NEXT: return{{$}}
func.func @callee_copied(%x: memref<?xf32>, %out: memref<?xf32>) -> memref<?xf32> {
  return %x : memref<?xf32>
}
// CHECK-LABEL: func.func @caller_of_copied
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>) {
// CHECK: %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf32>
// CHECK-NEXT: %[[FRESH:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT: call @callee_copied(%[[X]], %[[FRESH]]) : (memref<?xf32>, memref<?xf32>) -> (){{$}}
// CHECK-NEXT: linalg.add ins(%[[FRESH]], %[[X]] : memref<?xf32>, memref<?xf32>) outs(%[[OUT]] : memref<?xf32>)
// CHECK-NEXT: return{{$}}
func.func @caller_of_copied(%x: memref<?xf32>, %out: memref<?xf32>) -> memref<?xf32> {
  %c = call @callee_copied(%x, %x) : (memref<?xf32>, memref<?xf32>) -> memref<?xf32>
  linalg.add ins(%c, %x : memref<?xf32>, memref<?xf32>) outs(%out : memref<?xf32>)
  return %out : memref<?xf32>
}

// -----

// A public caller of a private callee: the private callee and its call keep
// their results; the caller's result is copied into its destination.
// CHECK-LABEL: func.func private @private_callee
// CHECK-SAME: -> memref<4xf32>
// CHECK-LABEL: func.func @caller_of_private
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) {
// CHECK-NEXT: %[[C:.*]] = call @private_callee(%[[X]]) : (memref<4xf32>) -> memref<4xf32>
// CHECK-NEXT: memref.copy %[[C]], %[[OUT]]
// CHECK-NEXT: return{{$}}
func.func private @private_callee(%x: memref<4xf32>) -> memref<4xf32> {
  %alloc = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%alloc : memref<4xf32>)
  return %alloc : memref<4xf32>
}
func.func @caller_of_private(%x: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
  %c = call @private_callee(%x) : (memref<4xf32>) -> memref<4xf32>
  return %c : memref<4xf32>
}

// -----

// A use of a rewritten function other than a call cannot follow its new
// signature: an error naming the user, the function around it and the
// callee.
func.func @taken(%x: memref<4xf32>, %out: memref<4xf32>) -> memref<4xf32> {
  return %out : memref<4xf32>
}
func.func private @takes_address() -> ((memref<4xf32>, memref<4xf32>) -> memref<4xf32>) {
  // expected-error @+1 {{'func.constant' in @takes_address uses @taken, whose results become destination arguments; only func.call sites of it can be rewritten}}
  %f = func.constant @taken : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>
  return %f : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>
}

// -----

// A fresh destination for a strided argument: allocated with the identity
// layout and cast.
// CHECK-LABEL: func.func @strided_callee
// CHECK-LABEL: func.func @strided_caller
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT: %[[FRESH:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[CAST:.*]] = memref.cast %[[FRESH]] : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT: call @strided_callee(%[[X]], %[[CAST]])
// CHECK-NEXT: %[[BACK:.*]] = memref.cast %[[CAST]] : memref<4xf32, strided<[?], offset: ?>> to memref<4xf32>
// CHECK-NEXT: memref.copy %[[BACK]], %[[OUT]]
// CHECK-NEXT: return{{$}}
func.func @strided_callee(%x: memref<4xf32>, %out: memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32> {
  return %x : memref<4xf32>
}
func.func @strided_caller(%x: memref<4xf32>, %out: memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32> {
  %c = call @strided_callee(%x, %out) : (memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>
  return %c : memref<4xf32>
}

// -----

// A destination with static strides no allocation can be cast to.
func.func @strided2_callee(%x: memref<4xf32, strided<[?]>>, %out: memref<4xf32, strided<[2]>>) -> memref<4xf32, strided<[?]>> {
  return %x : memref<4xf32, strided<[?]>>
}
func.func private @strided2_caller(%x: memref<4xf32, strided<[?]>>, %o: memref<4xf32, strided<[2]>>) -> memref<4xf32, strided<[?]>> {
  // expected-error @+1 {{cannot allocate the destination of result #0 of @strided2_callee in its caller @strided2_caller: argument #1 has a layout no allocation can be cast to}}
  %c = call @strided2_callee(%x, %o) : (memref<4xf32, strided<[?]>>, memref<4xf32, strided<[2]>>) -> memref<4xf32, strided<[?]>>
  return %c : memref<4xf32, strided<[?]>>
}
