// RUN: mixer-opt %s -split-input-file -mixer-gpu-tensor-core-contractions -canonicalize | FileCheck %s
// RUN: mixer-opt %s -split-input-file -mixer-gpu-tensor-core-contractions=precision=tf32 -canonicalize | FileCheck %s --check-prefix=TF32

// A 64x64x64 matmul run by a block: 4 warp tiles of 32x32, each 2x4
// accumulators; the 3xTF32 split makes 3 products per fragment pair.
// CHECK-LABEL: gpu.func @matmul_64
// CHECK-DAG:     %[[MASK:.*]] = arith.constant dense<-8192> : vector<4x1xi32>
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[TX:.*]] = gpu.thread_id x
// CHECK:         gpu.barrier
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C4]] step %{{.*}} {
// CHECK-COUNT-32:  memref.load %arg2
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[C64]] step %[[C8]] iter_args(
// CHECK-COUNT-8:     memref.load %arg0
// CHECK:             arith.andi %{{.*}}, %[[MASK]] : vector<4x1xi32>
// CHECK:             arith.subf
// CHECK-COUNT-24:    nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:             scf.yield
// CHECK-COUNT-32:  memref.store %{{.*}}, %arg2
// CHECK:         gpu.barrier
// CHECK-NOT:     linalg.matmul
// CHECK:         gpu.return
// TF32-LABEL: gpu.func @matmul_64
// TF32-NOT:     arith.andi
// TF32-COUNT-8: nvgpu.mma.sync
// TF32-NOT:     nvgpu.mma.sync
// TF32:         scf.yield
gpu.module @kernels {
  gpu.func @matmul_64(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                      %c: memref<64x64xf32>) kernel {
    linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                  outs(%c : memref<64x64xf32>)
    gpu.return
  }
}

// -----

// Inside a block-mapped scf.forall, on shared-memory operands, with B
// transposed through the matmul's indexing maps: B is read at (n, k).
// CHECK-LABEL: func.func @transpose_b_in_block_forall
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK:             memref.load %{{.*}} : memref<16x8xf32, #gpu.address_space<workgroup>>
// CHECK:             nvgpu.mma.sync
// CHECK-NOT:       linalg.matmul
// CHECK:         } {mapping = [#gpu.block<x>]}
func.func @transpose_b_in_block_forall(%a: memref<16x8xf32, #gpu.address_space<workgroup>>,
    %b: memref<8x8xf32, #gpu.address_space<workgroup>>, %c: memref<16x8xf32>) {
  scf.forall (%i) in (4) {
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>]
        ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x8xf32, #gpu.address_space<workgroup>>)
        outs(%c : memref<16x8xf32>)
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// batch_matmul: the batch index is part of the tile index; C x B^T-shaped
// generic contraction (the cross term of the kernel sums): out[i, j] +=
// x[i, d] * y[j, d].
// CHECK-LABEL: gpu.func @batch_and_generic
// CHECK:         scf.for
// CHECK:           nvgpu.mma.sync
// CHECK:         scf.for
// CHECK:           nvgpu.mma.sync
// CHECK-NOT:     linalg.batch_matmul
// CHECK-NOT:     linalg.generic
#lhs = affine_map<(i, j, d) -> (i, d)>
#rhs = affine_map<(i, j, d) -> (j, d)>
#out = affine_map<(i, j, d) -> (i, j)>
gpu.module @kernels {
  gpu.func @batch_and_generic(%a: memref<2x32x16xf32>, %b: memref<2x16x8xf32>,
      %c: memref<2x32x8xf32>, %x: memref<64x8xf32>, %y: memref<16x8xf32>,
      %o: memref<64x16xf32>) kernel {
    linalg.batch_matmul ins(%a, %b : memref<2x32x16xf32>, memref<2x16x8xf32>)
                        outs(%c : memref<2x32x8xf32>)
    linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                    iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %y : memref<64x8xf32>, memref<16x8xf32>) outs(%o : memref<64x16xf32>) {
    ^bb0(%u: f32, %v: f32, %acc: f32):
      %p = arith.mulf %u, %v : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
    gpu.return
  }
}

// -----

// The SIMT fallback keeps what the tensor cores cannot take: M not a
// multiple of 16, K not a multiple of 8, f16, dynamic sizes, tensors,
// a contraction inside a thread-level loop, and host code.
// CHECK-LABEL: gpu.func @left_alone
// CHECK-NOT:     nvgpu.mma.sync
// CHECK:         linalg.matmul ins(%{{.*}} : memref<20x64xf32>
// CHECK:         linalg.matmul ins(%{{.*}} : memref<16x12xf32>
// CHECK:         linalg.matmul ins(%{{.*}} : memref<16x16xf16>
// CHECK:         linalg.matmul ins(%{{.*}} : memref<?x16xf32>
// CHECK:         linalg.matmul ins(%{{.*}} : tensor<16x16xf32>
// CHECK:         scf.forall
// CHECK:           linalg.matmul
// CHECK:         } {mapping = [#gpu.thread<x>]}
// CHECK-NOT:     nvgpu.mma.sync
// CHECK:         gpu.return
gpu.module @kernels {
  gpu.func @left_alone(%a: memref<20x64xf32>, %b: memref<64x8xf32>, %c: memref<20x8xf32>,
      %a2: memref<16x12xf32>, %b2: memref<12x8xf32>, %c2: memref<16x8xf32>,
      %h: memref<16x16xf16>, %hc: memref<16x16xf16>,
      %d: memref<?x16xf32>, %db: memref<16x16xf32>, %dc: memref<?x16xf32>,
      %t: tensor<16x16xf32>, %tc: memref<16x16xf32>) kernel {
    linalg.matmul ins(%a, %b : memref<20x64xf32>, memref<64x8xf32>) outs(%c : memref<20x8xf32>)
    linalg.matmul ins(%a2, %b2 : memref<16x12xf32>, memref<12x8xf32>) outs(%c2 : memref<16x8xf32>)
    linalg.matmul ins(%h, %h : memref<16x16xf16>, memref<16x16xf16>) outs(%hc : memref<16x16xf16>)
    linalg.matmul ins(%d, %db : memref<?x16xf32>, memref<16x16xf32>) outs(%dc : memref<?x16xf32>)
    %r = linalg.matmul ins(%t, %t : tensor<16x16xf32>, tensor<16x16xf32>) outs(%t : tensor<16x16xf32>) -> tensor<16x16xf32>
    bufferization.materialize_in_destination %r in restrict writable %tc : (tensor<16x16xf32>, memref<16x16xf32>) -> ()
    scf.forall (%i) in (32) {
      linalg.matmul ins(%db, %db : memref<16x16xf32>, memref<16x16xf32>) outs(%tc : memref<16x16xf32>)
    } {mapping = [#gpu.thread<x>]}
    gpu.return
  }
}

// -----

// CHECK-LABEL: func.func @host
// CHECK:         linalg.matmul
// CHECK-NOT:     nvgpu.mma.sync
func.func @host(%a: memref<16x8xf32>, %b: memref<8x8xf32>, %c: memref<16x8xf32>) {
  linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x8xf32>) outs(%c : memref<16x8xf32>)
  return
}
