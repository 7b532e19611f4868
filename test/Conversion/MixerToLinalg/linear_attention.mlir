// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s

// No decay, scale 1, dynamic L: loops over batches and heads, an scf.for
// over the full chunks (none when L <= recurrent-threshold = 8) and a token
// loop for the rest. The state S [Dk, Dv] starts from zero and is updated in
// place; without log_decay no exp is emitted.

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$KI:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @la_plain
// CHECK-SAME:    (%[[Q:[^:]*]]: tensor<2x?x2x16xf32>, %[[K:[^:]*]]: tensor<2x?x2x16xf32>, %[[V:[^:]*]]: tensor<2x?x2x8xf32>, %[[O0:[^:]*]]: tensor<2x?x2x8xf32>, %[[S0:[^:]*]]: tensor<2x2x16x8xf32>)
// CHECK-NOT:     math.exp
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[L:.*]] = tensor.dim %[[Q]], %[[C1]]
// CHECK:         %[[LONG:.*]] = arith.cmpi ugt, %[[L]], %[[C8]] : index
// CHECK:         %[[NCH:.*]] = arith.select %[[LONG]], %{{.*}}, %[[C0]] : index
// CHECK:         %[[TAIL:.*]] = arith.muli %[[NCH]], %[[C16]] : index
// CHECK:         scf.for %[[BI:.*]] = %[[C0]] to %{{.*}} step %[[C1]] iter_args
// CHECK:           scf.for %[[HI:.*]] = %[[C0]] to %{{.*}} step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %[[SH:.*]] = %{{.*}})
// CHECK:             %[[SA:.*]] = bufferization.alloc_tensor() : tensor<16x8xf32>
// CHECK:             %[[SZ:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[SA]] : tensor<16x8xf32>)
// CHECK:             %[[CH:.*]]:2 = scf.for %[[CI:.*]] = %[[C0]] to %[[NCH]] step %[[C1]] iter_args(%[[OC:.*]] = %{{.*}}, %[[ST:.*]] = %[[SZ]]) -> (tensor<2x?x2x8xf32>, tensor<16x8xf32>)
// CHECK:               %[[T0:.*]] = arith.muli %[[CI]], %[[C16]] : index
// CHECK:               %[[KC:.*]] = tensor.extract_slice %[[K]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 16, 1, 16] [1, 1, 1, 1] : tensor<2x?x2x16xf32> to tensor<16x16xf32>
// CHECK:               %[[VS:.*]] = tensor.extract_slice %[[V]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 16, 1, 8]
// The chunk's copies prefetch the next chunk's rows (16 tokens further).
// CHECK:               %[[VC:.*]] = linalg.copy {mixer.prefetch_rows_ahead = 16 : i64} ins(%[[VS]] : tensor<16x8xf32>)
// CHECK:               %[[QS:.*]] = tensor.extract_slice %[[Q]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 16, 1, 16]
// CHECK:               %[[QC:.*]] = linalg.copy {mixer.prefetch_rows_ahead = 16 : i64} ins(%[[QS]] : tensor<16x16xf32>)
// Scores Q K^T, then the causal mask in place.
// CHECK:               %[[KT:.*]] = linalg.transpose ins(%[[KC]] : tensor<16x16xf32>)
// CHECK:               %[[SC:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[QC]], %[[KT]] : tensor<16x16xf32>, tensor<16x16xf32>)
// CHECK:               %[[M:.*]] = linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[SC]] : tensor<16x16xf32>)
// CHECK-NEXT:          ^bb0(%[[SV:.*]]: f32):
// CHECK-NEXT:            %[[T:.*]] = linalg.index 0 : index
// CHECK-NEXT:            %[[S:.*]] = linalg.index 1 : index
// CHECK-NEXT:            %[[CAUSAL:.*]] = arith.cmpi ule, %[[S]], %[[T]] : index
// CHECK-NEXT:            %[[MV:.*]] = arith.select %[[CAUSAL]], %[[SV]], %[[ZERO]] : f32
// CHECK-NEXT:            linalg.yield %[[MV]] : f32
// Intra-chunk (M V) and inter-chunk (Q S) into one local output block.
// CHECK:               %[[OI:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[M]], %[[VC]] : tensor<16x16xf32>, tensor<16x8xf32>)
// CHECK:               %[[OB:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[QC]], %[[ST]] : tensor<16x16xf32>, tensor<16x8xf32>) outs(%[[OI]] : tensor<16x8xf32>)
// CHECK:               %[[OD:.*]] = tensor.extract_slice %[[OC]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 16, 1, 8]
// CHECK:               %[[OW:.*]] = linalg.copy {mixer.prefetch_rows_ahead = 16 : i64} ins(%[[OB]] : tensor<16x8xf32>) outs(%[[OD]] : tensor<16x8xf32>)
// CHECK:               %[[NO:.*]] = tensor.insert_slice %[[OW]] into %[[OC]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 16, 1, 8]
// State update S += K^T V, in place (transposed lhs).
// CHECK:               %[[NS:.*]] = linalg.generic {indexing_maps = [#[[$KI]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[KC]], %[[VC]] : tensor<16x16xf32>, tensor<16x8xf32>) outs(%[[ST]] : tensor<16x8xf32>)
// CHECK:               scf.yield %[[NO]], %[[NS]]
// Token loop: S += k v^T, o_t = S^T q_t as a [1, Dk] x [Dk, Dv] contraction.
// CHECK:             %[[TOK:.*]]:2 = scf.for %[[TI:.*]] = %[[TAIL]] to %{{.*}} step %[[C1]] iter_args(%{{.*}} = %[[CH]]#0, %[[ST2:.*]] = %[[CH]]#1)
// CHECK:               %[[TS:.*]] = linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<16xf32>, tensor<8xf32>) outs(%[[ST2]] : tensor<16x8xf32>)
// CHECK:               %[[QT:.*]] = tensor.extract_slice %[[Q]][%[[BI]], %[[TI]], %[[HI]], 0] [1, 1, 1, 16] [1, 1, 1, 1] : tensor<2x?x2x16xf32> to tensor<1x16xf32>
// CHECK:               linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[QT]], %[[TS]] : tensor<1x16xf32>, tensor<16x8xf32>)
// CHECK:             tensor.insert_slice %[[TOK]]#1 into %{{.*}}[%[[BI]], %[[HI]], 0, 0] [1, 1, 16, 8]
// CHECK-NOT:   mixer.linear_attention
// scan_head_block_limit = 1: one head at a time, the order these checks
// follow (scan_heads_inner.mlir checks a block of heads per chunk).
module attributes {mixer.target = {scan_head_block_limit = 1 : i64}} {
func.func @la_plain(%q: tensor<2x?x2x16xf32>, %k: tensor<2x?x2x16xf32>, %v: tensor<2x?x2x8xf32>,
                    %o0: tensor<2x?x2x8xf32>, %s0: tensor<2x2x16x8xf32>)
    -> (tensor<2x?x2x8xf32>, tensor<2x2x16x8xf32>) {
  %o, %s = mixer.linear_attention chunk_size(16)
      ins(%q, %k, %v : tensor<2x?x2x16xf32>, tensor<2x?x2x16xf32>, tensor<2x?x2x8xf32>)
      outs(%o0, %s0 : tensor<2x?x2x8xf32>, tensor<2x2x16x8xf32>)
      -> tensor<2x?x2x8xf32>, tensor<2x2x16x8xf32>
  return %o, %s : tensor<2x?x2x8xf32>, tensor<2x2x16x8xf32>
}
}

// -----

// Decay, init, scale and window 5 (shift 6), L = 100, Q = 32. The first 6
// outputs read init; keys 0..63 run as 2 chunks whose queries and outputs
// are 6 tokens later; keys 64..93 token by token with outputs; keys 94..99
// only update the state (no full chunk of them: a loop of 0 chunks, then 6
// tokens).

// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$KI:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @la_window
// CHECK-SAME:    (%[[Q:[^:]*]]: tensor<1x100x2x16xf32>, %[[K:[^:]*]]: tensor<1x100x2x16xf32>, %[[V:[^:]*]]: tensor<1x100x2x8xf32>, %[[LD:[^:]*]]: tensor<1x100x2xf32>, %[[INIT:[^:]*]]: tensor<1x2x16x8xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C94:.*]] = arith.constant 94 : index
// CHECK-DAG:     %[[C100:.*]] = arith.constant 100 : index
// CHECK:         scf.for %[[BI:.*]] = %[[C0]] to %[[C1]]
// CHECK:           scf.for %[[HI:.*]] = %[[C0]] to %[[C2]]
// The state starts as a copy of init.
// CHECK:             %[[IS:.*]] = tensor.extract_slice %[[INIT]][%[[BI]], %[[HI]], 0, 0] [1, 1, 16, 8] [1, 1, 1, 1] : tensor<1x2x16x8xf32> to tensor<16x8xf32>
// CHECK:             %[[S0:.*]] = linalg.copy ins(%[[IS]] : tensor<16x8xf32>)
// Prefix: o_t = 0.5 * init^T q_t for t < 6.
// CHECK:             %[[PRE:.*]] = scf.for %[[PT:.*]] = %[[C0]] to %[[C6]] step %[[C1]]
// CHECK:               linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #{{.*}}], {{.*}} ins(%{{.*}}, %[[S0]] : tensor<1x16xf32>, tensor<16x8xf32>)
// Chunks: keys at 32 c, queries and outputs at 32 c + 6; f64 prefix sums of
// the decays; the decay mask with the scale folded in.
// CHECK:             %[[CH:.*]]:2 = scf.for %[[CI:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %[[PRE]], %[[ST:.*]] = %[[S0]])
// CHECK:               %[[T0:.*]] = arith.muli %[[CI]], %[[C32]] : index
// CHECK:               tensor.extract_slice %[[K]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 32, 1, 16]
// CHECK:               %[[CUM:.*]]:2 = scf.for
// CHECK:                 arith.extf
// CHECK:               %[[Q0:.*]] = arith.addi %[[T0]], %[[C6]] : index
// CHECK:               tensor.extract_slice %[[Q]][%[[BI]], %[[Q0]], %[[HI]], 0] [1, 32, 1, 16]
// The decay mask on the scores in row blocks of 16 up to the diagonal. On
// the diagonal blocks an exp per entry, exp(min(cum[t] - cum[s], 0)) * 0.5,
// zero above the diagonal; below them (rows 16-31 against keys 0-15) through
// row 16: exp(cum[t] - cum[16]) * 0.5 per row times exp(cum[16] - cum[s])
// per column, no exp per entry.
// CHECK:               %[[CR0:.*]] = tensor.extract_slice %[[CUM]]#1[0] [16] [1] : tensor<32xf64> to tensor<16xf64>
// CHECK:               %[[D0:.*]] = tensor.extract_slice %{{.*}}[0, 0] [16, 16] [1, 1] : tensor<32x32xf32> to tensor<16x16xf32>
// CHECK:               linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[CR0]], %[[CR0]] : tensor<16xf64>, tensor<16xf64>) outs(%[[D0]] : tensor<16x16xf32>)
// CHECK:                 arith.subf
// CHECK:                 arith.minimumf
// CHECK:                 math.exp
// CHECK:                 arith.mulf %{{.*}}, %[[HALF]] : f32
// CHECK:                 arith.cmpi ule
// CHECK:                 arith.select
// CHECK:               %[[CR1:.*]] = tensor.extract_slice %[[CUM]]#1[16] [16] [1] : tensor<32xf64> to tensor<16xf64>
// CHECK:               %[[D1:.*]] = tensor.extract_slice %{{.*}}[16, 16] [16, 16] [1, 1] : tensor<32x32xf32> to tensor<16x16xf32>
// CHECK:               linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[CR1]], %[[CR1]] : tensor<16xf64>, tensor<16xf64>) outs(%[[D1]] : tensor<16x16xf32>)
// CHECK:                 math.exp
// CHECK:               %[[PIVOT:.*]] = tensor.extract %[[CUM]]#1[%{{.*}}] : tensor<32xf64>
// CHECK:               %[[RF:.*]] = linalg.generic {{.*}} ins(%[[CR1]] : tensor<16xf64>) outs(%{{.*}} : tensor<16xf32>)
// CHECK-NEXT:          ^bb0(%[[RC:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT:            arith.subf %[[RC]], %[[PIVOT]] : f64
// CHECK:                 math.exp
// CHECK:                 arith.mulf %{{.*}}, %[[HALF]] : f32
// CHECK:               %[[CC:.*]] = tensor.extract_slice %[[CUM]]#1[0] [16] [1] : tensor<32xf64> to tensor<16xf64>
// CHECK:               %[[CF:.*]] = linalg.generic {{.*}} ins(%[[CC]] : tensor<16xf64>) outs(%{{.*}} : tensor<16xf32>)
// CHECK-NEXT:          ^bb0(%[[CCV:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT:            arith.subf %[[PIVOT]], %[[CCV]] : f64
// CHECK:               %[[B1:.*]] = tensor.extract_slice %{{.*}}[16, 0] [16, 16] [1, 1] : tensor<32x32xf32> to tensor<16x16xf32>
// CHECK:               linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[RF]], %[[CF]] : tensor<16xf32>, tensor<16xf32>) outs(%[[B1]] : tensor<16x16xf32>)
// CHECK-NEXT:          ^bb0(%[[RV:.*]]: f32, %[[CV:.*]]: f32, %[[SV:.*]]: f32):
// CHECK-NEXT:            %[[RS:.*]] = arith.mulf %[[SV]], %[[RV]] : f32
// CHECK-NEXT:            %[[RCS:.*]] = arith.mulf %[[RS]], %[[CV]] : f32
// CHECK-NEXT:            linalg.yield %[[RCS]] : f32
// Inter-chunk: one decay per query row, exp(min(cum, 0)) * 0.5, scales the
// queries, read in place, into a buffer of their own (the pass prefetches
// the next chunk's rows).
// CHECK:               %[[HEAD:.*]] = linalg.generic {indexing_maps = [#[[$V:.*]], #[[$V]]], iterator_types = ["parallel"]} ins(%[[CUM]]#1 : tensor<32xf64>) outs(%{{.*}} : tensor<32xf32>)
// CHECK-NEXT:          ^bb0(%[[HC:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT:            %[[HC32:.*]] = arith.truncf %[[HC]] : f64 to f32
// CHECK-NEXT:            %[[HCL:.*]] = arith.minimumf %[[HC32]], %[[ZERO]] : f32
// CHECK-NEXT:            %[[HE:.*]] = math.exp %[[HCL]] : f32
// CHECK-NEXT:            %[[HS:.*]] = arith.mulf %[[HE]], %[[HALF]] : f32
// CHECK-NEXT:            linalg.yield %[[HS]] : f32
// CHECK:               linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[HEAD]] : tensor<32x16xf32>, tensor<32xf32>) outs(%{{.*}} : tensor<32x16xf32>) attrs =  {mixer.prefetch_rows_ahead = 32 : i64}
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %[[Q0]], %[[HI]], 0] [1, 32, 1, 8]
// One decay per key row to the chunk end, exp(min(cum[Q-1] - cum, 0)),
// scales Kc.
// CHECK:               %[[TAILD:.*]] = linalg.generic {indexing_maps = [#[[$V]], #[[$V]]], iterator_types = ["parallel"]} ins(%[[CUM]]#1 : tensor<32xf64>) outs(%{{.*}} : tensor<32xf32>)
// CHECK-NEXT:          ^bb0(%[[TC:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT:            arith.subf %[[CUM]]#0, %[[TC]] : f64
// CHECK:               linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[TAILD]] : tensor<32x16xf32>, tensor<32xf32>)
// The state decayed by the whole chunk, then K_w^T V added.
// CHECK:               %[[SD:.*]] = linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[ST]] : tensor<16x8xf32>)
// CHECK:               linalg.generic {indexing_maps = [#[[$KI]], #[[$KJ]], #{{.*}}], {{.*}} outs(%[[SD]] : tensor<16x8xf32>)
// Keys 64..93 with outputs at key + 6.
// CHECK:             %[[TOK:.*]]:2 = scf.for %[[TI:.*]] = %[[C64]] to %[[C94]] step %[[C1]] iter_args(%{{.*}} = %[[CH]]#0, %{{.*}} = %[[CH]]#1)
// CHECK:               %[[A:.*]] = tensor.extract %[[LD]][%[[BI]], %[[TI]], %[[HI]]]
// CHECK:               arith.minimumf %[[A]], %[[ZERO]]
// CHECK:               %[[OT:.*]] = arith.addi %[[TI]], %[[C6]] : index
// CHECK:               tensor.insert_slice %{{.*}}[%[[BI]], %[[OT]], %[[HI]], 0] [1, 1, 1, 8]
// State-only keys: no full chunk, then keys 94..99.
// CHECK:             %[[SCH:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[C0]] step %[[C1]] iter_args(%{{.*}} = %[[TOK]]#0, %{{.*}} = %[[TOK]]#1)
// CHECK:             %[[STOK:.*]]:2 = scf.for %{{.*}} = %[[C94]] to %[[C100]] step %[[C1]] iter_args(%{{.*}} = %[[SCH]]#0, %{{.*}} = %[[SCH]]#1)
// CHECK-NOT:           tensor.insert_slice
// CHECK:               scf.yield
// CHECK:             tensor.insert_slice %[[STOK]]#1 into %{{.*}}[%[[BI]], %[[HI]], 0, 0] [1, 1, 16, 8]
// scan_chunk_limit = 0: the op's chunk of 32, whose segments the checks
// follow.
module attributes {mixer.target = {scan_chunk_limit = 0 : i64}} {
func.func @la_window(%q: tensor<1x100x2x16xf32>, %k: tensor<1x100x2x16xf32>, %v: tensor<1x100x2x8xf32>,
                     %ld: tensor<1x100x2xf32>, %init: tensor<1x2x16x8xf32>,
                     %o0: tensor<1x100x2x8xf32>, %s0: tensor<1x2x16x8xf32>)
    -> (tensor<1x100x2x8xf32>, tensor<1x2x16x8xf32>) {
  %o, %s = mixer.linear_attention chunk_size(32) window(5) scale(0.5)
      ins(%q, %k, %v : tensor<1x100x2x16xf32>, tensor<1x100x2x16xf32>, tensor<1x100x2x8xf32>)
      log_decay(%ld : tensor<1x100x2xf32>) init(%init : tensor<1x2x16x8xf32>)
      outs(%o0, %s0 : tensor<1x100x2x8xf32>, tensor<1x2x16x8xf32>)
      -> tensor<1x100x2x8xf32>, tensor<1x2x16x8xf32>
  return %o, %s : tensor<1x100x2x8xf32>, tensor<1x2x16x8xf32>
}
}

// -----

// A window with no init: the first outputs are zero rows.

// CHECK-LABEL: func.func @la_window_no_init
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C3]] step %{{.*}} iter_args(%[[OP:[^ ]*]] = %{{.*}}) -> (tensor<1x20x1x8xf32>)
// CHECK:           %[[ROW:.*]] = tensor.extract_slice %[[OP]]{{.*}} [1, 1, 1, 8] [1, 1, 1, 1] : tensor<1x20x1x8xf32> to tensor<8xf32>
// CHECK:           %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ROW]] : tensor<8xf32>)
// CHECK:           tensor.insert_slice %[[Z]] into %[[OP]]
func.func @la_window_no_init(%q: tensor<1x20x1x4xf32>, %k: tensor<1x20x1x4xf32>, %v: tensor<1x20x1x8xf32>,
                             %o0: tensor<1x20x1x8xf32>, %s0: tensor<1x1x4x8xf32>)
    -> (tensor<1x20x1x8xf32>, tensor<1x1x4x8xf32>) {
  %o, %s = mixer.linear_attention chunk_size(4) window(2)
      ins(%q, %k, %v : tensor<1x20x1x4xf32>, tensor<1x20x1x4xf32>, tensor<1x20x1x8xf32>)
      outs(%o0, %s0 : tensor<1x20x1x8xf32>, tensor<1x1x4x8xf32>)
      -> tensor<1x20x1x8xf32>, tensor<1x1x4x8xf32>
  return %o, %s : tensor<1x20x1x8xf32>, tensor<1x1x4x8xf32>
}

// -----

// With a third `outs`, the chunk states: S ([Dk, Dv]) recorded before each
// of the 40 / 16 = 2 full chunks and where the tail starts (row 2).
// CHECK-LABEL: func.func @linear_attention_chunk_states
// CHECK-SAME:    %[[CS0:[^:]*]]: tensor<1x2x3x8x4xf32>)
// CHECK:         scf.for %[[BI:[^ ]*]] = {{.*}} iter_args({{.*}}, %[[CSB:[^ ]*]] = %[[CS0]])
// CHECK:           scf.for %[[HI:[^ ]*]] =
// CHECK:             %[[CH:.*]]:3 = scf.for %[[CI:[^ ]*]] = {{.*}} iter_args(%{{.*}}, %[[ST:[^ ]*]] = %{{.*}}, %[[CSC:[^ ]*]] = %{{.*}})
// CHECK:               tensor.insert_slice %[[ST]] into %[[CSC]][%[[BI]], %[[HI]], %[[CI]], 0, 0] [1, 1, 1, 8, 4]
// CHECK:               tensor<16x16xf32>
// CHECK:             tensor.insert_slice %[[CH]]#1 into %[[CH]]#2[%[[BI]], %[[HI]], %{{.*}}, 0, 0] [1, 1, 1, 8, 4]
// CHECK:         return %{{.*}}#0, %{{.*}}#2
func.func @linear_attention_chunk_states(%q: tensor<1x40x2x8xf32>, %v: tensor<1x40x2x4xf32>, %ld: tensor<1x40x2xf32>, %o0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x8x4xf32>, %cs0: tensor<1x2x3x8x4xf32>) -> (tensor<1x40x2x4xf32>, tensor<1x2x3x8x4xf32>) {
  %o, %s, %cs = mixer.linear_attention chunk_size(16) scale(0.5) ins(%q, %q, %v : tensor<1x40x2x8xf32>, tensor<1x40x2x8xf32>, tensor<1x40x2x4xf32>) log_decay(%ld : tensor<1x40x2xf32>) outs(%o0, %s0, %cs0 : tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x3x8x4xf32>) -> tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x3x8x4xf32>
  return %o, %cs : tensor<1x40x2x4xf32>, tensor<1x2x3x8x4xf32>
}

// -----

// When nothing reads o and the final state, only the state passing is
// built: no intra-chunk scores, no output.
// CHECK-LABEL: func.func @linear_attention_chunk_states_only
// CHECK:         scf.for
// CHECK:           tensor.insert_slice %{{.*}} : tensor<8x4xf32> into tensor<1x2x3x8x4xf32>
// CHECK-NOT:       tensor<16x16xf32>
// CHECK-NOT:       into tensor<1x40x2x4xf32>
// CHECK:         return
func.func @linear_attention_chunk_states_only(%q: tensor<1x40x2x8xf32>, %v: tensor<1x40x2x4xf32>, %ld: tensor<1x40x2xf32>, %o0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x8x4xf32>, %cs0: tensor<1x2x3x8x4xf32>) -> tensor<1x2x3x8x4xf32> {
  %o, %s, %cs = mixer.linear_attention chunk_size(16) scale(0.5) ins(%q, %q, %v : tensor<1x40x2x8xf32>, tensor<1x40x2x8xf32>, tensor<1x40x2x4xf32>) log_decay(%ld : tensor<1x40x2xf32>) outs(%o0, %s0, %cs0 : tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x3x8x4xf32>) -> tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x3x8x4xf32>
  return %cs : tensor<1x2x3x8x4xf32>
}
