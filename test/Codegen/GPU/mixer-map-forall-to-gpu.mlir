// RUN: mixer-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(func.func(mixer-map-forall-to-gpu{threads-per-block=64 shared-memory-bytes=20000},canonicalize,cse))" \
// RUN:   | FileCheck %s

// A forall of 2 x 4 iterations: one block each. The two 64x16 temporaries
// (4 KiB each) fit the 20000 bytes of shared memory, the 64x64 one (16 KiB)
// goes to global scratch, one slice per block. Each linalg op is spread
// over the 64 threads with a barrier after it; the scalar store is thread
// 0's.
func.func @blocks(%in: memref<2x4x64x16xf32>, %out: memref<2x4x64x16xf32>) {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  scf.forall (%b, %h) in (2, 4) {
    %a = memref.alloc() : memref<64x16xf32>
    %c = memref.alloc() : memref<64x16xf32>
    %big = memref.alloc() : memref<64x64xf32>
    %src = memref.subview %in[%b, %h, 0, 0] [1, 1, 64, 16] [1, 1, 1, 1]
        : memref<2x4x64x16xf32> to memref<64x16xf32, strided<[16, 1], offset: ?>>
    %dst = memref.subview %out[%b, %h, 0, 0] [1, 1, 64, 16] [1, 1, 1, 1]
        : memref<2x4x64x16xf32> to memref<64x16xf32, strided<[16, 1], offset: ?>>
    linalg.copy ins(%src : memref<64x16xf32, strided<[16, 1], offset: ?>>) outs(%a : memref<64x16xf32>)
    memref.store %cst, %a[%c0, %c0] : memref<64x16xf32>
    linalg.fill ins(%cst : f32) outs(%big : memref<64x64xf32>)
    linalg.matmul ins(%big, %a : memref<64x64xf32>, memref<64x16xf32>) outs(%c : memref<64x16xf32>)
    memref.copy %c, %dst : memref<64x16xf32> to memref<64x16xf32, strided<[16, 1], offset: ?>>
  }
  return
}

// CHECK-LABEL: func.func @blocks
// 8 blocks x 16 KiB of scratch.
// CHECK:         %[[SCRATCH:.*]] = memref.alloc() : memref<131072xi8>
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-SAME:      workgroup(%[[SHARED:.*]] : memref<8192xi8, #gpu.address_space<workgroup>>)
// The forall's indices from the block id.
// CHECK:           %[[H:.*]] = arith.remui %[[BX]], %c4
// CHECK:           %[[B:.*]] = arith.divui %[[BX]], %c4
// CHECK:           %[[VA:.*]] = memref.view %[[SHARED]][%c0][] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<64x16xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[A:.*]] = memref.memory_space_cast %[[VA]] : memref<64x16xf32, #gpu.address_space<workgroup>> to memref<64x16xf32>
// CHECK:           memref.view %[[SHARED]][%c4096][]
// CHECK:           %[[OFF:.*]] = arith.muli %[[BX]], %c16384
// CHECK:           %[[BIG:.*]] = memref.view %[[SCRATCH]][%[[OFF]]][] : memref<131072xi8> to memref<64x64xf32>
// CHECK:           %[[SRC:.*]] = memref.subview %{{.*}}[%[[B]], %[[H]], 0, 0]
// The copy into shared memory: 16 threads over the 16 columns, 4 over the
// rows (cyclic), then a barrier.
// CHECK:           %[[ROW:.*]] = arith.divui %[[TX]], %c16
// CHECK:           %[[COL:.*]] = arith.remui %[[TX]], %c16
// CHECK:           scf.for %[[I:.*]] = %[[ROW]] to %c64 step %c4
// CHECK:             memref.subview %[[SRC]][%[[I]], %[[COL]]] [1, 1]
// CHECK:             linalg.copy
// CHECK:           gpu.barrier
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[TX]], %c0
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %{{.*}}, %[[A]]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           linalg.fill
// CHECK:           gpu.barrier
// Each thread one output element of the matmul, the reduction whole.
// CHECK:           memref.subview %[[BIG]][%{{.*}}, 0] [1, 64]
// CHECK:           linalg.matmul
// CHECK:           gpu.barrier
// The memref.copy back, as a linalg.copy over the threads.
// CHECK:           linalg.copy
// CHECK:           gpu.barrier
// CHECK-NEXT:      gpu.terminator
// CHECK:         memref.dealloc %[[SCRATCH]]

// -----

// A linalg op outside any forall: ceil(1000 / 64) = 16 blocks, each thread
// one element.
func.func @grid(%out: memref<1000xf32>) {
  %cst = arith.constant 1.0 : f32
  linalg.fill ins(%cst : f32) outs(%out : memref<1000xf32>)
  return
}

// CHECK-LABEL: func.func @grid
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64
// CHECK:           %[[BASE:.*]] = arith.muli %[[BX]], %c64
// CHECK:           %[[ID:.*]] = arith.addi %[[BASE]], %[[TX]]
// CHECK:           %[[IN:.*]] = arith.cmpi slt, %[[ID]], %c1000
// CHECK:           scf.if %[[IN]]
// CHECK:           linalg.fill
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.terminator

// -----

// Sequential host code that writes memory (a running sum): one thread.
func.func @serial(%in: memref<8xi64>, %out: memref<8xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i64
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = memref.load %in[%i] : memref<8xi64>
    %next = arith.addi %acc, %v : i64
    memref.store %next, %out[%i] : memref<8xi64>
    scf.yield %next : i64
  }
  return
}

// CHECK-LABEL: func.func @serial
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK:           scf.for
// CHECK:             memref.store
// CHECK:           gpu.terminator

// -----

// The partial tile at the end of 100 rows in blocks of 64: its temporary
// gets the space of a whole tile (256 bytes) and a view of its own size.
func.func @partial_tile(%out: memref<100xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%i) = (0) to (100) step (64) {
    %n = affine.min affine_map<(d0) -> (64, 100 - d0)>(%i)
    %t = memref.alloc(%n) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%t : memref<?xf32>)
    %dst = memref.subview %out[%i] [%n] [1] : memref<100xf32> to memref<?xf32, strided<[1], offset: ?>>
    memref.copy %t, %dst : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  }
  return
}

// CHECK-LABEL: func.func @partial_tile
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c2, {{.*}} workgroup(%[[SHARED:.*]] : memref<256xi8, #gpu.address_space<workgroup>>)
// CHECK:           %[[N:.*]] = affine.min
// CHECK:           memref.view %[[SHARED]][%c0][%[[N]]] : memref<256xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>

// -----

func.func @unbounded_temporary(%n: index, %out: memref<4x?xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    // expected-error @+1 {{'memref.alloc' op a temporary of a GPU block must have the identity layout and sizes with constant upper bounds, got 'memref<?xf32>'}}
    %t = memref.alloc(%n) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%t : memref<?xf32>)
  }
  return
}
