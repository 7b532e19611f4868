// RUN: mixer-opt %s --mixer-vectorize-cpu="block-accumulators=16" | FileCheck %s
// RUN: mixer-opt %s --mixer-vectorize-cpu="vector-width=8 row-tile=4 block-accumulators=8" | FileCheck %s --check-prefix=SMALL
// RUN: mixer-opt %s --mixer-vectorize-cpu="vector-width=8 row-tile=6 block-accumulators=12" | FileCheck %s --check-prefix=SIX

#ik = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#ij = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>

// A contraction out[i, j] += lhs[i, k] * rhs[k, j] is tiled to 8 x 32
// register blocks (row-tile x 2 * vector-width) over one k at a time. The
// accumulator block is read before the k loop, carried as a vector iter_arg
// and written back after it; each k step is 8 broadcast-and-FMA rows.

// CHECK-LABEL: func.func @contraction
// CHECK-SAME:    (%[[A:[^:]*]]: tensor<64x64xf32>, %[[B:[^:]*]]: tensor<64x64xf32>, %[[C:[^:]*]]: tensor<64x64xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C64]] step %[[C8]] iter_args(%{{.*}} = %[[C]])
// CHECK:           scf.for %[[J:.*]] = %[[C0]] to %[[C64]] step %[[C32]] iter_args(%[[OUT:.*]] = %{{.*}})
// CHECK:             %[[TILE:.*]] = tensor.extract_slice %[[OUT]][%[[I]], %[[J]]] [8, 32] [1, 1]
// CHECK:             %[[ACC0:.*]] = vector.transfer_read %[[TILE]][%[[C0]], %[[C0]]]{{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK:             %[[K:.*]]:3 = scf.for %[[KI:.*]] = %[[C0]] to %[[C64]] step %[[C1]] iter_args({{.*}}, %[[ACC:.*]] = %[[ACC0]]) -> ({{.*}}, vector<8x32xf32>)
// CHECK-DAG:           %[[LT:.*]] = tensor.extract_slice %[[A]][%[[I]], %[[KI]]] [8, 1] [1, 1]
// CHECK-DAG:           %[[RT:.*]] = tensor.extract_slice %[[B]][%[[KI]], %[[J]]] [1, 32] [1, 1]
// CHECK-DAG:           %[[LV:.*]] = vector.transfer_read %[[LT]]{{.*}} : tensor<8x1xf32>, vector<8x1xf32>
// CHECK-DAG:           %[[RV:.*]] = vector.transfer_read %[[RT]]{{.*}} : tensor<1x32xf32>, vector<1x32xf32>
// CHECK:               %[[ROW:.*]] = vector.extract %[[RV]][0] : vector<32xf32> from vector<1x32xf32>
// CHECK-NOT:           vector.contract
// CHECK-NOT:           vector.transfer_write
// CHECK:               %[[L0:.*]] = vector.extract %[[LV]][0, 0] : f32 from vector<8x1xf32>
// CHECK-NEXT:          %[[L0B:.*]] = vector.broadcast %[[L0]] : f32 to vector<32xf32>
// CHECK-NEXT:          %[[A0:.*]] = vector.extract %[[ACC]][0] : vector<32xf32> from vector<8x32xf32>
// CHECK-NEXT:          %[[F0:.*]] = vector.fma %[[L0B]], %[[ROW]], %[[A0]] : vector<32xf32>
// CHECK-COUNT-7:       vector.fma %{{.*}}, %[[ROW]], %{{.*}} : vector<32xf32>
// CHECK-NOT:           vector.fma
// CHECK:               %[[NACC:.*]] = vector.insert %{{.*}}, %{{.*}} [7] : vector<32xf32> into vector<8x32xf32>
// CHECK-NEXT:          scf.yield %{{.*}}, %{{.*}}, %[[NACC]] : tensor<64x64xf32>, tensor<8x32xf32>, vector<8x32xf32>
// CHECK:             %[[W:.*]] = vector.transfer_write %[[K]]#2, %[[K]]#1[%[[C0]], %[[C0]]]{{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK-NEXT:        tensor.insert_slice %[[W]] into %[[K]]#0[%[[I]], %[[J]]] [8, 32] [1, 1]

// The block follows the options: 4 x 16 with vector-width=8, row-tile=4.
// SMALL-LABEL: func.func @contraction
// SMALL:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4
// SMALL:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// SMALL:             scf.for {{.*}} -> ({{.*}}, vector<4x16xf32>)
// SMALL-COUNT-4:       vector.fma {{.*}} : vector<16xf32>
// SMALL-NOT:           vector.fma
// SMALL:               scf.yield
func.func @contraction(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// Another op is tiled to rows (every dim but the innermost by 1) and
// vectorized: a 64-wide row is at most 4 vectors, so it stays whole.

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<8x64xf32>, %[[O:[^:]*]]: tensor<8x64xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[O]])
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %{{.*}})
// CHECK-DAG:         %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], %[[J]]] [1, 64] [1, 1]
// CHECK-DAG:         %[[OS:.*]] = tensor.extract_slice %[[OUT]][%[[I]], %[[J]]] [1, 64] [1, 1]
// CHECK-DAG:         %[[XV:.*]] = vector.transfer_read %[[XS]]{{.*}} : tensor<1x64xf32>, vector<1x64xf32>
// CHECK-DAG:         %[[OV:.*]] = vector.transfer_read %[[OS]]{{.*}} : tensor<1x64xf32>, vector<1x64xf32>
// CHECK:             %[[E:.*]] = math.exp %[[XV]] : vector<1x64xf32>
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[E]], %[[OV]] : vector<1x64xf32>
// CHECK-NEXT:        %[[W:.*]] = vector.transfer_write %[[M]], %[[OS]]{{.*}} : vector<1x64xf32>, tensor<1x64xf32>
// CHECK-NEXT:        tensor.insert_slice %[[W]] into %[[OUT]][%[[I]], %[[J]]] [1, 64] [1, 1]

// With vector-width=8 a 64-wide row is longer than 4 vectors: tiled by 4
// vectors, 32, since the body has a math op (its polynomial wants that many
// independent vectors).
// SMALL-LABEL: func.func @elementwise
// SMALL:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1
// SMALL:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// SMALL:             math.exp %{{.*}} : vector<1x32xf32>
func.func @elementwise(%a: tensor<8x64xf32>, %b: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x64xf32>) outs(%b : tensor<8x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    %s = arith.mulf %e, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// A body without math ops takes rows of 2 vectors once tiled.

// SMALL-LABEL: func.func @elementwise_without_math
// SMALL:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1
// SMALL:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// SMALL:             arith.mulf %{{.*}} : vector<1x16xf32>
// SMALL-NOT:         vector<1x32xf32>
// SMALL:         return
func.func @elementwise_without_math(%a: tensor<8x64xf32>, %b: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x64xf32>) outs(%b : tensor<8x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// A reduction over the outer dim (sum[i] += exp(s[j, i]), as the online
// log-sum-exp of a transposed block): the loop over the reduced dim j runs
// inside the loop over the row's tiles, so that the accumulator tile is a
// vector carried by that loop, read once before it and written once after.

// SMALL-LABEL: func.func @outer_reduction
// SMALL-SAME:    (%[[S:[^:]*]]: tensor<64x64xf32>, %[[SUM:[^:]*]]: tensor<64xf32>)
// SMALL:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c32 iter_args(%[[OUT:.*]] = %[[SUM]])
// SMALL:           %[[ACC0:.*]] = vector.transfer_read %{{.*}} : tensor<32xf32>, vector<32xf32>
// SMALL:           %[[ACC:.*]]:3 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c1 iter_args({{.*}}, %[[A:[^ ]*]] = %[[ACC0]])
// SMALL:             tensor.extract_slice %[[S]][%[[J]], %[[I]]] [1, 32] [1, 1]
// SMALL:             math.exp %{{.*}} : vector<1x32xf32>
// SMALL:             %[[NEXT:.*]] = arith.addf %{{.*}}, %[[A]] : vector<32xf32>
// SMALL-NEXT:        scf.yield %{{.*}}, %{{.*}}, %[[NEXT]] :
// SMALL:           vector.transfer_write %[[ACC]]#2
func.func @outer_reduction(%s: tensor<64x64xf32>, %sum: tensor<64xf32>) -> tensor<64xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(j, i) -> (j, i)>, affine_map<(j, i) -> (i)>], iterator_types = ["reduction", "parallel"]} ins(%s : tensor<64x64xf32>) outs(%sum : tensor<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %e = math.exp %x : f32
    %a = arith.addf %e, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// Dynamic shapes are left to the scalar loops of the pipeline.

// CHECK-LABEL: func.func @dynamic
// CHECK-NOT:     scf.for
// CHECK-NOT:     vector.
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<?x64xf32>) outs(%{{.*}} : tensor<?x64xf32>)
// CHECK:           arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:         return %[[R]]
func.func @dynamic(%a: tensor<?x64xf32>, %b: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x64xf32>) outs(%b : tensor<?x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// A large contraction is first blocked for the caches (64 x 256 x 256), then
// register-tiled inside each block.
// CHECK-LABEL: func.func @large_contraction_cache_blocks
// CHECK:         scf.for %{{.*}} = %c0 to %c1024 step %c64
// CHECK:           scf.for %{{.*}} = %c0 to %c512 step %c256
// CHECK:             scf.for %{{.*}} = %c0 to %c768 step %c256
// CHECK:               scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK:                 scf.for %{{.*}} = %c0 to %c256 step %c32
// CHECK:                   scf.for %{{.*}} = %c0 to %c256 step %c1
// CHECK:                     vector.fma
func.func @large_contraction_cache_blocks(%a: tensor<1024x768xf32>, %b: tensor<768x512xf32>, %c: tensor<1024x512xf32>) -> tensor<1024x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1024x768xf32>, tensor<768x512xf32>) outs(%c : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  return %r : tensor<1024x512xf32>
}

// A 2-D transpose moves in 16 x 16 blocks (register shuffles), not columns.
// CHECK-LABEL: func.func @transpose_blocks
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c16
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:             vector.transfer_read {{.*}} : tensor<16x16xf32>, vector<16x16xf32>
// CHECK-NOT:         vector<64x1xf32>
// CHECK:             vector.shuffle
// With 8 lanes the blocks are 8 x 8, each 24 shuffles of 8-lane rows
// (unpack, in-lane, cross-lane), not 64 moves of one element.
// SMALL-LABEL: func.func @transpose_blocks
// SMALL:         scf.for %{{.*}} = %c0 to %c64 step %c8
// SMALL:           scf.for %{{.*}} = %c0 to %c32 step %c8
// SMALL:             vector.transfer_read {{.*}} : tensor<8x8xf32>, vector<8x8xf32>
// SMALL-COUNT-24:    vector.shuffle {{.*}} : vector<8xf32>, vector<8xf32>
// SMALL-NOT:         vector.shuffle
// SMALL-NOT:         vector.extract {{.*}} : f32 from
// SMALL:             vector.transfer_write
func.func @transpose_blocks(%a: tensor<32x64xf32>, %o: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %t = linalg.transpose ins(%a : tensor<32x64xf32>) outs(%o : tensor<64x32xf32>) permutation = [1, 0]
  return %t : tensor<64x32xf32>
}

// A dim of 8 (the keys of an 8-token chunk) takes 8 x 8 blocks with 16
// lanes too.
// CHECK-LABEL: func.func @transpose_eight_rows
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK:           vector.transfer_read {{.*}} : tensor<8x8xf32>, vector<8x8xf32>
// CHECK-COUNT-24:  vector.shuffle {{.*}} : vector<8xf32>, vector<8xf32>
// CHECK-NOT:       vector.extract {{.*}} : f32 from
// CHECK:           vector.transfer_write
func.func @transpose_eight_rows(%a: tensor<8x64xf32>, %o: tensor<64x8xf32>) -> tensor<64x8xf32> {
  %t = linalg.transpose ins(%a : tensor<8x64xf32>) outs(%o : tensor<64x8xf32>) permutation = [1, 0]
  return %t : tensor<64x8xf32>
}

// A contraction in blocks one vector wide (48 columns: blocks of 16) takes
// twice the rows, 16 x 16, so that a k step still has 16 independent FMAs.
// With vector-width=8, row-tile=4 the 48 columns are blocks of two vectors:
// 4 x 16 as usual.

// CHECK-LABEL: func.func @one_vector_wide
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// CHECK:             scf.for {{.*}} -> ({{.*}}, vector<16x16xf32>)
// CHECK-COUNT-16:      vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT:           vector.fma
// CHECK:               scf.yield
// SMALL-LABEL: func.func @one_vector_wide
// SMALL:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4
// SMALL:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// SMALL:             scf.for {{.*}} -> ({{.*}}, vector<4x16xf32>)
func.func @one_vector_wide(%a: tensor<16x64xf32>, %b: tensor<64x48xf32>, %c: tensor<16x48xf32>) -> tensor<16x48xf32> {
  %0 = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<16x64xf32>, tensor<64x48xf32>) outs(%c : tensor<16x48xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x48xf32>
  return %0 : tensor<16x48xf32>
}

// A copy that asks for prefetches (a scan's chunk copy) is tiled into rows;
// the attribute goes to the loop over them, where mixer-prefetch-rows finds
// each step's row.
// CHECK-LABEL: func.func @chunk_copy_prefetch
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c1
// CHECK:           scf.for
// CHECK:             tensor.extract_slice %{{.*}}[%[[R]], %{{.*}}] [1, 64] [1, 1]
// CHECK:         } {mixer.prefetch_rows_ahead = 64 : i64}
// CHECK-NOT:     mixer.prefetch_rows_ahead
// SMALL-LABEL: func.func @chunk_copy_prefetch
// SMALL:         } {mixer.prefetch_rows_ahead = 64 : i64}
func.func @chunk_copy_prefetch(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.copy {mixer.prefetch_rows_ahead = 64 : i64} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// The zero fill of a contraction's accumulator goes into each register
// block: the accumulators start as zeros in registers (no pass writing
// zeros to memory, no read of them), and each block is written once, after
// its k loop.
// CHECK-LABEL: func.func @fill_accumulator
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// CHECK-NOT:         vector.transfer_read {{.*}} vector<8x32xf32>
// CHECK:             %[[K:.*]]:{{[0-9]}} = scf.for {{.*}} iter_args({{.*}}%{{.*}} = %[[ZERO]]) -> ({{.*}}vector<8x32xf32>)
// CHECK-COUNT-8:       vector.fma
// CHECK:             vector.transfer_write %[[K]]#{{[0-9]}}, {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// SMALL-LABEL: func.func @fill_accumulator
// SMALL-NOT:     linalg.fill
// SMALL:         scf.for {{.*}} iter_args({{.*}}%{{.*}} = %cst{{.*}}) -> ({{.*}}vector<4x16xf32>)
func.func @fill_accumulator(%a: tensor<16x64xf32>, %b: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %0 = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<16x64xf32>, tensor<64x64xf32>) outs(%c : tensor<16x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// A scan's state update S = d S + K^T U: the in-place scaling of the state
// is computed per register block, on the block's accumulators right after
// they are read and before its k loop, not as a pass of its own.
// CHECK-LABEL: func.func @scaled_accumulator
// CHECK-SAME:    %[[D:[^:]*]]: f32)
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// CHECK:             %[[ACC0:.*]] = vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK:             %[[DV:.*]] = vector.broadcast %[[D]] : f32 to vector<8x32xf32>
// CHECK:             %[[SCALED:.*]] = arith.mulf %[[ACC0]], %[[DV]] : vector<8x32xf32>
// CHECK:             scf.for %{{.*}} = %{{.*}} to %c16 step %c1 iter_args({{.*}}%{{.*}} = %[[SCALED]]) -> ({{.*}}vector<8x32xf32>)
// CHECK-COUNT-8:       vector.fma
func.func @scaled_accumulator(%kw: tensor<16x64xf32>, %u: tensor<16x64xf32>, %st: tensor<64x64xf32>, %d: f32) -> tensor<64x64xf32> {
  %s = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%st : tensor<64x64xf32>) {
  ^bb0(%o: f32):
    %m = arith.mulf %o, %d : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%kw, %u : tensor<16x64xf32>, tensor<16x64xf32>) outs(%s : tensor<64x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// An accumulator that another op also reads is made once, by a pass of its
// own: each block reads it.
// CHECK-LABEL: func.func @shared_accumulator
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             arith.mulf {{.*}} : vector<1x64xf32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[ACC0:.*]] = vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK-NEXT:        scf.for {{.*}} iter_args({{.*}}%{{.*}} = %[[ACC0]]) -> ({{.*}}vector<8x32xf32>)
func.func @shared_accumulator(%kw: tensor<16x64xf32>, %u: tensor<16x64xf32>, %st: tensor<64x64xf32>, %d: f32) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %s = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%st : tensor<64x64xf32>) {
  ^bb0(%o: f32):
    %m = arith.mulf %o, %d : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%kw, %u : tensor<16x64xf32>, tensor<16x64xf32>) outs(%s : tensor<64x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  return %0, %s : tensor<64x64xf32>, tensor<64x64xf32>
}

// A contraction of one row (a row of a triangular solve) takes the whole
// 64 columns in one block, 4 vectors (8 with vector-width=8): four
// independent FMAs per k step, where a block of two vectors had two.
// CHECK-LABEL: func.func @single_row
// CHECK-NOT:     step %c32
// CHECK:         scf.for {{.*}} -> ({{.*}}vector<1x64xf32>)
// CHECK:           vector.fma {{.*}} : vector<64xf32>
// SMALL-LABEL: func.func @single_row
// SMALL-NOT:     step %c16
// SMALL:         scf.for {{.*}} -> ({{.*}}vector<1x64xf32>)
func.func @single_row(%a: tensor<1x16xf32>, %b: tensor<16x64xf32>, %c: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %0 = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<1x16xf32>, tensor<16x64xf32>) outs(%c : tensor<1x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  return %0 : tensor<1x64xf32>
}

// A copy that makes the accumulator (a row of a triangular solve, copied
// out of the rows being solved) goes into the block too: the accumulators
// start as a read of the copy's source, with no copy written and read back.
// CHECK-LABEL: func.func @copied_accumulator
// CHECK-SAME:    (%{{[^:]*}}: tensor<1x16xf32>, %[[X:[^:]*]]: tensor<16x64xf32>)
// CHECK-NOT:     linalg.copy
// CHECK:         %[[ROW:.*]] = tensor.extract_slice %[[X]][0, 0] [1, 64] [1, 1]
// CHECK:         %[[ACC0:.*]] = vector.transfer_read %[[ROW]]{{.*}} : tensor<1x64xf32>, vector<1x64xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}%{{.*}} = %[[ACC0]]) -> ({{.*}}vector<1x64xf32>)
func.func @copied_accumulator(%a: tensor<1x16xf32>, %x: tensor<16x64xf32>) -> tensor<1x64xf32> {
  %row = tensor.extract_slice %x[0, 0] [1, 64] [1, 1] : tensor<16x64xf32> to tensor<1x64xf32>
  %e = tensor.empty() : tensor<1x64xf32>
  %c = linalg.copy ins(%row : tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %0 = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %x : tensor<1x16xf32>, tensor<16x64xf32>) outs(%c : tensor<1x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  return %0 : tensor<1x64xf32>
}

// Blocks of 6 rows (AVX2's 12 accumulators) do not divide 64: the
// contraction splits into rows 0-59, in 6-row blocks, and rows 60-63, in a
// block of 4, which accumulates into the first part's result.
// SIX-LABEL: func.func @split_rows
// SIX-SAME:    %[[C:[^:]*]]: tensor<64x64xf32>)
// SIX:         %[[TOP:.*]] = tensor.extract_slice %[[C]][0, 0] [60, 64] [1, 1]
// SIX:         %[[FIRST:.*]] = scf.for %{{.*}} = %{{.*}} to %c60 step %c6 iter_args(%{{.*}} = %[[TOP]])
// SIX:           scf.for {{.*}} -> ({{.*}}vector<6x16xf32>)
// SIX-COUNT-6:     vector.fma {{.*}} : vector<16xf32>
// SIX-NOT:         vector.fma
// SIX:         %[[WITH_TOP:.*]] = tensor.insert_slice %[[FIRST]] into %[[C]][0, 0] [60, 64] [1, 1]
// SIX:         %[[BOTTOM:.*]] = tensor.extract_slice %[[WITH_TOP]][60, 0] [4, 64] [1, 1]
// SIX:         %[[REST:.*]] = scf.for %{{.*}} = %{{.*}} to %c4 step %c4 iter_args(%{{.*}} = %[[BOTTOM]])
// SIX:           scf.for {{.*}} -> ({{.*}}vector<4x16xf32>)
// SIX-COUNT-4:     vector.fma {{.*}} : vector<16xf32>
// SIX-NOT:         vector.fma
// SIX:         %[[ALL:.*]] = tensor.insert_slice %[[REST]] into %[[WITH_TOP]][60, 0] [4, 64] [1, 1]
// SIX:         return %[[ALL]]
func.func @split_rows(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// The op that makes the accumulator splits with the contraction: each
// part's blocks start from zeros in registers.
// SIX-LABEL: func.func @split_rows_fill
// SIX-DAG:     %[[ZERO6:.*]] = arith.constant dense<0.000000e+00> : vector<6x16xf32>
// SIX-DAG:     %[[ZERO4:.*]] = arith.constant dense<0.000000e+00> : vector<4x16xf32>
// SIX-NOT:     linalg.fill
// SIX:         scf.for %{{.*}} = %{{.*}} to %c60 step %c6
// SIX:           scf.for {{.*}} iter_args({{.*}}%{{.*}} = %[[ZERO6]]) -> ({{.*}}vector<6x16xf32>)
// SIX:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [60, 64] [1, 1]
// SIX:         scf.for %{{.*}} = %{{.*}} to %c4 step %c4
// SIX:           scf.for {{.*}} iter_args({{.*}}%{{.*}} = %[[ZERO4]]) -> ({{.*}}vector<4x16xf32>)
// SIX:         tensor.insert_slice %{{.*}} into %{{.*}}[60, 0] [4, 64] [1, 1]
func.func @split_rows_fill(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// A reduction of 8 steps (a chunk's state update) keeps power-of-two
// blocks: 4 rows, no split.
// SIX-LABEL: func.func @short_reduction
// SIX-NOT:     tensor.insert_slice {{.*}} [60, 64]
// SIX:         scf.for %{{.*}} = %{{.*}} to %c64 step %c4
// SIX:           scf.for {{.*}} -> ({{.*}}vector<4x16xf32>)
// SIX-NOT:     vector<6x16xf32>
func.func @short_reduction(%a: tensor<64x8xf32>, %b: tensor<8x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x8xf32>, tensor<8x64xf32>) outs(%c : tensor<64x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// A chunk product of 8 rows (gated_delta_rule's 8-token chunks times its
// state): one 6-row block, then the 2 rows left in a block of their own,
// twice as wide (2 x 4 vectors: 8 accumulators), not two 4-row blocks.
// SIX-LABEL: func.func @split_chunk_rows
// SIX:         scf.for %{{.*}} = %{{.*}} to %c6 step %c6
// SIX:           scf.for {{.*}} -> ({{.*}}vector<6x16xf32>)
// SIX:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [6, 64] [1, 1]
// SIX:         scf.for %{{.*}} = %{{.*}} to %c2 step %c2
// SIX:           scf.for {{.*}} -> ({{.*}}vector<2x32xf32>)
// SIX:         tensor.insert_slice %{{.*}} into %{{.*}}[6, 0] [2, 64] [1, 1]
// SIX-NOT:     vector<4x16xf32>
func.func @split_chunk_rows(%a: tensor<8x64xf32>, %b: tensor<64x64xf32>, %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<8x64xf32>, tensor<64x64xf32>) outs(%c : tensor<8x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
