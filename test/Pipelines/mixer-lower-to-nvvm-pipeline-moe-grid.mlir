// RUN: mixer-opt %s --mixer-lower-to-nvvm-pipeline="chip=sm_90a" \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2>&1 | FileCheck %s

// The launch grids of the routing gathers at the public shape (T = 65536
// tokens, k = 2, E = 8, N = 512): the row copies of moe_dispatch and the
// token rows of moe_combine run one block per row, their columns over the
// block's threads; only dispatch's counting sort runs in one thread.

// The group sizes' fill, the counting sort (one thread), then one block per
// sorted row.
// CHECK-LABEL: gpu.module @moe_dispatch_kernel [
// CHECK:         llvm.func @moe_dispatch_kernel({{.*}}gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>
// CHECK-LABEL: gpu.module @moe_dispatch_kernel_{{[0-9]+}} [
// CHECK:         llvm.func @moe_dispatch_kernel({{.*}}gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>
// CHECK-LABEL: gpu.module @moe_dispatch_kernel_{{[0-9]+}} [
// CHECK:         llvm.func @moe_dispatch_kernel({{.*}}gpu.known_block_size = array<i32: 1, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>
// CHECK-LABEL: gpu.module @moe_dispatch_kernel_{{[0-9]+}} [
// CHECK:         llvm.func @moe_dispatch_kernel({{.*}}gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 131072, 1, 1>
// CHECK:           nvvm.read.ptx.sreg.ctaid.x
// CHECK:           nvvm.read.ptx.sreg.tid.x
// CHECK:           llvm.load {{.*}} : !llvm.ptr -> f32
// CHECK:           llvm.store {{.*}} : f32, !llvm.ptr

// The inverse permutation zeroed (1024 blocks, the most a grid kernel
// takes), scattered by one block per slot, then one block per token.
// CHECK-LABEL: gpu.module @moe_combine_kernel [
// CHECK:         llvm.func @moe_combine_kernel({{.*}}gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 1024, 1, 1>
// CHECK-LABEL: gpu.module @moe_combine_kernel_{{[0-9]+}} [
// CHECK:         llvm.func @moe_combine_kernel({{.*}}gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 131072, 1, 1>
// CHECK-LABEL: gpu.module @moe_combine_kernel_{{[0-9]+}} [
// CHECK:         llvm.func @moe_combine_kernel({{.*}}gpu.known_block_size = array<i32: 128, 1, 1>, gpu.known_grid_size = array<i32: 65536, 1, 1>
// CHECK:           nvvm.read.ptx.sreg.ctaid.x
// CHECK:           nvvm.read.ptx.sreg.tid.x
// CHECK:           llvm.fmul {{.*}} : f32
// CHECK-NOT:     gpu.module @moe_combine_kernel

func.func @moe_dispatch(%x: tensor<65536x512xf32>, %ids: tensor<65536x2xi32>, %s0: tensor<131072x512xf32>, %g0: tensor<8xi64>, %p0: tensor<131072xi32>) -> (tensor<131072x512xf32>, tensor<8xi64>, tensor<131072xi32>) {
  %s, %g, %p = mixer.moe_dispatch num_experts(8) ins(%x, %ids : tensor<65536x512xf32>, tensor<65536x2xi32>) outs(%s0, %g0, %p0 : tensor<131072x512xf32>, tensor<8xi64>, tensor<131072xi32>) -> tensor<131072x512xf32>, tensor<8xi64>, tensor<131072xi32>
  return %s, %g, %p : tensor<131072x512xf32>, tensor<8xi64>, tensor<131072xi32>
}

func.func @moe_combine(%eo: tensor<131072x512xf32>, %p: tensor<131072xi32>, %w: tensor<65536x2xf32>, %o: tensor<65536x512xf32>) -> tensor<65536x512xf32> {
  %y = mixer.moe_combine ins(%eo, %p, %w : tensor<131072x512xf32>, tensor<131072xi32>, tensor<65536x2xf32>) outs(%o : tensor<65536x512xf32>) -> tensor<65536x512xf32>
  return %y : tensor<65536x512xf32>
}
