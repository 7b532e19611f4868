// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s
// RUN: mixer-opt %s --convert-mixer-to-linalg=recurrent-threshold=0 --split-input-file \
// RUN:   | FileCheck %s --check-prefix=THRESHOLD0

// mixer.ssd becomes the chunked SSD algorithm: loops over batches and heads,
// an scf.for over the L / Q full chunks (here 100 / 32 = 3) and a token loop
// for the tail (tokens 96 to 100). The state is carried transposed, as
// St [N, P], starting from zero without an init. The target's
// scan_chunk_limit = 0 keeps the op's chunk (CPUs run 16 tokens by default:
// scan_chunk_limit.mlir).

// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$VEC:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$KI:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @ssd_chunks_and_tail
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<1x100x2x4xf32>, %[[LA:[^:]*]]: tensor<1x100x2xf32>, %[[B:[^:]*]]: tensor<1x100x1x8xf32>, %[[C:[^:]*]]: tensor<1x100x1x8xf32>, %[[Y0:[^:]*]]: tensor<1x100x2x4xf32>, %[[S0:[^:]*]]: tensor<1x2x4x8xf32>)
// CHECK-DAG:     %[[F64ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[C100:.*]] = arith.constant 100 : index
// CHECK:         %[[RES:.*]]:2 = scf.for %[[BI:.*]] = %[[C0]] to %[[C1]] step %[[C1]] iter_args(%[[YB:.*]] = %[[Y0]], %[[SB:.*]] = %[[S0]])
// CHECK:           %{{.*}}:2 = scf.for %[[HI:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[YH:.*]] = %[[YB]], %[[SH:.*]] = %[[SB]])
// Two heads share one group of B and C.
// CHECK:             %[[GI:.*]] = arith.divui %[[HI]], %[[C2]] : index
// CHECK:             %[[ST0A:.*]] = bufferization.alloc_tensor() : tensor<8x4xf32>
// CHECK:             %[[ST0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ST0A]] : tensor<8x4xf32>)
// CHECK:             %[[CHUNKS:.*]]:2 = scf.for %[[CI:.*]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[YC:.*]] = %[[YH]], %[[ST:.*]] = %[[ST0]]) -> (tensor<1x100x2x4xf32>, tensor<8x4xf32>)
// CHECK:               %[[T0:.*]] = arith.muli %[[CI]], %[[C32]] : index
// CHECK-DAG:           %[[XS:.*]] = tensor.extract_slice %[[X]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 32, 1, 4] [1, 1, 1, 1] : tensor<1x100x2x4xf32> to tensor<32x4xf32>
// CHECK-DAG:           %[[XBUF:.*]] = bufferization.alloc_tensor() : tensor<32x4xf32>
// CHECK-DAG:           %[[XC:.*]] = linalg.copy {mixer.prefetch_rows_ahead = 32 : i64} ins(%[[XS]] : tensor<32x4xf32>) outs(%[[XBUF]] : tensor<32x4xf32>)
// CHECK-DAG:           %[[AC:.*]] = tensor.extract_slice %[[LA]][%[[BI]], %[[T0]], %[[HI]]] [1, 32, 1] [1, 1, 1] : tensor<1x100x2xf32> to tensor<32xf32>
// CHECK-DAG:           %[[BC:.*]] = tensor.extract_slice %[[B]][%[[BI]], %[[T0]], %[[GI]], 0] [1, 32, 1, 8] [1, 1, 1, 1] : tensor<1x100x1x8xf32> to tensor<32x8xf32>
// CHECK-DAG:           %[[CC:.*]] = tensor.extract_slice %[[C]][%[[BI]], %[[T0]], %[[GI]], 0] [1, 32, 1, 8] [1, 1, 1, 1] : tensor<1x100x1x8xf32> to tensor<32x8xf32>
// The inclusive prefix sum of the log decays, in f64.
// CHECK:               %[[CUM0:.*]] = tensor.empty() : tensor<32xf64>
// CHECK:               %[[CUM:.*]]:2 = scf.for %[[I:.*]] = %[[C0]] to %[[C32]] step %[[C1]] iter_args(%[[SUM:.*]] = %[[F64ZERO]], %[[ACC:.*]] = %[[CUM0]]) -> (f64, tensor<32xf64>)
// CHECK-NEXT:            %[[A:.*]] = tensor.extract %[[AC]][%[[I]]] : tensor<32xf32>
// CHECK-NEXT:            %[[A64:.*]] = arith.extf %[[A]] : f32 to f64
// CHECK-NEXT:            %[[NSUM:.*]] = arith.addf %[[SUM]], %[[A64]] : f64
// CHECK-NEXT:            %[[NACC:.*]] = tensor.insert %[[NSUM]] into %[[ACC]][%[[I]]] : tensor<32xf64>
// CHECK-NEXT:            scf.yield %[[NSUM]], %[[NACC]] : f64, tensor<32xf64>
// One exp per token: the factors exp(min(cum, 0)) and
// exp(min(cum[Q-1] - cum, 0)) that scale the rows below.
// CHECK:               %[[SF:.*]] = linalg.generic {indexing_maps = [#[[$VEC:.*]], #[[$VEC]]], iterator_types = ["parallel"]} ins(%[[CUM]]#1 : tensor<32xf64>) outs(%{{.*}} : tensor<32xf32>)
// CHECK-NEXT:          ^bb0(%[[SCUM:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT:            %[[SCUM32:.*]] = arith.truncf %[[SCUM]] : f64 to f32
// CHECK-NEXT:            %[[SCL:.*]] = arith.minimumf %[[SCUM32]], %[[ZERO]] : f32
// CHECK-NEXT:            math.exp %[[SCL]] : f32
// CHECK:               %[[EF:.*]] = linalg.generic {indexing_maps = [#[[$VEC]], #[[$VEC]]], iterator_types = ["parallel"]} ins(%[[CUM]]#1 : tensor<32xf64>) outs(%{{.*}} : tensor<32xf32>)
// CHECK-NEXT:          ^bb0(%[[ECUM:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT:            %[[ESEG:.*]] = arith.subf %[[CUM]]#0, %[[ECUM]] : f64
// CHECK-NEXT:            %[[ESEG32:.*]] = arith.truncf %[[ESEG]] : f64 to f32
// CHECK-NEXT:            %[[ECL:.*]] = arith.minimumf %[[ESEG32]], %[[ZERO]] : f32
// CHECK-NEXT:            math.exp %[[ECL]] : f32
// Intra-chunk block: G = Cc Bc^T as an (i, j, k) contraction with a
// row-major right-hand side, then ((G * L) X) accumulated into the y tile.
// CHECK:               %[[BT:.*]] = linalg.transpose ins(%[[BC]] : tensor<32x8xf32>) outs(%{{.*}} : tensor<8x32xf32>) permutation = [1, 0]
// CHECK:               %[[GA:.*]] = bufferization.alloc_tensor() : tensor<32x32xf32>
// CHECK:               %[[GZ:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[GA]] : tensor<32x32xf32>)
// Cc Bc^T in row blocks of 16 up to the diagonal (the default target's
// triangular blocks): rows 0-15 against columns 0-15, rows 16-31 against
// all 32; the block above the diagonal stays 0 (L is 0 there).
// CHECK:               %[[CC0:.*]] = tensor.extract_slice %[[CC]][0, 0] [16, 8] [1, 1]
// CHECK:               %[[BT0:.*]] = tensor.extract_slice %[[BT]][0, 0] [8, 16] [1, 1]
// CHECK:               %[[GZ0:.*]] = tensor.extract_slice %[[GZ]][0, 0] [16, 16] [1, 1]
// CHECK:               %[[G0:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[CC0]], %[[BT0]] : tensor<16x8xf32>, tensor<8x16xf32>) outs(%[[GZ0]] : tensor<16x16xf32>)
// CHECK-NEXT:          ^bb0(%[[GL:.*]]: f32, %[[GR:.*]]: f32, %[[GO:.*]]: f32):
// CHECK-NEXT:            %[[GP:.*]] = arith.mulf %[[GL]], %[[GR]] : f32
// CHECK-NEXT:            %[[GS:.*]] = arith.addf %[[GO]], %[[GP]] : f32
// CHECK-NEXT:            linalg.yield %[[GS]] : f32
// CHECK:               %[[GI0:.*]] = tensor.insert_slice %[[G0]] into %[[GZ]][0, 0] [16, 16] [1, 1]
// CHECK:               %[[CC1:.*]] = tensor.extract_slice %[[CC]][16, 0] [16, 8] [1, 1]
// CHECK:               %[[GZ1:.*]] = tensor.extract_slice %[[GI0]][16, 0] [16, 32] [1, 1]
// CHECK:               %[[G1:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[CC1]], %[[BT]] : tensor<16x8xf32>, tensor<8x32xf32>) outs(%[[GZ1]] : tensor<16x32xf32>)
// CHECK:               %[[G:.*]] = tensor.insert_slice %[[G1]] into %[[GI0]][16, 0] [16, 32] [1, 1]
// M = G * L with L[t, s] = s <= t ? exp(min(cum[t] - cum[s], 0)) : 0, in
// one pass (L is never stored), in the same row blocks of 16 up to the
// diagonal; the block above it keeps the zero fill.
// CHECK:               %[[MA0:.*]] = bufferization.alloc_tensor() : tensor<32x32xf32>
// CHECK:               %[[MZ:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[MA0]] : tensor<32x32xf32>)
// CHECK:               %[[CR0:.*]] = tensor.extract_slice %[[CUM]]#1[0] [16] [1] : tensor<32xf64> to tensor<16xf64>
// CHECK:               %[[CC0:.*]] = tensor.extract_slice %[[CUM]]#1[0] [16] [1] : tensor<32xf64> to tensor<16xf64>
// CHECK:               %[[GB0:.*]] = tensor.extract_slice %[[G]][0, 0] [16, 16] [1, 1]
// CHECK:               %[[MZ0:.*]] = tensor.extract_slice %[[MZ]][0, 0] [16, 16] [1, 1]
// CHECK:               %[[MB0:.*]] = linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[CR0]], %[[CC0]], %[[GB0]] : tensor<16xf64>, tensor<16xf64>, tensor<16x16xf32>) outs(%[[MZ0]] : tensor<16x16xf32>)
// CHECK-NEXT:          ^bb0(%[[CT:.*]]: f64, %[[CS:.*]]: f64, %[[GV:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:            %[[T:.*]] = linalg.index 0 : index
// CHECK-NEXT:            %[[S:.*]] = linalg.index 1 : index
// CHECK-NEXT:            %[[SEG:.*]] = arith.subf %[[CT]], %[[CS]] : f64
// CHECK-NEXT:            %[[SEG32:.*]] = arith.truncf %[[SEG]] : f64 to f32
// CHECK-NEXT:            %[[CL:.*]] = arith.minimumf %[[SEG32]], %[[ZERO]] : f32
// CHECK-NEXT:            %[[DECAY:.*]] = math.exp %[[CL]] : f32
// CHECK-NEXT:            %[[CAUSAL:.*]] = arith.cmpi ule, %[[S]], %[[T]] : index
// CHECK-NEXT:            %[[LV:.*]] = arith.select %[[CAUSAL]], %[[DECAY]], %[[ZERO]] : f32
// CHECK-NEXT:            %[[MV:.*]] = arith.mulf %[[GV]], %[[LV]] : f32
// CHECK-NEXT:            linalg.yield %[[MV]] : f32
// CHECK:               %[[MI0:.*]] = tensor.insert_slice %[[MB0]] into %[[MZ]][0, 0] [16, 16] [1, 1]
// CHECK:               %[[CR1:.*]] = tensor.extract_slice %[[CUM]]#1[16] [16] [1] : tensor<32xf64> to tensor<16xf64>
// CHECK:               %[[MZ1:.*]] = tensor.extract_slice %[[MI0]][16, 0] [16, 32] [1, 1]
// CHECK:               %[[MB1:.*]] = linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[CR1]], %[[CUM]]#1, %[[G1]] : tensor<16xf64>, tensor<32xf64>, tensor<16x32xf32>) outs(%[[MZ1]] : tensor<16x32xf32>)
// CHECK-NEXT:          ^bb0(%{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:            %[[T1:.*]] = linalg.index 0 : index
// CHECK-NEXT:            %[[S1:.*]] = linalg.index 1 : index
// CHECK-NEXT:            %[[TG:.*]] = arith.addi %[[T1]], %[[C16:.*]] : index
// CHECK:                 arith.cmpi ule, %[[S1]], %[[TG]] : index
// CHECK:                 arith.mulf
// CHECK:               %[[M:.*]] = tensor.insert_slice %[[MB1]] into %[[MI0]][16, 0] [16, 32] [1, 1]
// The output block accumulates in a fresh local buffer, M X in row blocks
// of 16 reading M only up to the diagonal: rows 0-15 take M[0:16, 0:16]
// and X[0:16], rows 16-31 M[16:32, 0:32] (its second row block as built)
// and all of X.
// CHECK:               %[[YT:.*]] = bufferization.alloc_tensor() : tensor<32x4xf32>
// CHECK:               %[[YZ:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[YT]] : tensor<32x4xf32>)
// CHECK:               %[[M0:.*]] = tensor.extract_slice %[[M]][0, 0] [16, 16] [1, 1]
// CHECK:               %[[X0:.*]] = tensor.extract_slice %[[XC]][0, 0] [16, 4] [1, 1]
// CHECK:               %[[YZ0:.*]] = tensor.extract_slice %[[YZ]][0, 0] [16, 4] [1, 1]
// CHECK:               %[[Y0:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[M0]], %[[X0]] : tensor<16x16xf32>, tensor<16x4xf32>) outs(%[[YZ0]] : tensor<16x4xf32>)
// CHECK:               %[[YI0:.*]] = tensor.insert_slice %[[Y0]] into %[[YZ]][0, 0] [16, 4] [1, 1]
// CHECK:               %[[YZ1:.*]] = tensor.extract_slice %[[YI0]][16, 0] [16, 4] [1, 1]
// CHECK:               %[[Y1:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[MB1]], %[[XC]] : tensor<16x32xf32>, tensor<32x4xf32>) outs(%[[YZ1]] : tensor<16x4xf32>)
// CHECK:               %[[YIN:.*]] = tensor.insert_slice %[[Y1]] into %[[YI0]][16, 0] [16, 4] [1, 1]
// Off-diagonal output: (diag(exp(min(cum, 0))) Cc) St added to the block.
// CHECK:               %[[CSC:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[CC]], %[[SF]] : tensor<32x8xf32>, tensor<32xf32>)
// CHECK-NEXT:          ^bb0(%[[CIN:.*]]: f32, %[[CEXP:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:            %[[CSV:.*]] = arith.mulf %[[CIN]], %[[CEXP]] : f32
// CHECK:               %[[YOUT:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[CSC]], %[[ST]] : tensor<32x8xf32>, tensor<8x4xf32>) outs(%[[YIN]] : tensor<32x4xf32>)
// State passing: Bc scaled by exp(min(cum[Q-1] - cum, 0)), the state decayed
// in place by exp(min(cum[Q-1], 0)), and Bw^T X added (transposed lhs).
// CHECK:               %[[BW:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[BC]], %[[EF]] : tensor<32x8xf32>, tensor<32xf32>)
// CHECK-NEXT:          ^bb0(%[[BIN:.*]]: f32, %[[BEXP:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:            arith.mulf %[[BIN]], %[[BEXP]] : f32
// CHECK:               %[[LAST32:.*]] = arith.truncf %[[CUM]]#0 : f64 to f32
// CHECK-NEXT:          %[[LASTCL:.*]] = arith.minimumf %[[LAST32]], %[[ZERO]] : f32
// CHECK-NEXT:          %[[CHUNKDECAY:.*]] = math.exp %[[LASTCL]] : f32
// CHECK-NEXT:          %[[DECAYED:.*]] = linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[ST]] : tensor<8x4xf32>)
// CHECK-NEXT:          ^bb0(%[[SOLD:.*]]: f32):
// CHECK-NEXT:            %[[SDEC:.*]] = arith.mulf %[[SOLD]], %[[CHUNKDECAY]] : f32
// CHECK-NEXT:            linalg.yield %[[SDEC]] : f32
// CHECK:               %[[NST:.*]] = linalg.generic {indexing_maps = [#[[$KI]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[BW]], %[[XC]] : tensor<32x8xf32>, tensor<32x4xf32>) outs(%[[DECAYED]] : tensor<8x4xf32>)
// CHECK:               %[[YW:.*]] = linalg.copy {mixer.prefetch_rows_ahead = 32 : i64} ins(%[[YOUT]] : tensor<32x4xf32>)
// CHECK:               %[[NY:.*]] = tensor.insert_slice %[[YW]] into %[[YC]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 32, 1, 4] [1, 1, 1, 1] : tensor<32x4xf32> into tensor<1x100x2x4xf32>
// CHECK-NEXT:          scf.yield %[[NY]], %[[NST]] : tensor<1x100x2x4xf32>, tensor<8x4xf32>
// The token loop over the tail, starting from the state of the chunks:
// St = exp(min(a_t, 0)) St + b_t x_t^T, y_t = St^T c_t.
// CHECK:             %[[TOK:.*]]:2 = scf.for %[[TI:.*]] = %[[C96]] to %[[C100]] step %[[C1]] iter_args(%[[YT2:.*]] = %[[CHUNKS]]#0, %[[ST2:.*]] = %[[CHUNKS]]#1)
// CHECK-DAG:           %[[XT:.*]] = tensor.extract_slice %[[X]][%[[BI]], %[[TI]], %[[HI]], 0] [1, 1, 1, 4] [1, 1, 1, 1] : tensor<1x100x2x4xf32> to tensor<4xf32>
// CHECK-DAG:           %[[BTT:.*]] = tensor.extract_slice %[[B]][%[[BI]], %[[TI]], %[[GI]], 0] [1, 1, 1, 8] [1, 1, 1, 1] : tensor<1x100x1x8xf32> to tensor<8xf32>
// CHECK-DAG:           %[[CTT:.*]] = tensor.extract_slice %[[C]][%[[BI]], %[[TI]], %[[GI]], 0] [1, 1, 1, 8] [1, 1, 1, 1] : tensor<1x100x1x8xf32> to tensor<1x8xf32>
// CHECK:               %[[AT:.*]] = tensor.extract %[[LA]][%[[BI]], %[[TI]], %[[HI]]] : tensor<1x100x2xf32>
// CHECK-NEXT:          %[[ATCL:.*]] = arith.minimumf %[[AT]], %[[ZERO]] : f32
// CHECK-NEXT:          %[[ATEXP:.*]] = math.exp %[[ATCL]] : f32
// CHECK-NEXT:          %[[TST:.*]] = linalg.generic {indexing_maps = [#[[$ROW]], #[[$COL]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[BTT]], %[[XT]] : tensor<8xf32>, tensor<4xf32>) outs(%[[ST2]] : tensor<8x4xf32>)
// CHECK-NEXT:          ^bb0(%[[TB:.*]]: f32, %[[TX:.*]]: f32, %[[TS:.*]]: f32):
// CHECK-NEXT:            %[[OUTER:.*]] = arith.mulf %[[TB]], %[[TX]] : f32
// CHECK-NEXT:            %[[KEPT:.*]] = arith.mulf %[[TS]], %[[ATEXP]] : f32
// CHECK-NEXT:            %[[TSN:.*]] = arith.addf %[[KEPT]], %[[OUTER]] : f32
// CHECK-NEXT:            linalg.yield %[[TSN]] : f32
// The row of y, a [1, N] x [N, P] contraction over the rows of St (FMAs
// on whole rows of y, not a reduction reading St by columns), sums in a
// tensor of its own (y is only written):
// CHECK:               %[[YTT:.*]] = bufferization.alloc_tensor() : tensor<1x4xf32>
// CHECK-NEXT:          %[[YTZ:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[YTT]] : tensor<1x4xf32>)
// CHECK-NEXT:          %[[YTV:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[CTT]], %[[TST]] : tensor<1x8xf32>, tensor<8x4xf32>) outs(%[[YTZ]] : tensor<1x4xf32>)
// CHECK:               %[[TNY:.*]] = tensor.insert_slice %[[YTV]] into %[[YT2]][%[[BI]], %[[TI]], %[[HI]], 0] [1, 1, 1, 4] [1, 1, 1, 1] : tensor<1x4xf32> into tensor<1x100x2x4xf32>
// CHECK-NEXT:          scf.yield %[[TNY]], %[[TST]] : tensor<1x100x2x4xf32>, tensor<8x4xf32>
// The final state, transposed back to [P, N], into the state output.
// CHECK:             %[[FST:.*]] = linalg.transpose ins(%[[TOK]]#1 : tensor<8x4xf32>) outs(%{{.*}} : tensor<4x8xf32>) permutation = [1, 0]
// CHECK-NEXT:        %[[NS:.*]] = tensor.insert_slice %[[FST]] into %[[SH]][%[[BI]], %[[HI]], 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : tensor<4x8xf32> into tensor<1x2x4x8xf32>
// CHECK-NEXT:        scf.yield %[[TOK]]#0, %[[NS]] : tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>
// CHECK-NOT:     mixer.ssd
// CHECK:         return %[[RES]]#0, %[[RES]]#1
module attributes {mixer.target = {scan_chunk_limit = 0 : i64, scan_head_block_limit = 1 : i64}} {
func.func @ssd_chunks_and_tail(%x: tensor<1x100x2x4xf32>, %la: tensor<1x100x2xf32>, %b: tensor<1x100x1x8xf32>, %c: tensor<1x100x1x8xf32>, %y0: tensor<1x100x2x4xf32>, %s0: tensor<1x2x4x8xf32>) -> (tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(32) ins(%x, %la, %b, %c : tensor<1x100x2x4xf32>, tensor<1x100x2xf32>, tensor<1x100x1x8xf32>, tensor<1x100x1x8xf32>) outs(%y0, %s0 : tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x100x2x4xf32>, tensor<1x2x4x8xf32>
}
}

// THRESHOLD0-LABEL: func.func @ssd_chunks_and_tail
// THRESHOLD0-DAG:     %[[C3:.*]] = arith.constant 3 : index
// THRESHOLD0-DAG:     %[[C96:.*]] = arith.constant 96 : index
// THRESHOLD0-DAG:     %[[C100:.*]] = arith.constant 100 : index
// THRESHOLD0:         scf.for %{{.*}} = %{{.*}} to %[[C3]] step
// THRESHOLD0:         scf.for %{{.*}} = %[[C96]] to %[[C100]] step

// -----

// L = 4 <= recurrent-threshold (8): no full chunk (the chunk loop runs zero
// times) and the token loop covers the whole sequence. The state starts from
// the init, transposed to [N, P].

// CHECK-LABEL: func.func @ssd_short_with_init
// CHECK-SAME:    %[[INIT:[^:]*]]: tensor<1x2x4x8xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         scf.for %[[BI:.*]] = %[[C0]] to %[[C1]]
// CHECK:           scf.for %[[HI:.*]] = %[[C0]] to
// CHECK:             %[[IS:.*]] = tensor.extract_slice %[[INIT]][%[[BI]], %[[HI]], 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : tensor<1x2x4x8xf32> to tensor<4x8xf32>
// CHECK-NEXT:        %[[IE:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK-NEXT:        %[[IT:.*]] = linalg.transpose ins(%[[IS]] : tensor<4x8xf32>) outs(%[[IE]] : tensor<8x4xf32>) permutation = [1, 0]
// CHECK-NEXT:        %[[CH:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[C0]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[IT]])
// CHECK:             scf.for %{{.*}} = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%{{.*}} = %[[CH]]#0, %{{.*}} = %[[CH]]#1)
// CHECK:               math.exp
// CHECK:               linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:               linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
module attributes {mixer.target = {scan_chunk_limit = 0 : i64, scan_head_block_limit = 1 : i64}} {
func.func @ssd_short_with_init(%x: tensor<1x4x2x4xf32>, %la: tensor<1x4x2xf32>, %b: tensor<1x4x1x8xf32>, %c: tensor<1x4x1x8xf32>, %h: tensor<1x2x4x8xf32>, %y0: tensor<1x4x2x4xf32>, %s0: tensor<1x2x4x8xf32>) -> (tensor<1x4x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(32) ins(%x, %la, %b, %c : tensor<1x4x2x4xf32>, tensor<1x4x2xf32>, tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>) init(%h : tensor<1x2x4x8xf32>) outs(%y0, %s0 : tensor<1x4x2x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x4x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x4x2x4xf32>, tensor<1x2x4x8xf32>
}
}

// With recurrent-threshold=0 even 4 tokens are chunked: 4 / 32 = 0 full
// chunks still, and the tail starts at 0.
// THRESHOLD0-LABEL: func.func @ssd_short_with_init
// THRESHOLD0-DAG:     %[[C0:.*]] = arith.constant 0 : index
// THRESHOLD0-DAG:     %[[C4:.*]] = arith.constant 4 : index
// THRESHOLD0:         linalg.transpose
// THRESHOLD0:         scf.for %{{.*}} = %[[C0]] to %[[C0]] step
// THRESHOLD0:         scf.for %{{.*}} = %[[C0]] to %[[C4]] step

// -----

// Dynamic B and L: the number of full chunks is L / Q when L exceeds the
// recurrent threshold and 0 otherwise (a select), and the tail starts after
// the last full chunk.

// CHECK-LABEL: func.func @ssd_dynamic_length
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?x?x2x4xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[NB:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x?x2x4xf32>
// CHECK-DAG:     %[[L:.*]] = tensor.dim %[[X]], %[[C1]] : tensor<?x?x2x4xf32>
// CHECK-DAG:     %[[LONG:.*]] = arith.cmpi ugt, %[[L]], %[[C8]] : index
// CHECK-DAG:     %[[NQ:.*]] = arith.divui %[[L]], %[[C32]] : index
// CHECK:         %[[NCH:.*]] = arith.select %[[LONG]], %[[NQ]], %[[C0]] : index
// CHECK-NEXT:    %[[TAIL:.*]] = arith.muli %[[NCH]], %[[C32]] : index
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[NB]] step %[[C1]]
// CHECK:           scf.for
// CHECK:             scf.for %{{.*}} = %[[C0]] to %[[NCH]] step %[[C1]]
// CHECK:               tensor.extract_slice %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, 0] [1, 32, 1, 4] [1, 1, 1, 1] : tensor<?x?x2x4xf32> to tensor<32x4xf32>
// CHECK:             scf.for %{{.*}} = %[[TAIL]] to %[[L]] step %[[C1]]
// CHECK:               tensor.extract_slice %[[X]][%{{.*}}, %{{.*}}, %{{.*}}, 0] [1, 1, 1, 4] [1, 1, 1, 1] : tensor<?x?x2x4xf32> to tensor<4xf32>
module attributes {mixer.target = {scan_chunk_limit = 0 : i64, scan_head_block_limit = 1 : i64}} {
func.func @ssd_dynamic_length(%x: tensor<?x?x2x4xf32>, %la: tensor<?x?x2xf32>, %b: tensor<?x?x1x8xf32>, %c: tensor<?x?x1x8xf32>, %y0: tensor<?x?x2x4xf32>, %s0: tensor<?x2x4x8xf32>) -> (tensor<?x?x2x4xf32>, tensor<?x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(32) ins(%x, %la, %b, %c : tensor<?x?x2x4xf32>, tensor<?x?x2xf32>, tensor<?x?x1x8xf32>, tensor<?x?x1x8xf32>) outs(%y0, %s0 : tensor<?x?x2x4xf32>, tensor<?x2x4x8xf32>) -> tensor<?x?x2x4xf32>, tensor<?x2x4x8xf32>
  return %y, %s : tensor<?x?x2x4xf32>, tensor<?x2x4x8xf32>
}
}

// The threshold option reaches the pattern: the comparison is against 0.
// THRESHOLD0-LABEL: func.func @ssd_dynamic_length
// THRESHOLD0-DAG:     %[[C0:.*]] = arith.constant 0 : index
// THRESHOLD0-DAG:     %[[C1:.*]] = arith.constant 1 : index
// THRESHOLD0-DAG:     %[[L:.*]] = tensor.dim %{{.*}}, %[[C1]] : tensor<?x?x2x4xf32>
// THRESHOLD0:         arith.cmpi ugt, %[[L]], %[[C0]] : index

// -----

// With a third `outs`, the chunk states: St ([N, P]) recorded before each
// of the 40 / 16 = 2 full chunks and where the tail starts (row 2), into
// that `outs`. The recurrent form is not used for short sequences here.
// CHECK-LABEL: func.func @ssd_chunk_states
// CHECK-SAME:    %[[CS0:[^:]*]]: tensor<1x2x3x8x4xf32>)
// CHECK:         scf.for %[[BI:[^ ]*]] = {{.*}} iter_args({{.*}}, %[[CSB:[^ ]*]] = %[[CS0]])
// CHECK:           scf.for %[[HI:[^ ]*]] =
// CHECK:             %[[CH:.*]]:3 = scf.for %[[CI:[^ ]*]] = {{.*}} iter_args(%{{.*}}, %[[ST:[^ ]*]] = %{{.*}}, %[[CSC:[^ ]*]] = %{{.*}})
// CHECK:               tensor.insert_slice %[[ST]] into %[[CSC]][%[[BI]], %[[HI]], %[[CI]], 0, 0] [1, 1, 1, 8, 4]
// CHECK:               tensor<16x16xf32>
// CHECK:             tensor.insert_slice %[[CH]]#1 into %[[CH]]#2[%[[BI]], %[[HI]], %{{.*}}, 0, 0] [1, 1, 1, 8, 4]
// CHECK:         return %{{.*}}#0, %{{.*}}#2
func.func @ssd_chunk_states(%x: tensor<1x40x2x4xf32>, %la: tensor<1x40x2xf32>, %b: tensor<1x40x1x8xf32>, %c: tensor<1x40x1x8xf32>, %y0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x4x8xf32>, %cs0: tensor<1x2x3x8x4xf32>) -> (tensor<1x40x2x4xf32>, tensor<1x2x3x8x4xf32>) {
  %y, %s, %cs = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<1x40x2x4xf32>, tensor<1x40x2xf32>, tensor<1x40x1x8xf32>, tensor<1x40x1x8xf32>) outs(%y0, %s0, %cs0 : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>) -> tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>
  return %y, %cs : tensor<1x40x2x4xf32>, tensor<1x2x3x8x4xf32>
}

// -----

// When nothing reads y and the final state, only the state passing is
// built: no intra-chunk scores, no output.
// CHECK-LABEL: func.func @ssd_chunk_states_only
// CHECK:         scf.for
// CHECK:           tensor.insert_slice %{{.*}} : tensor<8x4xf32> into tensor<1x2x3x8x4xf32>
// CHECK-NOT:       tensor<16x16xf32>
// CHECK-NOT:       into tensor<1x40x2x4xf32>
// CHECK:         return
func.func @ssd_chunk_states_only(%x: tensor<1x40x2x4xf32>, %la: tensor<1x40x2xf32>, %b: tensor<1x40x1x8xf32>, %c: tensor<1x40x1x8xf32>, %y0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x4x8xf32>, %cs0: tensor<1x2x3x8x4xf32>) -> tensor<1x2x3x8x4xf32> {
  %y, %s, %cs = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<1x40x2x4xf32>, tensor<1x40x2xf32>, tensor<1x40x1x8xf32>, tensor<1x40x1x8xf32>) outs(%y0, %s0, %cs0 : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>) -> tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>
  return %cs : tensor<1x2x3x8x4xf32>
}

// -----

// The same behind the run-time checks' guard: the scf.if yields y and the
// final state, but nothing reads those results of the scf.if.
// CHECK-LABEL: func.func @ssd_chunk_states_only_guarded
// CHECK:         scf.if
// CHECK:           tensor.insert_slice %{{.*}} : tensor<8x4xf32> into tensor<1x2x3x8x4xf32>
// CHECK-NOT:       tensor<16x16xf32>
// CHECK-NOT:       into tensor<1x40x2x4xf32>
// CHECK:         return
func.func @ssd_chunk_states_only_guarded(%ok: i1, %x: tensor<1x40x2x4xf32>, %la: tensor<1x40x2xf32>, %b: tensor<1x40x1x8xf32>, %c: tensor<1x40x1x8xf32>, %y0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x4x8xf32>, %cs0: tensor<1x2x3x8x4xf32>) -> tensor<1x2x3x8x4xf32> {
  %r:3 = scf.if %ok -> (tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>) {
    %y, %s, %cs = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<1x40x2x4xf32>, tensor<1x40x2xf32>, tensor<1x40x1x8xf32>, tensor<1x40x1x8xf32>) outs(%y0, %s0, %cs0 : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>) -> tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>
    scf.yield %y, %s, %cs : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>
  } else {
    scf.yield %y0, %s0, %cs0 : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>
  }
  return %r#2 : tensor<1x2x3x8x4xf32>
}

// -----

// A read result of the guard keeps the output.
// CHECK-LABEL: func.func @ssd_chunk_states_guarded_output_read
// CHECK:         scf.if
// CHECK:           tensor<16x16xf32>
// CHECK:         return
func.func @ssd_chunk_states_guarded_output_read(%ok: i1, %x: tensor<1x40x2x4xf32>, %la: tensor<1x40x2xf32>, %b: tensor<1x40x1x8xf32>, %c: tensor<1x40x1x8xf32>, %y0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x4x8xf32>, %cs0: tensor<1x2x3x8x4xf32>) -> (tensor<1x40x2x4xf32>, tensor<1x2x3x8x4xf32>) {
  %r:3 = scf.if %ok -> (tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>) {
    %y, %s, %cs = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<1x40x2x4xf32>, tensor<1x40x2xf32>, tensor<1x40x1x8xf32>, tensor<1x40x1x8xf32>) outs(%y0, %s0, %cs0 : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>) -> tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>
    scf.yield %y, %s, %cs : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>
  } else {
    scf.yield %y0, %s0, %cs0 : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>, tensor<1x2x3x8x4xf32>
  }
  return %r#0, %r#2 : tensor<1x40x2x4xf32>, tensor<1x2x3x8x4xf32>
}
