// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s

// L = 10 is under a chunk (scan_chunk_limit = 0: the op's chunk of 64): the
// recurrent form per (batch, head) and token:
// one [2, Dk] x [Dk, Dv]
// contraction reads k^T S and q^T S from the old state, w = beta (v - a kS),
// o = scale (a qS + (k . q) w) is written into its row of o, and the state
// is updated in place as a S + k w^T (a = exp(g)).

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$V:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gdr
// CHECK-SAME:    (%[[Q:[^:]*]]: tensor<1x10x2x16xf32>, %[[K:[^:]*]]: tensor<1x10x2x16xf32>, %[[V:[^:]*]]: tensor<1x10x2x8xf32>, %[[G:[^:]*]]: tensor<1x10x2xf32>, %[[BETA:[^:]*]]: tensor<1x10x2xf32>, %[[INIT:[^:]*]]: tensor<1x2x16x8xf32>
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : index
// CHECK:         scf.for %[[BI:.*]] = %[[C0]] to %[[C1]]
// CHECK:           scf.for %[[HI:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %[[SH:.*]] = %{{.*}})
// CHECK:             %[[IS:.*]] = tensor.extract_slice %[[INIT]][%[[BI]], %[[HI]], 0, 0] [1, 1, 16, 8]
// CHECK:             %[[S0:.*]] = linalg.copy ins(%[[IS]] : tensor<16x8xf32>)
// No full chunk of 64 tokens: an empty chunk loop, then every token.
// CHECK:             %[[CH:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[C0]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[S0]])
// CHECK:             %[[TOK:.*]]:2 = scf.for %[[T:.*]] = %[[C0]] to %[[C10]] step %[[C1]] iter_args(%[[O:.*]] = %[[CH]]#0, %[[S:.*]] = %[[CH]]#1) -> (tensor<1x10x2x8xf32>, tensor<16x8xf32>)
// CHECK-DAG:           %[[KT:.*]] = tensor.extract_slice %[[K]][%[[BI]], %[[T]], %[[HI]], 0] [1, 1, 1, 16] [1, 1, 1, 1] : tensor<1x10x2x16xf32> to tensor<1x16xf32>
// CHECK-DAG:           %[[QT:.*]] = tensor.extract_slice %[[Q]][%[[BI]], %[[T]], %[[HI]], 0] [1, 1, 1, 16] [1, 1, 1, 1] : tensor<1x10x2x16xf32> to tensor<1x16xf32>
// CHECK-DAG:           %[[VT:.*]] = tensor.extract_slice %[[V]][%[[BI]], %[[T]], %[[HI]], 0] [1, 1, 1, 8] [1, 1, 1, 1] : tensor<1x10x2x8xf32> to tensor<8xf32>
// CHECK-DAG:           %[[GV:.*]] = tensor.extract %[[G]][%[[BI]], %[[T]], %[[HI]]]
// CHECK-DAG:           %[[A:.*]] = math.exp %[[GV]] : f32
// CHECK-DAG:           %[[BV:.*]] = tensor.extract %[[BETA]][%[[BI]], %[[T]], %[[HI]]]
// CHECK:               %[[KQ0:.*]] = tensor.insert_slice %[[KT]] into %{{.*}}[0, 0] [1, 16] [1, 1] : tensor<1x16xf32> into tensor<2x16xf32>
// CHECK:               %[[KQ:.*]] = tensor.insert_slice %[[QT]] into %[[KQ0]][1, 0] [1, 16] [1, 1] : tensor<1x16xf32> into tensor<2x16xf32>
// CHECK:               %[[R:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[KQ]], %[[S]] : tensor<2x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<2x8xf32>)
// CHECK-DAG:           %[[KS:.*]] = tensor.extract_slice %[[R]][0, 0] [1, 8] [1, 1] : tensor<2x8xf32> to tensor<8xf32>
// CHECK-DAG:           %[[QS:.*]] = tensor.extract_slice %[[R]][1, 0] [1, 8] [1, 1] : tensor<2x8xf32> to tensor<8xf32>
// CHECK:               %[[KDQ:.*]] = linalg.generic {indexing_maps = [#[[$V]], #[[$V]], #[[$SCALAR]]], iterator_types = ["reduction"]}
// CHECK:               %[[KQS:.*]] = tensor.extract %[[KDQ]][] : tensor<f32>
// CHECK:               %[[W:.*]] = linalg.generic {indexing_maps = [#[[$V]], #[[$V]], #[[$V]]], iterator_types = ["parallel"]} ins(%[[VT]], %[[KS]] : tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT:          ^bb0(%[[VV:.*]]: f32, %[[KSV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:            %[[AKS:.*]] = arith.mulf %[[A]], %[[KSV]] : f32
// CHECK-NEXT:            %[[DIFF:.*]] = arith.subf %[[VV]], %[[AKS]] : f32
// CHECK-NEXT:            %[[WV:.*]] = arith.mulf %[[BV]], %[[DIFF]] : f32
// CHECK-NEXT:            linalg.yield %[[WV]] : f32
// CHECK:               %[[OROW:.*]] = tensor.extract_slice %[[O]][%[[BI]], %[[T]], %[[HI]], 0] [1, 1, 1, 8]
// CHECK:               %[[OV:.*]] = linalg.generic {indexing_maps = [#[[$V]], #[[$V]], #[[$V]]], iterator_types = ["parallel"]} ins(%[[QS]], %[[W]] : tensor<8xf32>, tensor<8xf32>) outs(%[[OROW]] : tensor<8xf32>)
// CHECK-NEXT:          ^bb0(%[[QSV:.*]]: f32, %[[WW:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:            %[[AQS:.*]] = arith.mulf %[[A]], %[[QSV]] : f32
// CHECK-NEXT:            %[[KQW:.*]] = arith.mulf %[[KQS]], %[[WW]] : f32
// CHECK-NEXT:            %[[SUM:.*]] = arith.addf %[[AQS]], %[[KQW]] : f32
// CHECK-NEXT:            %[[SC:.*]] = arith.mulf %[[SUM]], %[[HALF]] : f32
// CHECK-NEXT:            linalg.yield %[[SC]] : f32
// CHECK:               %[[NO:.*]] = tensor.insert_slice %[[OV]] into %[[O]][%[[BI]], %[[T]], %[[HI]], 0] [1, 1, 1, 8]
// CHECK:               %[[NS:.*]] = linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[W]] : tensor<16xf32>, tensor<8xf32>) outs(%[[S]] : tensor<16x8xf32>)
// CHECK-NEXT:          ^bb0(%[[KI:.*]]: f32, %[[WJ:.*]]: f32, %[[SV:.*]]: f32):
// CHECK-NEXT:            %[[OUTER:.*]] = arith.mulf %[[KI]], %[[WJ]] : f32
// CHECK-NEXT:            %[[KEPT:.*]] = arith.mulf %[[A]], %[[SV]] : f32
// CHECK-NEXT:            %[[NSV:.*]] = arith.addf %[[KEPT]], %[[OUTER]] : f32
// CHECK-NEXT:            linalg.yield %[[NSV]] : f32
// CHECK:               scf.yield %[[NO]], %[[NS]]
// CHECK:             tensor.insert_slice %[[TOK]]#1 into %[[SH]][%[[BI]], %[[HI]], 0, 0] [1, 1, 16, 8]
// CHECK-NOT:   mixer.gated_delta_rule
// scan_head_block_limit = 1: one head at a time, the order these checks
// follow (scan_heads_inner.mlir checks a block of heads per chunk).
module attributes {mixer.target = {scan_chunk_limit = 0 : i64, scan_head_block_limit = 1 : i64}} {
func.func @gdr(%q: tensor<1x10x2x16xf32>, %k: tensor<1x10x2x16xf32>, %v: tensor<1x10x2x8xf32>,
               %g: tensor<1x10x2xf32>, %beta: tensor<1x10x2xf32>, %init: tensor<1x2x16x8xf32>,
               %o0: tensor<1x10x2x8xf32>, %s0: tensor<1x2x16x8xf32>)
    -> (tensor<1x10x2x8xf32>, tensor<1x2x16x8xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(64) scale(0.5)
      ins(%q, %k, %v, %g, %beta : tensor<1x10x2x16xf32>, tensor<1x10x2x16xf32>, tensor<1x10x2x8xf32>, tensor<1x10x2xf32>, tensor<1x10x2xf32>)
      init(%init : tensor<1x2x16x8xf32>)
      outs(%o0, %s0 : tensor<1x10x2x8xf32>, tensor<1x2x16x8xf32>)
      -> tensor<1x10x2x8xf32>, tensor<1x2x16x8xf32>
  return %o, %s : tensor<1x10x2x8xf32>, tensor<1x2x16x8xf32>
}
}

// -----

// No init, scale 1, dynamic L: the state starts from zeros, the token loop
// runs to L, and the output is not scaled.

// CHECK-LABEL: func.func @gdr_plain
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[L:.*]] = tensor.dim %{{.*}}, %[[C1]] : tensor<2x?x1x4xf32>
// CHECK:         %[[SA:.*]] = bufferization.alloc_tensor() : tensor<4x4xf32>
// CHECK:         %[[SZ:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[SA]] : tensor<4x4xf32>)
// CHECK:         %[[CH:.*]]:2 = scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[SZ]])
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[L]] step %[[C1]] iter_args(%{{.*}} = %[[CH]]#0, %{{.*}} = %[[CH]]#1)
// CHECK:           arith.subf
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:      ^bb0(%[[QSV:.*]]: f32, %[[WW:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        arith.mulf
// CHECK-NEXT:        arith.mulf
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf
// CHECK-NEXT:        linalg.yield %[[SUM]] : f32
func.func @gdr_plain(%q: tensor<2x?x1x4xf32>, %k: tensor<2x?x1x4xf32>, %v: tensor<2x?x1x4xf32>,
                     %g: tensor<2x?x1xf32>, %beta: tensor<2x?x1xf32>,
                     %o0: tensor<2x?x1x4xf32>, %s0: tensor<2x1x4x4xf32>)
    -> (tensor<2x?x1x4xf32>, tensor<2x1x4x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(8)
      ins(%q, %k, %v, %g, %beta : tensor<2x?x1x4xf32>, tensor<2x?x1x4xf32>, tensor<2x?x1x4xf32>, tensor<2x?x1xf32>, tensor<2x?x1xf32>)
      outs(%o0, %s0 : tensor<2x?x1x4xf32>, tensor<2x1x4x4xf32>)
      -> tensor<2x?x1x4xf32>, tensor<2x1x4x4xf32>
  return %o, %s : tensor<2x?x1x4xf32>, tensor<2x1x4x4xf32>
}

// -----

// L = 40, chunks of 16 (scan_chunk_limit = 0: the op's chunk, which the CPU
// would halve for heads this small, @gdr_chunk_by_work): two chunks in the
// WY form, then 8 tokens. Per chunk,
// with the decays exp(cum_t - cum_j) (j <= t) formed once for both masks:
// A = beta_t (K K^T) * exp(cum_t - cum_j), strictly lower; the right-hand
// side diag(beta) V - diag(beta exp(cum)) K S; U' by forward substitution
// in place (row i one static [1, i] x [i, Dv] contraction over the rows
// solved before it); the outputs
// diag(scale exp(cum)) Q S + (scale (Q K^T) * exp(cum_t - cum_j), j <= t) U';
// the state exp(cum_last) S + (diag(exp(cum_last - cum)) K)^T U'.

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$KI:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @gdr_chunks
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CHECK:         %[[CH:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %[[S:.*]] = %{{.*}}) -> (tensor<1x40x1x4xf32>, tensor<8x4xf32>)
// The chunk's keys are copied in, its queries read in place; the keys' copy
// (and the right-hand side's pass over v, the scaled queries' pass over q,
// and the output's copy out) also prefetch the rows of the next chunk, 16
// tokens ahead.
// CHECK:           %[[KC:.*]] = linalg.copy {mixer.prefetch_rows_ahead = 16 : i64} ins(%{{.*}} : tensor<16x8xf32>)
// CHECK:           %[[QC:.*]] = tensor.extract_slice %{{.*}} : tensor<1x40x1x8xf32> to tensor<16x8xf32>
// CHECK:           %[[CUM:.*]]:2 = scf.for {{.*}} -> (f64, tensor<16xf64>)
// CHECK:           %[[KT:.*]] = linalg.transpose ins(%[[KC]] : tensor<16x8xf32>)
// CHECK:           %[[DEC:.*]] = linalg.generic {{.*}} ins(%[[CUM]]#1, %[[CUM]]#1 : tensor<16xf64>, tensor<16xf64>) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK:             arith.cmpi ule
// CHECK:             math.exp
// CHECK:           %[[KK:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[KC]], %[[KT]] : tensor<16x8xf32>, tensor<8x16xf32>)
// CHECK:           %[[A:.*]] = linalg.generic {{.*}} ins(%[[DEC]], %{{.*}} : tensor<16x16xf32>, tensor<16xf32>) outs(%[[KK]] : tensor<16x16xf32>)
// CHECK-NOT:         math.exp
// CHECK:             arith.cmpi ult
// CHECK:           %[[KSC:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%{{.*}}, %[[S]] : tensor<16x8xf32>, tensor<8x4xf32>)
// CHECK:           %[[RHS:.*]] = linalg.generic {{.*}} outs(%[[KSC]] : tensor<16x4xf32>) attrs =  {mixer.prefetch_rows_ahead = 16 : i64}
// CHECK:             arith.subf
// CHECK:           %[[NEGA:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<16x16xf32>)
// CHECK:             arith.negf
// CHECK-NOT:       scf.for
// CHECK:           %[[A1:.*]] = tensor.extract_slice %[[NEGA]][1, 0] [1, 1] [1, 1] : tensor<16x16xf32> to tensor<1x1xf32>
// CHECK:           %[[X0:.*]] = tensor.extract_slice %[[RHS]][0, 0] [1, 4] [1, 1]
// CHECK:           %[[X1:.*]] = tensor.extract_slice %[[RHS]][1, 0] [1, 4] [1, 1]
// CHECK:           %[[R1:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[A1]], %[[X0]] : tensor<1x1xf32>, tensor<1x4xf32>) outs(%[[X1]] : tensor<1x4xf32>)
// CHECK:           tensor.insert_slice %[[R1]] into %[[RHS]][1, 0] [1, 4] [1, 1]
// CHECK:           %[[A15:.*]] = tensor.extract_slice %[[NEGA]][15, 0] [1, 15] [1, 1] : tensor<16x16xf32> to tensor<1x15xf32>
// CHECK:           %[[X014:.*]] = tensor.extract_slice %[[XP:.*]][0, 0] [15, 4] [1, 1]
// CHECK:           %[[X15:.*]] = tensor.extract_slice %[[XP]][15, 0] [1, 4] [1, 1]
// CHECK:           %[[R15:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[A15]], %[[X014]] : tensor<1x15xf32>, tensor<15x4xf32>) outs(%[[X15]] : tensor<1x4xf32>)
// CHECK:           %[[U:.*]] = tensor.insert_slice %[[R15]] into %[[XP]][15, 0] [1, 4] [1, 1]
// CHECK:           %[[QK:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[QC]], %[[KT]] : tensor<16x8xf32>, tensor<8x16xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[DEC]] : tensor<16x16xf32>) outs(%[[QK]] : tensor<16x16xf32>)
// CHECK-NEXT:        ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:          arith.mulf
// CHECK-NEXT:          linalg.yield
// CHECK:           %[[GAMS:.*]] = linalg.generic {{.*}} ins(%[[CUM]]#1 : tensor<16xf64>) outs(%{{.*}} : tensor<16xf32>)
// CHECK:             math.exp
// CHECK:           %[[QSC:.*]] = linalg.generic {{.*}} ins(%[[QC]], %[[GAMS]] : tensor<16x8xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<16x8xf32>) attrs =  {mixer.prefetch_rows_ahead = 16 : i64}
// CHECK:           %[[OI:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[QSC]], %[[S]] : tensor<16x8xf32>, tensor<8x4xf32>)
// CHECK:           %[[OB:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%{{.*}}, %[[U]] : tensor<16x16xf32>, tensor<16x4xf32>) outs(%[[OI]] : tensor<16x4xf32>)
// CHECK:           %[[OW:.*]] = linalg.copy {mixer.prefetch_rows_ahead = 16 : i64} ins(%[[OB]] : tensor<16x4xf32>)
// CHECK:           tensor.insert_slice %[[OW]] into
// The decays to the chunk end, one exp per token, then K scaled by rows.
// CHECK:           %[[TOEND:.*]] = linalg.generic {{.*}} ins(%[[CUM]]#1 : tensor<16xf64>) outs(%{{.*}} : tensor<16xf32>)
// CHECK:             math.exp
// CHECK:           %[[KW:.*]] = linalg.generic {{.*}} ins(%[[TOEND]] : tensor<16xf32>) outs(%[[KC]] : tensor<16x8xf32>)
// CHECK-NEXT:        ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:          arith.mulf
// CHECK-NEXT:          linalg.yield
// CHECK:           %[[SD:.*]] = linalg.generic {{.*}} outs(%[[S]] : tensor<8x4xf32>)
// CHECK:           linalg.generic {indexing_maps = [#[[$KI]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[KW]], %[[U]] : tensor<16x8xf32>, tensor<16x4xf32>) outs(%[[SD]] : tensor<8x4xf32>)
// CHECK:         scf.for %{{.*}} = %[[C32]] to %[[C40]] step %[[C1]] iter_args(%{{.*}} = %[[CH]]#0, %{{.*}} = %[[CH]]#1)
module attributes {mixer.target = {scan_chunk_limit = 0 : i64}} {
func.func @gdr_chunks(%q: tensor<1x40x1x8xf32>, %k: tensor<1x40x1x8xf32>, %v: tensor<1x40x1x4xf32>,
                      %g: tensor<1x40x1xf32>, %beta: tensor<1x40x1xf32>,
                      %o0: tensor<1x40x1x4xf32>, %s0: tensor<1x1x8x4xf32>)
    -> (tensor<1x40x1x4xf32>, tensor<1x1x8x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(16)
      ins(%q, %k, %v, %g, %beta : tensor<1x40x1x8xf32>, tensor<1x40x1x8xf32>, tensor<1x40x1x4xf32>, tensor<1x40x1xf32>, tensor<1x40x1xf32>)
      outs(%o0, %s0 : tensor<1x40x1x4xf32>, tensor<1x1x8x4xf32>)
      -> tensor<1x40x1x4xf32>, tensor<1x1x8x4xf32>
  return %o, %s : tensor<1x40x1x4xf32>, tensor<1x1x8x4xf32>
}
}

// -----

// chunk_size(32) on a CPU: chunks of at most the target's scan_chunk_limit
// (16 tokens, one triangular block), since chunk_size does not change the
// result. At Dk = Dv = 128 the chunk's causal products (16 (2 Dk + 2 Dv)
// FMAs per token) stay under a quarter of the state's (3 Dk Dv), so the
// chunk stays 16: two chunks, each solving U' by 15 static rows (no
// blocked substitution, no [32, *] factors), then an empty tail.

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @gdr_chunk_limit
// CHECK-DAG:       %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:       %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:       %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:       %[[C32:.*]] = arith.constant 32 : index
// CHECK:           scf.for %[[CI:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1x32x1x128xf32>, tensor<128x128xf32>)
// CHECK:             %[[T0:.*]] = arith.muli %[[CI]], %[[C16]] : index
// CHECK:             tensor.extract_slice %{{.*}}[%{{.*}}, %[[T0]], %{{.*}}, 0] [1, 16, 1, 128] [1, 1, 1, 1] : tensor<1x32x1x128xf32> to tensor<16x128xf32>
// CHECK:             arith.negf
// CHECK-NOT:         tensor<32x32xf32>
// CHECK:             linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1xf32>, tensor<1x128xf32>) outs(%{{.*}} : tensor<1x128xf32>)
// CHECK:             linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x15xf32>, tensor<15x128xf32>) outs(%{{.*}} : tensor<1x128xf32>)
// CHECK-NOT:         tensor<32x128xf32>
// CHECK:             tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %[[T0]], %{{.*}}, 0] [1, 16, 1, 128] [1, 1, 1, 1] : tensor<16x128xf32> into tensor<1x32x1x128xf32>
// CHECK:           scf.for %{{.*}} = %[[C32]] to %[[C32]] step %[[C1]]
func.func @gdr_chunk_limit(%q: tensor<1x32x1x128xf32>, %k: tensor<1x32x1x128xf32>, %v: tensor<1x32x1x128xf32>,
                      %g: tensor<1x32x1xf32>, %beta: tensor<1x32x1xf32>,
                      %o0: tensor<1x32x1x128xf32>, %s0: tensor<1x1x128x128xf32>)
    -> (tensor<1x32x1x128xf32>, tensor<1x1x128x128xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(32)
      ins(%q, %k, %v, %g, %beta : tensor<1x32x1x128xf32>, tensor<1x32x1x128xf32>, tensor<1x32x1x128xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>)
      outs(%o0, %s0 : tensor<1x32x1x128xf32>, tensor<1x1x128x128xf32>)
      -> tensor<1x32x1x128xf32>, tensor<1x1x128x128xf32>
  return %o, %s : tensor<1x32x1x128xf32>, tensor<1x1x128x128xf32>
}

// -----

// The same at Dk = Dv = 64: 16-token chunks would spend a third of the
// state's FMAs (3 Dk Dv per token) on the causal products (16 (2 Dk + 2 Dv)),
// so the CPU halves them to 8 tokens (not below 8): four chunks of 8, each
// solving U' by 7 static rows.

// CHECK-LABEL: func.func @gdr_chunk_by_work
// CHECK-DAG:       %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:       %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:       %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:       %[[C32:.*]] = arith.constant 32 : index
// CHECK:           scf.for %[[CI:.*]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1x32x1x64xf32>, tensor<64x64xf32>)
// CHECK:             %[[T0:.*]] = arith.muli %[[CI]], %[[C8]] : index
// CHECK:             tensor.extract_slice %{{.*}}[%{{.*}}, %[[T0]], %{{.*}}, 0] [1, 8, 1, 64] [1, 1, 1, 1] : tensor<1x32x1x64xf32> to tensor<8x64xf32>
// CHECK-NOT:         tensor<16x16xf32>
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1xf32>, tensor<1x64xf32>) outs(%{{.*}} : tensor<1x64xf32>)
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x7xf32>, tensor<7x64xf32>) outs(%{{.*}} : tensor<1x64xf32>)
// CHECK:             tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %[[T0]], %{{.*}}, 0] [1, 8, 1, 64] [1, 1, 1, 1] : tensor<8x64xf32> into tensor<1x32x1x64xf32>
// CHECK:           scf.for %{{.*}} = %[[C32]] to %[[C32]] step %[[C1]]
func.func @gdr_chunk_by_work(%q: tensor<1x32x1x64xf32>, %k: tensor<1x32x1x64xf32>, %v: tensor<1x32x1x64xf32>,
                      %g: tensor<1x32x1xf32>, %beta: tensor<1x32x1xf32>,
                      %o0: tensor<1x32x1x64xf32>, %s0: tensor<1x1x64x64xf32>)
    -> (tensor<1x32x1x64xf32>, tensor<1x1x64x64xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(32)
      ins(%q, %k, %v, %g, %beta : tensor<1x32x1x64xf32>, tensor<1x32x1x64xf32>, tensor<1x32x1x64xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>)
      outs(%o0, %s0 : tensor<1x32x1x64xf32>, tensor<1x1x64x64xf32>)
      -> tensor<1x32x1x64xf32>, tensor<1x1x64x64xf32>
  return %o, %s : tensor<1x32x1x64xf32>, tensor<1x1x64x64xf32>
}
