// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s --check-prefix=CPU
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90" --convert-mixer-to-linalg \
// RUN:   | FileCheck %s --check-prefix=GPU

// The triangular solve follows the target. The forward of chunk_size(32)
// on a CPU takes chunks of at most one triangular block, here halved to 8
// tokens (scanChunk: for heads this small the causal products outweigh the
// state's): four chunks, each solved by one loop of 8 rows; on a GPU one
// chunk of 32, row by row (one loop of 32 rows). The CPU forms the decays
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
// CPU:           arith.negf
// CPU:           scf.for %{{.*}} = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<8x4xf32>)
// CPU:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<1x4xf32>)
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
// diagonal blocks of 16 rows: rows 0-15 by substitution on the first
// diagonal block of -A, rows 16-31 take their coupling to rows 0-15 in one
// [16, 16] x [16, Dv] contraction, then the substitution on the second
// diagonal block. On a GPU row by row over the whole chunk.

// CPU-LABEL: func.func @gdrb_solve
// CPU-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CPU-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CPU-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CPU:         %[[RHS:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<32x4xf32>, tensor<32xf32>) outs(%{{.*}} : tensor<32x4xf32>)
// CPU:           arith.subf
// CPU:         %[[NEGA:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<32x32xf32>)
// CPU:           arith.negf
// CPU:         %[[D0:.*]] = tensor.extract_slice %[[NEGA]][0, 0] [16, 16] [1, 1] : tensor<32x32xf32> to tensor<16x16xf32>
// CPU:         %[[X0S:.*]] = tensor.extract_slice %[[RHS]][0, 0] [16, 4] [1, 1]
// CPU:         %[[X0C:.*]] = linalg.copy ins(%[[X0S]] : tensor<16x4xf32>)
// CPU:         %[[X0:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[XA:.*]] = %[[X0C]]) -> (tensor<16x4xf32>)
// CPU:           %[[AROW:.*]] = tensor.extract_slice %[[D0]][%[[I]], 0] [1, 16] [1, 1]
// CPU:           linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[AROW]], %[[XA]] : tensor<1x16xf32>, tensor<16x4xf32>)
// CPU:         %[[XI0:.*]] = tensor.insert_slice %[[X0]] into %[[RHS]][0, 0] [16, 4] [1, 1]
// CPU:         %[[A10:.*]] = tensor.extract_slice %[[NEGA]][16, 0] [16, 16] [1, 1] : tensor<32x32xf32> to tensor<16x16xf32>
// CPU:         %[[X1S:.*]] = tensor.extract_slice %[[XI0]][16, 0] [16, 4] [1, 1]
// CPU:         %[[X1C:.*]] = linalg.copy ins(%[[X1S]] : tensor<16x4xf32>)
// CPU:         %[[X1U:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], {{.*}} ins(%[[A10]], %[[X0]] : tensor<16x16xf32>, tensor<16x4xf32>) outs(%[[X1C]] : tensor<16x4xf32>)
// CPU:         %[[D1:.*]] = tensor.extract_slice %[[NEGA]][16, 16] [16, 16] [1, 1] : tensor<32x32xf32> to tensor<16x16xf32>
// CPU:         %[[X1C2:.*]] = linalg.copy ins(%[[X1U]] : tensor<16x4xf32>)
// CPU:         %[[X1:.*]] = scf.for %{{.*}} = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%{{.*}} = %[[X1C2]]) -> (tensor<16x4xf32>)
// CPU:           tensor.extract_slice %[[D1]]
// CPU:         tensor.insert_slice %[[X1]] into %[[XI0]][16, 0] [16, 4] [1, 1]

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
