// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s --check-prefix=CPU
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90" --convert-mixer-to-linalg \
// RUN:   | FileCheck %s --check-prefix=GPU

// The triangular solve of a chunk of 32 follows the target: on a CPU in
// diagonal blocks of 16 rows (two row loops of 16, the coupling between
// them one [16, 16] x [16, Dv] contraction); on a GPU row by row over the
// whole chunk (one loop of 32 rows).

// CPU-LABEL: func.func @gdr_solve
// CPU-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CPU:         arith.negf
// CPU:         scf.for %{{.*}} = %{{.*}} to %[[C16]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x4xf32>)
// CPU:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x4xf32>) outs(%{{.*}} : tensor<16x4xf32>)
// CPU:         scf.for %{{.*}} = %{{.*}} to %[[C16]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x4xf32>)
// CPU-NOT:     -> (tensor<32x4xf32>)

// GPU-LABEL: func.func @gdr_solve
// GPU-DAG:     %[[C32:.*]] = arith.constant 32 : index
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
