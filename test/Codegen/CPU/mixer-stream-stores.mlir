// RUN: mixer-opt %s --split-input-file --mixer-stream-stores="min-bytes=65536" | FileCheck %s
// RUN: mixer-opt %s --split-input-file --mixer-stream-stores | FileCheck %s --check-prefix=L2

// A chunk's rows scaled into a 128 KiB output that the function only
// writes: each 256-byte row becomes a nontemporal store behind the check
// that it starts a 64-byte line (the original write stays as the other
// branch); one fence follows the loop.

// CHECK-LABEL: func.func @copy_rows
// CHECK-SAME:    (%[[SRC:[^:]*]]: memref<8x64xf32>, %[[OUT:[^:]*]]: memref<512x64xf32>
// CHECK:       %[[SUB:.+]] = memref.subview %[[OUT]]
// CHECK:       scf.for %[[I:[^ ]+]] =
// CHECK:         %[[IN:.+]] = vector.transfer_read %[[SRC]][%[[I]]
// CHECK:         %[[ROW:.+]] = arith.mulf %[[IN]], %[[IN]]
// CHECK:         %{{.+}}, %[[OFF:.+]], %{{.+}}:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata %[[SUB]]
// CHECK:         %[[PTR:.+]] = memref.extract_aligned_pointer_as_index %[[SUB]]
// CHECK:         %[[REM:.+]] = arith.remui %{{.+}}, %c64
// CHECK:         %[[ON:.+]] = arith.cmpi eq, %[[REM]], %c0
// CHECK:         scf.if %[[ON]] {
// CHECK-NEXT:      vector.store %[[ROW]], %[[SUB]][%[[I]], %{{.+}}] {alignment = 64 : i64, nontemporal = true} : memref<8x64xf32, strided<[64, 1], offset: ?>>, vector<64xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      vector.transfer_write %[[ROW]], %[[SUB]][%[[I]], %{{.+}}]
// CHECK-NEXT:    }
// CHECK:       }
// CHECK-NEXT:  llvm.fence seq_cst
// CHECK-NEXT:  return
// L2-LABEL: func.func @copy_rows
// L2-NOT:     nontemporal
// L2:         return
func.func @copy_rows(%src: memref<8x64xf32>, %out: memref<512x64xf32>, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %sub = memref.subview %out[%t, 0] [8, 64] [1, 1] : memref<512x64xf32> to memref<8x64xf32, strided<[64, 1], offset: ?>>
  scf.for %i = %c0 to %c8 step %c1 {
    %in = vector.transfer_read %src[%i, %c0], %pad {in_bounds = [true]} : memref<8x64xf32>, vector<64xf32>
    %row = arith.mulf %in, %in : vector<64xf32>
    vector.transfer_write %row, %sub[%i, %c0] {in_bounds = [true]} : vector<64xf32>, memref<8x64xf32, strided<[64, 1], offset: ?>>
  }
  return
}

// -----

// A register tile of 4 rows of 32 floats written after its K loop into
// rows 2 KiB apart: four row stores at rows i .. i + 3 behind one check.
// The fence goes into the parallel iteration, after the op holding the
// stores.

// CHECK-LABEL: func.func @register_tile
// CHECK:       scf.forall
// CHECK:         scf.if %{{.+}} {
// CHECK-NEXT:      %[[R0:.+]] = vector.extract %[[TILE:.+]][0] : vector<32xf32> from vector<4x32xf32>
// CHECK-NEXT:      vector.store %[[R0]], %{{.+}}[%[[I:.+]], %[[J:.+]]] {alignment = 64 : i64, nontemporal = true}
// CHECK-NEXT:      %[[R1:.+]] = vector.extract %[[TILE]][1]
// CHECK:           %[[I1:.+]] = arith.addi %[[I]], %c1
// CHECK-NEXT:      vector.store %[[R1]], %{{.+}}[%[[I1]], %[[J]]] {alignment = 64 : i64, nontemporal = true}
// CHECK:           vector.store
// CHECK:           vector.store
// CHECK-NOT:       vector.store
// CHECK:         } else {
// CHECK-NEXT:      vector.transfer_write %[[TILE]]
// CHECK:         }
// CHECK:         llvm.fence seq_cst
// CHECK-NEXT:  }
// CHECK-NOT:   llvm.fence
// CHECK:       return
func.func @register_tile(%out: memref<256x512xf32>, %acc: vector<4x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.forall (%p) in (2) {
    scf.for %t = %c0 to %c8 step %c1 {
      %i = arith.muli %t, %c8 : index
      %j = arith.muli %p, %c8 : index
      %sum = arith.addf %acc, %acc : vector<4x32xf32>
      vector.transfer_write %sum, %out[%i, %j] {in_bounds = [true, true]} : vector<4x32xf32>, memref<256x512xf32>
    }
  }
  return
}

// -----

// Streamed rows lose their write prefetches where the prefetched row starts
// a line (its stores bypass the caches) and keep them elsewhere; read
// prefetches stay as they are.

// CHECK-LABEL: func.func @write_prefetch
// CHECK:       %[[ON:.+]] = arith.cmpi eq
// CHECK:       %[[OFF:.+]] = arith.xori %[[ON]], %true
// CHECK:       scf.if %[[OFF]] {
// CHECK-NEXT:    memref.prefetch %{{.+}}, write, locality<2>, data
// CHECK-NEXT:  }
// CHECK:       memref.prefetch %{{.+}}, read, locality<2>, data
// CHECK:       vector.store {{.+}}nontemporal = true
func.func @write_prefetch(%src: memref<512x64xf32>, %out: memref<512x64xf32>, %t: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %ahead = arith.addi %t, %c8 : index
  memref.prefetch %out[%ahead, %c0], write, locality<2>, data : memref<512x64xf32>
  memref.prefetch %src[%ahead, %c0], read, locality<2>, data : memref<512x64xf32>
  %in = vector.transfer_read %src[%t, %c0], %pad {in_bounds = [true]} : memref<512x64xf32>, vector<64xf32>
  %row = arith.mulf %in, %in : vector<64xf32>
  vector.transfer_write %row, %out[%t, %c0] {in_bounds = [true]} : vector<64xf32>, memref<512x64xf32>
  return
}

// -----

// Left as they are: an output the function also reads (an accumulator), one
// smaller than min-bytes, rows of 32 bytes (half a line), tile rows 96 bytes
// apart, a masked write, a buffer the function allocates.

// CHECK-LABEL: func.func @not_streamed
// CHECK-NOT:   nontemporal
// CHECK-NOT:   llvm.fence
// CHECK:       return
func.func @not_streamed(%acc: memref<512x64xf32>, %small: memref<64x64xf32>,
                        %half: memref<4096x8xf32>, %odd: memref<2048x24xf32>,
                        %masked: memref<512x64xf32>, %t: index,
                        %m: vector<64xi1>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %in = vector.transfer_read %acc[%t, %c0], %pad {in_bounds = [true]} : memref<512x64xf32>, vector<64xf32>
  %row = arith.mulf %in, %in : vector<64xf32>
  vector.transfer_write %row, %acc[%t, %c0] {in_bounds = [true]} : vector<64xf32>, memref<512x64xf32>
  vector.transfer_write %row, %small[%t, %c0] {in_bounds = [true]} : vector<64xf32>, memref<64x64xf32>
  %eight = vector.extract_strided_slice %row {offsets = [0], sizes = [8], strides = [1]} : vector<64xf32> to vector<8xf32>
  vector.transfer_write %eight, %half[%t, %c0] {in_bounds = [true]} : vector<8xf32>, memref<4096x8xf32>
  %tile = vector.broadcast %pad : f32 to vector<2x16xf32>
  vector.transfer_write %tile, %odd[%t, %c0] {in_bounds = [true, true]} : vector<2x16xf32>, memref<2048x24xf32>
  vector.transfer_write %row, %masked[%t, %c0], %m {in_bounds = [true]} : vector<64xf32>, memref<512x64xf32>
  %local = memref.alloc() : memref<512x64xf32>
  vector.transfer_write %row, %local[%t, %c0] {in_bounds = [true]} : vector<64xf32>, memref<512x64xf32>
  memref.dealloc %local : memref<512x64xf32>
  return
}

// -----

// Rows only moved (a gather, as moe_dispatch's), not computed: the loop is
// bound by memory either way and its output, left in the last-level cache,
// is what the next op reads first. Not streamed.

// CHECK-LABEL: func.func @copy_only
// CHECK-NOT:   nontemporal
// CHECK:       return
func.func @copy_only(%src: memref<512x64xf32>, %out: memref<512x64xf32>, %t: index, %s: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %row = vector.transfer_read %src[%s, %c0], %pad {in_bounds = [true]} : memref<512x64xf32>, vector<64xf32>
  vector.transfer_write %row, %out[%t, %c0] {in_bounds = [true]} : vector<64xf32>, memref<512x64xf32>
  return
}

// -----

// A dynamic shape: its size is tested where the function starts (rows x 64
// floats x 4 bytes against min-bytes), and a row is streamed where it starts
// a line and the buffer is that large; its write prefetches stay where
// either fails.

// CHECK-LABEL: func.func @dynamic_rows
// CHECK-SAME:    (%[[SRC:[^:]*]]: memref<?x64xf32>, %[[OUT:[^:]*]]: memref<?x64xf32>
// CHECK:       %[[C4:.+]] = arith.constant 4 : index
// CHECK:       %[[ROWS:.+]] = memref.dim %[[OUT]], %c0
// CHECK:       %[[B0:.+]] = arith.muli %[[C4]], %[[ROWS]]
// CHECK:       %[[COLS:.+]] = memref.dim %[[OUT]], %c1
// CHECK:       %[[BYTES:.+]] = arith.muli %[[B0]], %[[COLS]]
// CHECK:       %[[LARGE:.+]] = arith.cmpi uge, %[[BYTES]], %c65536
// CHECK:       %[[ON1:.+]] = arith.cmpi eq
// CHECK:       %[[STREAMED:.+]] = arith.andi %[[ON1]], %[[LARGE]]
// CHECK:       %[[CACHED:.+]] = arith.xori %[[STREAMED]], %true
// CHECK:       scf.if %[[CACHED]] {
// CHECK-NEXT:    memref.prefetch %[[OUT]]
// CHECK:       %[[ON2:.+]] = arith.cmpi eq
// CHECK:       %[[STREAM:.+]] = arith.andi %[[ON2]], %[[LARGE]]
// CHECK:       scf.if %[[STREAM]] {
// CHECK-NEXT:    vector.store {{.+}}nontemporal = true
func.func @dynamic_rows(%src: memref<?x64xf32>, %out: memref<?x64xf32>, %t: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %ahead = arith.addi %t, %c8 : index
  memref.prefetch %out[%ahead, %c0], write, locality<2>, data : memref<?x64xf32>
  %in = vector.transfer_read %src[%t, %c0], %pad {in_bounds = [true]} : memref<?x64xf32>, vector<64xf32>
  %row = arith.mulf %in, %in : vector<64xf32>
  vector.transfer_write %row, %out[%t, %c0] {in_bounds = [true]} : vector<64xf32>, memref<?x64xf32>
  return
}

// -----

// Without min-bytes the threshold is the target's L2 per core: 64 KiB here,
// so the 128 KiB output is streamed. A write in the function's body gets
// its fence right after its scf.if.

// L2-LABEL: func.func @target_l2
// L2:         scf.if
// L2-NEXT:      vector.store {{.+}}nontemporal = true
// L2-NEXT:    } else {
// L2-NEXT:      vector.transfer_write
// L2-NEXT:    {{^ *}}}
// L2-NEXT:    llvm.fence seq_cst
// L2-NEXT:    return
module attributes {mixer.target = {l2_cache_bytes = 65536 : i64}} {
  func.func @target_l2(%src: memref<512x64xf32>, %out: memref<512x64xf32>, %t: index) {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %in = vector.transfer_read %src[%t, %c0], %pad {in_bounds = [true]} : memref<512x64xf32>, vector<64xf32>
    %row = arith.mulf %in, %in : vector<64xf32>
    vector.transfer_write %row, %out[%t, %c0] {in_bounds = [true]} : vector<64xf32>, memref<512x64xf32>
    return
  }
}
