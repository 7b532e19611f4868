// RUN: mixer-opt %s --split-input-file --mixer-prefetch-rows | FileCheck %s
// RUN: mixer-opt %s --split-input-file --mixer-prefetch-rows="line-bytes=128" | FileCheck %s --check-prefix=LINE128

// The micro-kernel's K loop after bufferization: each step reads row k of
// the panel (a one-row subview of the expert's weights, [K, 32] of a
// [K, N] row-major buffer). Marked with mixer.prefetch_rows_ahead = 256, it
// also prefetches row k + 256 of that buffer (the next expert's same
// columns), one prefetch per 64-byte line of the 32 floats: columns 0 and
// 16 of the panel, into L2 (locality 2). The lhs reads ([0, k] of a column
// subview) get none, and the attribute is gone.

// CHECK-LABEL: func.func @k_loop_subview
// CHECK-SAME:    (%[[PANEL:[^:]*]]: memref<256x32xf32, strided<[256, 1], offset: ?>>, %[[LHS:[^:]*]]: memref<14x256xf32, strided<[256, 1], offset: ?>>
// CHECK:       scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK:         %[[AHEAD:.+]] = arith.constant 256 : index
// CHECK:         %[[ROW:.+]] = arith.addi %[[K]], %[[AHEAD]] : index
// CHECK:         %[[COL0:.+]] = arith.constant 0 : index
// CHECK:         memref.prefetch %[[PANEL]][%[[ROW]], %[[COL0]]], read, locality<2>, data
// CHECK:         %[[COL16:.+]] = arith.constant 16 : index
// CHECK:         memref.prefetch %[[PANEL]][%[[ROW]], %[[COL16]]], read, locality<2>, data
// CHECK-NOT:     memref.prefetch
// CHECK:         vector.transfer_read
// CHECK-NOT:   mixer.prefetch_rows_ahead
// LINE128-LABEL: func.func @k_loop_subview
// LINE128:       memref.prefetch
// LINE128-NOT:   memref.prefetch
// LINE128:       return
func.func @k_loop_subview(%panel: memref<256x32xf32, strided<[256, 1], offset: ?>>, %lhs: memref<14x256xf32, strided<[256, 1], offset: ?>>, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%a = %acc) -> (vector<32xf32>) {
    %l = memref.subview %lhs[0, %k] [14, 1] [1, 1] : memref<14x256xf32, strided<[256, 1], offset: ?>> to memref<14x1xf32, strided<[256, 1], offset: ?>>
    %w = memref.subview %panel[%k, 0] [1, 32] [1, 1] : memref<256x32xf32, strided<[256, 1], offset: ?>> to memref<1x32xf32, strided<[256, 1], offset: ?>>
    %lv = vector.transfer_read %l[%c0, %c0], %zero {in_bounds = [true, true]} : memref<14x1xf32, strided<[256, 1], offset: ?>>, vector<14x1xf32>
    %wv = vector.transfer_read %w[%c0, %c0], %zero {in_bounds = [true, true]} : memref<1x32xf32, strided<[256, 1], offset: ?>>, vector<1x32xf32>
    %x = vector.extract %lv[0, 0] : f32 from vector<14x1xf32>
    %b = vector.broadcast %x : f32 to vector<32xf32>
    %y = vector.extract %wv[0] : vector<32xf32> from vector<1x32xf32>
    %f = vector.fma %b, %y, %a : vector<32xf32>
    scf.yield %f : vector<32xf32>
  } {mixer.prefetch_rows_ahead = 256 : i64}
  return %r : vector<32xf32>
}

// -----

// A negative R prefetches the rows before: row k - 16 (a loop whose blocks
// run from the last, as the selective scan's backward).

// CHECK-LABEL: func.func @rows_before
// CHECK-SAME:    (%[[ROWS:[^:]*]]: memref<64x16xf32, strided<[256, 1], offset: ?>>
// CHECK:       scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK:         %[[BEFORE:.+]] = arith.constant -16 : index
// CHECK:         %[[ROW:.+]] = arith.addi %[[K]], %[[BEFORE]] : index
// CHECK:         memref.prefetch %[[ROWS]][%[[ROW]], %{{.+}}], read, locality<2>, data
// CHECK-NOT:     memref.prefetch
// CHECK-NOT:   mixer.prefetch_rows_ahead
func.func @rows_before(%rows: memref<64x16xf32, strided<[256, 1], offset: ?>>, %acc: vector<16xf32>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %acc) -> (vector<16xf32>) {
    %w = memref.subview %rows[%k, 0] [1, 16] [1, 1] : memref<64x16xf32, strided<[256, 1], offset: ?>> to memref<1x16xf32, strided<[256, 1], offset: ?>>
    %wv = vector.transfer_read %w[%c0, %c0], %zero {in_bounds = [true, true]} : memref<1x16xf32, strided<[256, 1], offset: ?>>, vector<1x16xf32>
    %y = vector.extract %wv[0] : vector<16xf32> from vector<1x16xf32>
    %f = arith.addf %y, %a : vector<16xf32>
    scf.yield %f : vector<16xf32>
  } {mixer.prefetch_rows_ahead = -16 : i64}
  return %r : vector<16xf32>
}

// -----

// A row read from the buffer itself at [k, c]: prefetched at [k + 64, c]
// and [k + 64, c + 16].

// CHECK-LABEL: func.func @k_loop_direct
// CHECK-SAME:    (%[[W:[^:]*]]: memref<64x32xf32>, %[[C:[^:]*]]: index
// CHECK:       scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK:         %[[ROW:.+]] = arith.addi %[[K]], %{{.+}} : index
// CHECK:         memref.prefetch %[[W]][%[[ROW]], %[[C]]], read, locality<2>, data
// CHECK:         %[[C16:.+]] = arith.addi %[[C]], %{{.+}} : index
// CHECK:         memref.prefetch %[[W]][%[[ROW]], %[[C16]]], read, locality<2>, data
func.func @k_loop_direct(%w: memref<64x32xf32>, %c: index, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %acc) -> (vector<32xf32>) {
    %wv = vector.transfer_read %w[%k, %c], %zero {in_bounds = [true, true]} : memref<64x32xf32>, vector<1x32xf32>
    %y = vector.extract %wv[0] : vector<32xf32> from vector<1x32xf32>
    %f = arith.addf %y, %a : vector<32xf32>
    scf.yield %f : vector<32xf32>
  } {mixer.prefetch_rows_ahead = 64 : i64}
  return %r : vector<32xf32>
}

// -----

// Without the attribute: no prefetch.

// CHECK-LABEL: func.func @unmarked
// CHECK-NOT:   memref.prefetch
func.func @unmarked(%w: memref<64x32xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %acc) -> (vector<32xf32>) {
    %wv = vector.transfer_read %w[%k, %c0], %zero {in_bounds = [true, true]} : memref<64x32xf32>, vector<1x32xf32>
    %y = vector.extract %wv[0] : vector<32xf32> from vector<1x32xf32>
    %f = arith.addf %y, %a : vector<32xf32>
    scf.yield %f : vector<32xf32>
  }
  return %r : vector<32xf32>
}

// -----

// The row loop of a scan's chunk copy: each step copies row r of the
// chunk's tokens (a [64, 64] subview of a time-major input, rows 512 floats
// apart) into a local buffer. It prefetches row r + 64 of the input (the
// next chunk's row), one read prefetch per line; the local buffer gets
// none. A copy out of a local tile into the output prefetches the output's
// row r + 64 for writing.

// CHECK-LABEL: func.func @copy_rows
// CHECK-SAME:    (%[[X:[^:]*]]: memref<64x64xf32, strided<[512, 1], offset: ?>>, %[[Y:[^:]*]]: memref<64x64xf32, strided<[512, 1], offset: ?>>
// CHECK:       %[[BUF:.+]] = memref.alloca() : memref<64x64xf32>
// CHECK:       scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:         %[[ROW:.+]] = arith.addi %[[R]], %{{.+}} : index
// CHECK-COUNT-4: memref.prefetch %[[X]][%[[ROW]], %{{.+}}], read, locality<2>, data
// CHECK-NOT:     memref.prefetch
// CHECK:         memref.copy
// CHECK:       scf.for %[[R2:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:         %[[ROW2:.+]] = arith.addi %[[R2]], %{{.+}} : index
// CHECK-COUNT-4: memref.prefetch %[[Y]][%[[ROW2]], %{{.+}}], write, locality<2>, data
// CHECK-NOT:     memref.prefetch
// CHECK:         memref.copy
// CHECK-NOT:   mixer.prefetch_rows_ahead
func.func @copy_rows(%x: memref<64x64xf32, strided<[512, 1], offset: ?>>, %y: memref<64x64xf32, strided<[512, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %buf = memref.alloca() : memref<64x64xf32>
  scf.for %r = %c0 to %c64 step %c1 {
    %src = memref.subview %x[%r, 0] [1, 64] [1, 1] : memref<64x64xf32, strided<[512, 1], offset: ?>> to memref<1x64xf32, strided<[512, 1], offset: ?>>
    %dst = memref.subview %buf[%r, 0] [1, 64] [1, 1] : memref<64x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
    memref.copy %src, %dst : memref<1x64xf32, strided<[512, 1], offset: ?>> to memref<1x64xf32, strided<[64, 1], offset: ?>>
  } {mixer.prefetch_rows_ahead = 64 : i64}
  scf.for %r = %c0 to %c64 step %c1 {
    %src = memref.subview %buf[%r, 0] [1, 64] [1, 1] : memref<64x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
    %dst = memref.subview %y[%r, 0] [1, 64] [1, 1] : memref<64x64xf32, strided<[512, 1], offset: ?>> to memref<1x64xf32, strided<[512, 1], offset: ?>>
    memref.copy %src, %dst : memref<1x64xf32, strided<[64, 1], offset: ?>> to memref<1x64xf32, strided<[512, 1], offset: ?>>
  } {mixer.prefetch_rows_ahead = 64 : i64}
  return
}

// -----

// A K loop whose right-hand side is a buffer the function allocates (a
// packed panel): the rows past it are nothing a later step reads, so no
// prefetch, and the attribute is gone.

// CHECK-LABEL: func.func @local_panel
// CHECK-NOT:   memref.prefetch
// CHECK-NOT:   mixer.prefetch_rows_ahead
// CHECK:       return
func.func @local_panel(%acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %w = memref.alloc() : memref<64x32xf32>
  %r = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %acc) -> (vector<32xf32>) {
    %wv = vector.transfer_read %w[%k, %c0], %zero {in_bounds = [true, true]} : memref<64x32xf32>, vector<1x32xf32>
    %y = vector.extract %wv[0] : vector<32xf32> from vector<1x32xf32>
    %f = arith.addf %y, %a : vector<32xf32>
    scf.yield %f : vector<32xf32>
  } {mixer.prefetch_rows_ahead = 64 : i64}
  memref.dealloc %w : memref<64x32xf32>
  return %r : vector<32xf32>
}

// -----

// The same loop asked (mixer.prefetch_panel_rows = 16) for its panel's own
// rows 16 ahead into L1 (locality 3): a local panel counts, as the rows
// ahead are those the next steps read. One prefetch per 64-byte line of the
// 32 floats; the L2 request beside it still skips the local buffer; both
// attributes are gone.

// CHECK-LABEL: func.func @local_panel_into_l1
// CHECK:       %[[W:.+]] = memref.alloc() : memref<64x32xf32>
// CHECK:       scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK:         %[[AHEAD:.+]] = arith.constant 16 : index
// CHECK:         %[[ROW:.+]] = arith.addi %[[K]], %[[AHEAD]] : index
// CHECK:         %[[COL0:.+]] = arith.constant 0 : index
// CHECK:         memref.prefetch %[[W]][%[[ROW]], %[[COL0]]], read, locality<3>, data
// CHECK:         %[[COL16:.+]] = arith.constant 16 : index
// CHECK:         memref.prefetch %[[W]][%[[ROW]], %[[COL16]]], read, locality<3>, data
// CHECK-NOT:     memref.prefetch
// CHECK:         vector.transfer_read
// CHECK-NOT:   mixer.prefetch_panel_rows
// CHECK-NOT:   mixer.prefetch_rows_ahead
// CHECK:       return
func.func @local_panel_into_l1(%acc: vector<32xf32>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %w = memref.alloc() : memref<64x32xf32>
  %r = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %acc) -> (vector<32xf32>) {
    %wv = vector.transfer_read %w[%k, %c0], %zero {in_bounds = [true, true]} : memref<64x32xf32>, vector<1x32xf32>
    %y = vector.extract %wv[0] : vector<32xf32> from vector<1x32xf32>
    %f = arith.addf %y, %a : vector<32xf32>
    scf.yield %f : vector<32xf32>
  } {mixer.prefetch_panel_rows = 16 : i64, mixer.prefetch_rows_ahead = 64 : i64}
  memref.dealloc %w : memref<64x32xf32>
  return %r : vector<32xf32>
}

// -----

// A row loop whose rows are read in column tiles (AVX2's tiles of 16 floats
// of an element-wise map over a chunk's 64-float rows): each step reads the
// whole row of the time-major input through the nested loop, so it
// prefetches the four lines of row r + 8 once, from the step's start. A
// column loop with a bound unknown there gets none.

// CHECK-LABEL: func.func @column_tiles
// CHECK-SAME:    (%[[X:[^:]*]]: memref<8x64xf32, strided<[512, 1], offset: ?>>
// CHECK:       scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:         %[[ROW:.+]] = arith.addi %[[R]], %{{.+}} : index
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         memref.prefetch %[[X]][%[[ROW]], %[[C0]]], read, locality<2>, data
// CHECK:         %[[C16:.+]] = arith.constant 16 : index
// CHECK:         memref.prefetch %[[X]][%[[ROW]], %[[C16]]], read, locality<2>, data
// CHECK:         %[[C32:.+]] = arith.constant 32 : index
// CHECK:         memref.prefetch %[[X]][%[[ROW]], %[[C32]]], read, locality<2>, data
// CHECK:         %[[C48:.+]] = arith.constant 48 : index
// CHECK:         memref.prefetch %[[X]][%[[ROW]], %[[C48]]], read, locality<2>, data
// CHECK-NOT:     memref.prefetch
// CHECK:         scf.for
// CHECK:           vector.transfer_read
// CHECK:       scf.for
// CHECK-NOT:     memref.prefetch
// CHECK:       return
func.func @column_tiles(%x: memref<8x64xf32, strided<[512, 1], offset: ?>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloca() : memref<8x64xf32>
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c64 step %c16 {
      %src = memref.subview %x[%r, %j] [1, 16] [1, 1] : memref<8x64xf32, strided<[512, 1], offset: ?>> to memref<1x16xf32, strided<[512, 1], offset: ?>>
      %dst = memref.subview %buf[%r, %j] [1, 16] [1, 1] : memref<8x64xf32> to memref<1x16xf32, strided<[64, 1], offset: ?>>
      %v = vector.transfer_read %src[%c0, %c0], %zero {in_bounds = [true, true]} : memref<1x16xf32, strided<[512, 1], offset: ?>>, vector<1x16xf32>
      %s = arith.mulf %v, %v : vector<1x16xf32>
      vector.transfer_write %s, %dst[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf32>, memref<1x16xf32, strided<[64, 1], offset: ?>>
    }
  } {mixer.prefetch_rows_ahead = 8 : i64}
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %n step %c16 {
      %src = memref.subview %x[%r, %j] [1, 16] [1, 1] : memref<8x64xf32, strided<[512, 1], offset: ?>> to memref<1x16xf32, strided<[512, 1], offset: ?>>
      %dst = memref.subview %buf[%r, %j] [1, 16] [1, 1] : memref<8x64xf32> to memref<1x16xf32, strided<[64, 1], offset: ?>>
      memref.copy %src, %dst : memref<1x16xf32, strided<[512, 1], offset: ?>> to memref<1x16xf32, strided<[64, 1], offset: ?>>
    }
  } {mixer.prefetch_rows_ahead = 8 : i64}
  return
}
