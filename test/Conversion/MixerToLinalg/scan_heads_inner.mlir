// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s --check-prefix=CPU
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90" --convert-mixer-to-linalg --split-input-file | FileCheck %s --check-prefix=GPU

// On a CPU, the heads of a tile (at most the target's scan_head_block_limit,
// 4) take each chunk in turn: per batch entry the heads' states are stacked
// [H, Dk, Dv], the loop over the full chunks holds the loop over the heads,
// and each head's step reads its rows of the chunk (adjacent to the other
// heads' in the time-major inputs) and its own state; the tail and the final
// states follow per head. GPU targets (a block of 1) keep one head at a time,
// each head scanning all its chunks.

// CPU-LABEL: func.func @la_heads_inner
// CPU-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CPU-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CPU-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CPU-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CPU-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CPU:         scf.for %[[BI:.*]] = %[[C0]] to %[[C1]] step %[[C1]]
// CPU:           %[[CH:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1x40x2x4xf32>, tensor<2x8x4xf32>)
// CPU:             scf.for %[[HI:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %[[STS:.*]] = %{{.*}}) -> (tensor<1x40x2x4xf32>, tensor<2x8x4xf32>)
// CPU:               tensor.extract_slice %[[STS]][%[[HI]], 0, 0] [1, 8, 4] [1, 1, 1] : tensor<2x8x4xf32> to tensor<8x4xf32>
// CPU:               tensor.extract_slice %{{.*}}[%[[BI]], %{{.*}}, %[[HI]], 0] [1, 16, 1, 8] [1, 1, 1, 1] : tensor<1x40x2x8xf32> to tensor<16x8xf32>
// CPU:               tensor.insert_slice %{{.*}} into %[[STS]][%[[HI]], 0, 0] [1, 8, 4] [1, 1, 1] : tensor<8x4xf32> into tensor<2x8x4xf32>
// The tail, per head, from the stacked states the chunks left.
// CPU:           scf.for %[[TH:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %[[CH]]#0, %{{.*}} = %[[CH]]#1)
// CPU:             scf.for %{{.*}} = %[[C32]] to %[[C40]] step %[[C1]]

// GPU-LABEL: func.func @la_heads_inner
// GPU:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>)
// GPU-NEXT:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>)
// GPU-NOT:       tensor<2x8x4xf32>
// GPU:         return
func.func @la_heads_inner(%q: tensor<1x40x2x8xf32>, %k: tensor<1x40x2x8xf32>, %v: tensor<1x40x2x4xf32>,
                          %ld: tensor<1x40x2xf32>, %o0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x8x4xf32>)
    -> (tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>) {
  %o, %s = mixer.linear_attention chunk_size(16)
      ins(%q, %k, %v : tensor<1x40x2x8xf32>, tensor<1x40x2x8xf32>, tensor<1x40x2x4xf32>)
      log_decay(%ld : tensor<1x40x2xf32>)
      outs(%o0, %s0 : tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>)
      -> tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>
  return %o, %s : tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>
}

// -----

// The gated delta rule's chunks are 8 tokens on a CPU for heads this small
// (scan_chunk_limit.mlir): five chunks, an empty tail.

// CPU-LABEL: func.func @gdr_heads_inner
// CPU-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CPU-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CPU-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CPU-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CPU-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CPU:         scf.for %[[BI:.*]] = %[[C0]] to %[[C1]] step %[[C1]]
// CPU:           %[[CH:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[C5]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1x40x2x4xf32>, tensor<2x8x4xf32>)
// CPU:             scf.for %[[HI:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %[[STS:.*]] = %{{.*}}) -> (tensor<1x40x2x4xf32>, tensor<2x8x4xf32>)
// CPU:               tensor.extract_slice %[[STS]][%[[HI]], 0, 0] [1, 8, 4] [1, 1, 1] : tensor<2x8x4xf32> to tensor<8x4xf32>
// CPU:               tensor.extract_slice %{{.*}}[%[[BI]], %{{.*}}, %[[HI]], 0] [1, 8, 1, 8] [1, 1, 1, 1] : tensor<1x40x2x8xf32> to tensor<8x8xf32>
// CPU:               tensor.insert_slice %{{.*}} into %[[STS]][%[[HI]], 0, 0] [1, 8, 4] [1, 1, 1] : tensor<8x4xf32> into tensor<2x8x4xf32>
// CPU:           scf.for %[[TH:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %[[CH]]#0, %{{.*}} = %[[CH]]#1)
// CPU:             scf.for %{{.*}} = %[[C40]] to %[[C40]] step %[[C1]]

// GPU-LABEL: func.func @gdr_heads_inner
// GPU:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>)
// GPU-NEXT:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>)
// GPU-NOT:       tensor<2x8x4xf32>
// GPU:         return
func.func @gdr_heads_inner(%q: tensor<1x40x2x8xf32>, %k: tensor<1x40x2x8xf32>, %v: tensor<1x40x2x4xf32>,
                           %g: tensor<1x40x2xf32>, %beta: tensor<1x40x2xf32>,
                           %o0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x8x4xf32>)
    -> (tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(16)
      ins(%q, %k, %v, %g, %beta : tensor<1x40x2x8xf32>, tensor<1x40x2x8xf32>, tensor<1x40x2x4xf32>, tensor<1x40x2xf32>, tensor<1x40x2xf32>)
      outs(%o0, %s0 : tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>)
      -> tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>
  return %o, %s : tensor<1x40x2x4xf32>, tensor<1x2x8x4xf32>
}
