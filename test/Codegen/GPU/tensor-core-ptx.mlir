// The tensor-core code of a 64x64x64 block matmul through NVVM to PTX for
// sm_80 and sm_90a, assembled by ptxas for that chip: mma.sync is in the
// PTX, and nothing spills.
// REQUIRES: ptxas
// RUN: mixer-opt %s -mixer-gpu-tensor-core-contractions -canonicalize \
// RUN:   -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa opt-level=3" -o %t.sm80.mlir
// RUN: %python %S/Inputs/print_ptx.py %t.sm80.mlir > %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.sm80.ptx
// RUN: %ptxas -arch=sm_80 -O3 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s --check-prefix=SASS
// RUN: mixer-opt %s -mixer-gpu-tensor-core-contractions -canonicalize \
// RUN:   -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa opt-level=3" -o %t.sm90a.mlir
// RUN: %python %S/Inputs/print_ptx.py %t.sm90a.mlir > %t.sm90a.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.sm90a.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t.sm90a.ptx -o %t.sm90a.cubin 2>&1 | FileCheck %s --check-prefix=SASS
// The plain tf32 variant assembles too.
// RUN: mixer-opt %s -mixer-gpu-tensor-core-contractions=precision=tf32 -canonicalize \
// RUN:   -gpu-lower-to-nvvm-pipeline="cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa opt-level=3" -o %t.tf32.mlir
// RUN: %python %S/Inputs/print_ptx.py %t.tf32.mlir > %t.tf32.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.tf32.ptx
// RUN: %ptxas -arch=sm_80 -O3 -v %t.tf32.ptx -o %t.tf32.cubin 2>&1 | FileCheck %s --check-prefix=SASS

// PTX-LABEL: .entry matmul_64(
// PTX:         mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX:         bar.sync
// PTX-LABEL: .entry cross_term(
// PTX:         mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32

// SASS: Compiling entry function 'cross_term'
// SASS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS: Compiling entry function 'matmul_64'
// SASS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

#lhs = affine_map<(i, j, d) -> (i, d)>
#rhs = affine_map<(i, j, d) -> (j, d)>
#out = affine_map<(i, j, d) -> (i, j)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul_64(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                        %c: memref<64x64xf32>) kernel {
      linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                    outs(%c : memref<64x64xf32>)
      gpu.return
    }
    // The kernel sums' x yT over D = 8, the tiles in shared memory.
    gpu.func @cross_term(%x: memref<128x8xf32>, %y: memref<64x8xf32>,
                         %o: memref<128x64xf32>)
        workgroup(%xs: memref<128x8xf32, #gpu.address_space<workgroup>>,
                  %ys: memref<64x8xf32, #gpu.address_space<workgroup>>) kernel {
      linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                      iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%xs, %ys : memref<128x8xf32, #gpu.address_space<workgroup>>,
                         memref<64x8xf32, #gpu.address_space<workgroup>>)
          outs(%o : memref<128x64xf32>) {
      ^bb0(%u: f32, %v: f32, %acc: f32):
        %p = arith.mulf %u, %v : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      }
      gpu.return
    }
  }
}
