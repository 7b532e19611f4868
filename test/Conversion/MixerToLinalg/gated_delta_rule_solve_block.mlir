// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s --check-prefix=CPU
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90" --convert-mixer-to-linalg \
// RUN:   | FileCheck %s --check-prefix=GPU

// The triangular solve follows the target. The forward of chunk_size(32)
// on a CPU takes chunks of at most one triangular block, here halved to 8
// tokens (scanChunk: for heads this small the causal products outweigh the
// state's): four chunks, each solved by 7 static ops, row i contracting
// just the i rows solved before it, in place; on a GPU one chunk of 32, row
// by row (one loop of 32 rows, each over all 32). The CPU forms the decays
// between tokens once for both masks, one exp per pair; the GPU's masks
// take their own exps (fewer live temporaries in its kernel).

// CPU-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CPU-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CPU-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CPU-LABEL: func.func @gdr_solve
// CPU-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CPU-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CPU:         scf.for %{{.*}} = %{{.*}} to %[[C4]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1x32x1x4xf32>, tensor<8x4xf32>)
// CPU:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8xf64>, tensor<8xf64>) outs(%{{.*}} : tensor<8x8xf32>)
// CPU:             math.exp
// CPU:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8x8xf32>)
// CPU:           %[[NEGA:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8x8xf32>) outs(%{{.*}} : tensor<8x8xf32>)
// CPU-NEXT:        ^bb0
// CPU-NEXT:          arith.negf
// CPU-NOT:       scf.for
// CPU:           %[[A1:.*]] = tensor.extract_slice %[[NEGA]][1, 0] [1, 1] [1, 1] : tensor<8x8xf32> to tensor<1x1xf32>
// CPU:           %[[X0:.*]] = tensor.extract_slice %[[RHS:.*]][0, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<1x4xf32>
// CPU:           %[[X1:.*]] = tensor.extract_slice %[[RHS]][1, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<1x4xf32>
// CPU:           %[[R1:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[A1]], %[[X0]] : tensor<1x1xf32>, tensor<1x4xf32>) outs(%[[X1]] : tensor<1x4xf32>)
// CPU:           %[[S1:.*]] = tensor.insert_slice %[[R1]] into %[[RHS]][1, 0] [1, 4] [1, 1]
// CPU:           %[[A2:.*]] = tensor.extract_slice %[[NEGA]][2, 0] [1, 2] [1, 1] : tensor<8x8xf32> to tensor<1x2xf32>
// CPU:           %[[X01:.*]] = tensor.extract_slice %[[S1]][0, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
// CPU:           linalg.generic {{.*}} ins(%[[A2]], %[[X01]] : tensor<1x2xf32>, tensor<2x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// CPU:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3xf32>, tensor<3x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// CPU:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<4x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// CPU:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x5xf32>, tensor<5x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// CPU:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6xf32>, tensor<6x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// CPU:           %[[A7:.*]] = tensor.extract_slice %[[NEGA]][7, 0] [1, 7] [1, 1] : tensor<8x8xf32> to tensor<1x7xf32>
// CPU:           linalg.generic {{.*}} ins(%[[A7]], %{{.*}} : tensor<1x7xf32>, tensor<7x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// CPU-NOT:       linalg.copy
// CPU:           tensor.insert_slice %{{.*}} into %{{.*}}[7, 0] [1, 4] [1, 1]
// CPU-NOT:     tensor<32x4xf32>

// GPU-LABEL: func.func @gdr_solve
// GPU-DAG:     %[[C32:.*]] = arith.constant 32 : index
// GPU-NOT:     ins(%{{.*}}, %{{.*}} : tensor<32xf64>, tensor<32xf64>) outs
// GPU:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<32xf64>, tensor<32xf64>, tensor<32xf32>) outs(%{{.*}} : tensor<32x32xf32>)
// GPU:           math.exp
// GPU:         arith.negf
// GPU:         scf.for %{{.*}} = %{{.*}} to %[[C32]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<32x4xf32>)
// GPU:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x32xf32>, tensor<32x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// GPU-NOT:     -> (tensor<16x4xf32>)
func.func @gdr_solve(%q: tensor<1x32x1x8xf32>, %k: tensor<1x32x1x8xf32>, %v: tensor<1x32x1x4xf32>,
                     %g: tensor<1x32x1xf32>, %beta: tensor<1x32x1xf32>,
                     %o0: tensor<1x32x1x4xf32>, %s0: tensor<1x1x8x4xf32>)
    -> (tensor<1x32x1x4xf32>, tensor<1x1x8x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(32)
      ins(%q, %k, %v, %g, %beta : tensor<1x32x1x8xf32>, tensor<1x32x1x8xf32>, tensor<1x32x1x4xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>)
      outs(%o0, %s0 : tensor<1x32x1x4xf32>, tensor<1x1x8x4xf32>)
      -> tensor<1x32x1x4xf32>, tensor<1x1x8x4xf32>
  return %o, %s : tensor<1x32x1x4xf32>, tensor<1x1x8x4xf32>
}

// The backward keeps the op's chunk (its boundary states are at multiples
// of chunk_size); the forward chunks that recompute them solve on a CPU in
// diagonal blocks of 16 rows, in place: rows 0-15 by substitution on the
// first diagonal block of -A (15 static rows), rows 16-31 take their
// coupling to rows 0-15 in one [16, 16] x [16, Dv] contraction, then the
// substitution on the second diagonal block. On a GPU row by row over the
// whole chunk.

// CPU-LABEL: func.func @gdrb_solve
// CPU:         %[[RHS:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<32x4xf32>, tensor<32xf32>) outs(%{{.*}} : tensor<32x4xf32>)
// CPU:           arith.subf
// CPU:         %[[NEGA:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<32x32xf32>)
// CPU:           arith.negf
// CPU:         %[[D0:.*]] = tensor.extract_slice %[[NEGA]][0, 0] [16, 16] [1, 1] : tensor<32x32xf32> to tensor<16x16xf32>
// CPU:         %[[X0:.*]] = tensor.extract_slice %[[RHS]][0, 0] [16, 4] [1, 1]
// CPU-NOT:     linalg.copy
// CPU:         %[[A1:.*]] = tensor.extract_slice %[[D0]][1, 0] [1, 1] [1, 1] : tensor<16x16xf32> to tensor<1x1xf32>
// CPU:         %[[R0:.*]] = tensor.extract_slice %[[X0]][0, 0] [1, 4] [1, 1]
// CPU:         %[[R1:.*]] = tensor.extract_slice %[[X0]][1, 0] [1, 4] [1, 1]
// CPU:         linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[A1]], %[[R0]] : tensor<1x1xf32>, tensor<1x4xf32>) outs(%[[R1]] : tensor<1x4xf32>)
// CPU:         %[[A15:.*]] = tensor.extract_slice %[[D0]][15, 0] [1, 15] [1, 1] : tensor<16x16xf32> to tensor<1x15xf32>
// CPU:         linalg.generic {{.*}} ins(%[[A15]], %{{.*}} : tensor<1x15xf32>, tensor<15x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// CPU:         %[[B0:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[15, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<16x4xf32>
// CPU:         %[[XI0:.*]] = tensor.insert_slice %[[B0]] into %[[RHS]][0, 0] [16, 4] [1, 1]
// CPU:         %[[A10:.*]] = tensor.extract_slice %[[NEGA]][16, 0] [16, 16] [1, 1] : tensor<32x32xf32> to tensor<16x16xf32>
// CPU:         %[[X1:.*]] = tensor.extract_slice %[[XI0]][16, 0] [16, 4] [1, 1]
// CPU:         %[[X1U:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[A10]], %[[B0]] : tensor<16x16xf32>, tensor<16x4xf32>) outs(%[[X1]] : tensor<16x4xf32>)
// CPU:         %[[D1:.*]] = tensor.extract_slice %[[NEGA]][16, 16] [16, 16] [1, 1] : tensor<32x32xf32> to tensor<16x16xf32>
// CPU-NOT:     linalg.copy
// CPU:         tensor.extract_slice %[[D1]][1, 0] [1, 1] [1, 1]
// CPU:         tensor.extract_slice %[[X1U]][0, 0] [1, 4] [1, 1]
// CPU:         tensor.extract_slice %[[D1]][15, 0] [1, 15] [1, 1]
// CPU:         %[[B1:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[15, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<16x4xf32>
// CPU:         tensor.insert_slice %[[B1]] into %[[XI0]][16, 0] [16, 4] [1, 1]

// GPU-LABEL: func.func @gdrb_solve
// GPU-DAG:     %[[C32:.*]] = arith.constant 32 : index
// GPU:         arith.negf
// GPU:         scf.for %{{.*}} = %{{.*}} to %[[C32]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<32x4xf32>)
// GPU:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x32xf32>, tensor<32x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
// GPU-NOT:     -> (tensor<16x4xf32>)
func.func @gdrb_solve(%q: tensor<1x32x1x8xf32>, %k: tensor<1x32x1x8xf32>, %v: tensor<1x32x1x4xf32>, %g: tensor<1x32x1xf32>, %beta: tensor<1x32x1xf32>, %h: tensor<1x1x8x4xf32>, %do: tensor<1x32x1x4xf32>, %ds: tensor<1x1x8x4xf32>, %o0: tensor<1x32x1x8xf32>, %o1: tensor<1x32x1x8xf32>, %o2: tensor<1x32x1x4xf32>, %o3: tensor<1x32x1xf32>, %o4: tensor<1x32x1xf32>, %o5: tensor<1x1x8x4xf32>) -> (tensor<1x32x1x8xf32>, tensor<1x32x1x8xf32>, tensor<1x32x1x4xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>, tensor<1x1x8x4xf32>) {
  %r:6 = mixer.gated_delta_rule_backward chunk_size(32) ins(%q, %k, %v, %g, %beta : tensor<1x32x1x8xf32>, tensor<1x32x1x8xf32>, tensor<1x32x1x4xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>) init(%h : tensor<1x1x8x4xf32>) d_o(%do : tensor<1x32x1x4xf32>) d_final_state(%ds : tensor<1x1x8x4xf32>) outs(%o0, %o1, %o2, %o3, %o4, %o5 : tensor<1x32x1x8xf32>, tensor<1x32x1x8xf32>, tensor<1x32x1x4xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>, tensor<1x1x8x4xf32>) -> tensor<1x32x1x8xf32>, tensor<1x32x1x8xf32>, tensor<1x32x1x4xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>, tensor<1x1x8x4xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<1x32x1x8xf32>, tensor<1x32x1x8xf32>, tensor<1x32x1x4xf32>, tensor<1x32x1xf32>, tensor<1x32x1xf32>, tensor<1x1x8x4xf32>
}
