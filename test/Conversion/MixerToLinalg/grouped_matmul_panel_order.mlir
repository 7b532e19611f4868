// RUN: mixer-opt %s --mixer-set-target="cpu=skylake-avx512" --convert-mixer-to-linalg | FileCheck %s --check-prefix=CPU
// RUN: mixer-opt %s --mixer-set-target="chip=sm_90a" --convert-mixer-to-linalg | FileCheck %s --check-prefix=GPU

// The order of the slab and panel loops of mixer.grouped_matmul over
// weights packed beforehand (K = 512: each [512, 32] panel is 64 KiB). On a
// CPU whose L1 (48 KiB on Skylake-X) cannot hold such a panel, each slab of
// 14 rows sweeps both panels: the panel loop inside the slab loop. A GPU
// has no such rule: each panel is swept by every slab of 16 rows, the
// order of the weights read in place. The CPU's micro-kernel prefetches the
// rows 16 ahead of a panel streaming from L2 into L1
// (mixer.prefetch_panel_rows); the GPU's products have none.

// CPU-LABEL: func.func @grouped_matmul_packed_large_k
// CPU:         scf.for %[[E:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>, index)
// CPU:           scf.for %[[I:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>)
// CPU:             tensor.extract_slice %{{.+}}[%{{.+}}, 0] [14, 512] [1, 1]
// CPU:             scf.for %[[P:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>)
// CPU:               tensor.extract_slice %{{.+}}[%[[E]], %[[P]], 0, 0] [1, 1, 512, 32] [1, 1, 1, 1]
// CPU:               linalg.generic {{.*}} attrs = {mixer.prefetch_panel_rows = 16 : i64

// GPU-LABEL: func.func @grouped_matmul_packed_large_k
// GPU:         scf.for %[[E:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>, index)
// GPU:           scf.for %[[P:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>)
// GPU:             scf.for %[[I:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>)
// GPU:               tensor.extract_slice %{{.+}}[%{{.+}}, 0] [16, 512] [1, 1]
// GPU:               tensor.extract_slice %{{.+}}[%[[E]], %[[P]], 0, 0] [1, 1, 512, 32] [1, 1, 1, 1]
// GPU-NOT:           mixer.prefetch_panel_rows
func.func @grouped_matmul_packed_large_k(%lhs: tensor<?x512xf32>, %rhs: tensor<4x2x512x32xf32>, %gs: tensor<4xi32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x512xf32>, tensor<4x2x512x32xf32>, tensor<4xi32>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}

// With K = 128 each [128, 32] panel (16 KiB) fits in half of L1: it stays
// there while every slab of the group sweeps it (the slab loop inside the
// panel loop), and nothing prefetches it.

// CPU-LABEL: func.func @grouped_matmul_packed_small_k
// CPU:         scf.for %[[E:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>, index)
// CPU:           scf.for %[[P:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>)
// CPU:             scf.for %[[I:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>)
// CPU:               tensor.extract_slice %{{.+}}[%{{.+}}, 0] [14, 128] [1, 1]
// CPU:               tensor.extract_slice %{{.+}}[%[[E]], %[[P]], 0, 0] [1, 1, 128, 32] [1, 1, 1, 1]
// CPU-NOT:     mixer.prefetch_panel_rows
// CPU:         return
func.func @grouped_matmul_packed_small_k(%lhs: tensor<?x128xf32>, %rhs: tensor<4x2x128x32xf32>, %gs: tensor<4xi32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x128xf32>, tensor<4x2x128x32xf32>, tensor<4xi32>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}
