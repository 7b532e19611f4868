// RUN: mixer-opt %s --mixer-gpu-launch-to-cpu --split-input-file --verify-diagnostics | FileCheck %s

// A launch of 8 blocks of 64 threads with a workgroup buffer: a loop over
// the blocks, each an omp.parallel of 64 threads sharing one buffer (in
// default memory, allocated once: the blocks run one after another), the
// thread id from omp_get_thread_num, omp.barrier for gpu.barrier.
func.func @launch(%out: memref<8x64xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%shared : memref<256xi8, #gpu.address_space<workgroup>>) {
    %v = memref.view %shared[%c0][] : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %buf = memref.memory_space_cast %v : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
    %f = arith.index_cast %tx : index to i32
    %x = arith.sitofp %f : i32 to f32
    memref.store %x, %buf[%tx] : memref<64xf32>
    gpu.barrier
    %r = arith.subi %c64, %c1 : index
    %mirror = arith.subi %r, %tx : index
    %y = memref.load %buf[%mirror] : memref<64xf32>
    memref.store %y, %out[%bx, %tx] : memref<8x64xf32>
    gpu.terminator
  }
  return
}

// CHECK:       func.func private @omp_get_thread_num() -> i32
// CHECK-LABEL: func.func @launch
// CHECK:         %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// CHECK:         scf.for %[[BID:.*]] = %{{.*}} to %c8 step
// CHECK:           %[[THREADS:.*]] = arith.index_cast %c64 : index to i32
// CHECK:           omp.parallel num_threads(%[[THREADS]] : i32) {
// CHECK:             %[[NUM:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK:             %[[TID:.*]] = arith.index_cast %[[NUM]] : i32 to index
// CHECK:             %[[VIEW:.*]] = memref.view %[[BUF]][%{{.*}}][] : memref<256xi8> to memref<64xf32>
// CHECK:             memref.store %{{.*}}, %[[VIEW]][%[[TID]]]
// CHECK:             omp.barrier
// CHECK:             memref.load %[[VIEW]]
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[BID]], %[[TID]]]
// CHECK:             omp.terminator
// CHECK:         memref.dealloc %[[BUF]]

// -----

func.func @two_dim_grid(%n: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op only synchronous launches over x with workgroup buffers run on the CPU}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %n, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
