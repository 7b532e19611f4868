// RUN: mixer-opt %s | mixer-opt | FileCheck %s
// RUN: mixer-opt %s --mlir-print-op-generic | mixer-opt | FileCheck %s
// Round trip of every mixer op, in custom and in generic form.

// CHECK-LABEL: func.func @ssd
// CHECK: mixer.ssd chunk_size(64) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>) outs(
func.func @ssd(%x: tensor<2x100x8x16xf32>, %la: tensor<2x100x8xf32>, %b: tensor<2x100x2x32xf32>, %c: tensor<2x100x2x32xf32>) -> (tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) {
  %y0 = tensor.empty() : tensor<2x100x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %y, %s = mixer.ssd chunk_size(64)
      ins(%x, %la, %b, %c : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>)
      outs(%y0, %s0 : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
  return %y, %s : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>
}

// CHECK-LABEL: func.func @ssd_chunk_states
// CHECK: mixer.ssd chunk_size(16) ins({{.*}}) outs({{.*}} : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>, tensor<2x8x7x32x16xf32>) -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>, tensor<2x8x7x32x16xf32>
func.func @ssd_chunk_states(%x: tensor<2x100x8x16xf32>, %la: tensor<2x100x8xf32>, %b: tensor<2x100x2x32xf32>, %cs0: tensor<2x8x7x32x16xf32>) -> tensor<2x8x7x32x16xf32> {
  %y0 = tensor.empty() : tensor<2x100x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %y, %s, %cs = mixer.ssd chunk_size(16) ins(%x, %la, %b, %b : tensor<2x100x8x16xf32>, tensor<2x100x8xf32>, tensor<2x100x2x32xf32>, tensor<2x100x2x32xf32>) outs(%y0, %s0, %cs0 : tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>, tensor<2x8x7x32x16xf32>) -> tensor<2x100x8x16xf32>, tensor<2x8x16x32xf32>, tensor<2x8x7x32x16xf32>
  return %cs : tensor<2x8x7x32x16xf32>
}

// CHECK-LABEL: func.func @ssd_dynamic_length_with_init
// CHECK: mixer.ssd chunk_size(128) ins({{.*}}) init(%{{.*}} : tensor<1x4x64x128xf32>) outs(
func.func @ssd_dynamic_length_with_init(%x: tensor<1x?x4x64xf32>, %la: tensor<1x?x4xf32>, %b: tensor<1x?x1x128xf32>, %c: tensor<1x?x1x128xf32>, %h: tensor<1x4x64x128xf32>, %y0: tensor<1x?x4x64xf32>, %s0: tensor<1x4x64x128xf32>) -> (tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>) {
  %y, %s = mixer.ssd chunk_size(128)
      ins(%x, %la, %b, %c : tensor<1x?x4x64xf32>, tensor<1x?x4xf32>, tensor<1x?x1x128xf32>, tensor<1x?x1x128xf32>)
      init(%h : tensor<1x4x64x128xf32>)
      outs(%y0, %s0 : tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>
  return %y, %s : tensor<1x?x4x64xf32>, tensor<1x4x64x128xf32>
}

// CHECK-LABEL: func.func @grouped_matmul_i64
// CHECK: mixer.grouped_matmul ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>) outs(%{{.*}} : tensor<64x16xf32>) -> tensor<64x16xf32>
func.func @grouped_matmul_i64(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x16xf32>, %sizes: tensor<4xi64>) -> tensor<64x16xf32> {
  %init = tensor.empty() : tensor<64x16xf32>
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %sizes : tensor<64x32xf32>, tensor<4x32x16xf32>, tensor<4xi64>)
      outs(%init : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %out : tensor<64x16xf32>
}

// CHECK-LABEL: func.func @grouped_matmul_i32_dynamic_rows
// CHECK: mixer.grouped_matmul ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x32xf32>, tensor<4x32x16xf32>, tensor<4xi32>) outs(%{{.*}} : tensor<?x16xf32>) -> tensor<?x16xf32>
func.func @grouped_matmul_i32_dynamic_rows(%lhs: tensor<?x32xf32>, %rhs: tensor<4x32x16xf32>, %sizes: tensor<4xi32>, %init: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %sizes : tensor<?x32xf32>, tensor<4x32x16xf32>, tensor<4xi32>)
      outs(%init : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %out : tensor<?x16xf32>
}

// CHECK-LABEL: func.func @grouped_matmul_dynamic_experts
// CHECK: mixer.grouped_matmul ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x32xf32>, tensor<?x32x16xf32>, tensor<?xi64>) outs(
func.func @grouped_matmul_dynamic_experts(%lhs: tensor<?x32xf32>, %rhs: tensor<?x32x16xf32>, %sizes: tensor<?xi64>, %init: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %sizes : tensor<?x32xf32>, tensor<?x32x16xf32>, tensor<?xi64>)
      outs(%init : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %out : tensor<?x16xf32>
}

// CHECK-LABEL: func.func @grouped_swiglu_i32
// CHECK: mixer.grouped_swiglu ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>) outs(%{{.*}} : tensor<64x48xf32>) -> tensor<64x48xf32>
func.func @grouped_swiglu_i32(%x: tensor<64x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %sizes: tensor<4xi32>) -> tensor<64x48xf32> {
  %init = tensor.empty() : tensor<64x48xf32>
  %out = mixer.grouped_swiglu ins(%x, %wg, %wu, %sizes : tensor<64x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>)
      outs(%init : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %out : tensor<64x48xf32>
}

// CHECK-LABEL: func.func @grouped_swiglu_i64_dynamic_rows
// CHECK: mixer.grouped_swiglu ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi64>) outs(%{{.*}} : tensor<?x48xf32>) -> tensor<?x48xf32>
func.func @grouped_swiglu_i64_dynamic_rows(%x: tensor<?x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %sizes: tensor<4xi64>, %init: tensor<?x48xf32>) -> tensor<?x48xf32> {
  %out = mixer.grouped_swiglu ins(%x, %wg, %wu, %sizes : tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi64>)
      outs(%init : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %out : tensor<?x48xf32>
}

// CHECK-LABEL: func.func @topk_router
// CHECK: mixer.topk_router k(2) ins(%{{.*}} : tensor<64x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<64x2xf32>, tensor<64x2xi32>) -> tensor<64x2xf32>, tensor<64x2xi32>
func.func @topk_router(%logits: tensor<64x8xf32>) -> (tensor<64x2xf32>, tensor<64x2xi32>) {
  %w0 = tensor.empty() : tensor<64x2xf32>
  %i0 = tensor.empty() : tensor<64x2xi32>
  %w, %ids = mixer.topk_router k(2) ins(%logits : tensor<64x8xf32>)
      outs(%w0, %i0 : tensor<64x2xf32>, tensor<64x2xi32>) -> tensor<64x2xf32>, tensor<64x2xi32>
  return %w, %ids : tensor<64x2xf32>, tensor<64x2xi32>
}

// k = E is legal.
// CHECK-LABEL: func.func @topk_router_normalize_dynamic_rows
// CHECK: mixer.topk_router k(8) normalize ins(%{{.*}} : tensor<?x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<?x8xi32>) -> tensor<?x8xf32>, tensor<?x8xi32>
func.func @topk_router_normalize_dynamic_rows(%logits: tensor<?x8xf32>, %w0: tensor<?x8xf32>, %i0: tensor<?x8xi32>) -> (tensor<?x8xf32>, tensor<?x8xi32>) {
  %w, %ids = mixer.topk_router k(8) normalize ins(%logits : tensor<?x8xf32>)
      outs(%w0, %i0 : tensor<?x8xf32>, tensor<?x8xi32>) -> tensor<?x8xf32>, tensor<?x8xi32>
  return %w, %ids : tensor<?x8xf32>, tensor<?x8xi32>
}

// CHECK-LABEL: func.func @moe_dispatch
// CHECK: mixer.moe_dispatch num_experts(4) ins(%{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<64x2xi32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
func.func @moe_dispatch(%x: tensor<64x32xf32>, %ids: tensor<64x2xi32>) -> (tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) {
  %s0 = tensor.empty() : tensor<128x32xf32>
  %g0 = tensor.empty() : tensor<4xi64>
  %p0 = tensor.empty() : tensor<128xi32>
  %sorted, %sizes, %perm = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>)
      outs(%s0, %g0, %p0 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
  return %sorted, %sizes, %perm : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
}

// CHECK-LABEL: func.func @moe_dispatch_dynamic_rows
// CHECK: mixer.moe_dispatch num_experts(4) ins(%{{.*}}, %{{.*}} : tensor<?x32xf32>, tensor<?x2xi32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x32xf32>, tensor<4xi64>, tensor<?xi32>)
func.func @moe_dispatch_dynamic_rows(%x: tensor<?x32xf32>, %ids: tensor<?x2xi32>, %s0: tensor<?x32xf32>, %g0: tensor<4xi64>, %p0: tensor<?xi32>) -> (tensor<?x32xf32>, tensor<4xi64>, tensor<?xi32>) {
  %sorted, %sizes, %perm = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<?x32xf32>, tensor<?x2xi32>)
      outs(%s0, %g0, %p0 : tensor<?x32xf32>, tensor<4xi64>, tensor<?xi32>) -> tensor<?x32xf32>, tensor<4xi64>, tensor<?xi32>
  return %sorted, %sizes, %perm : tensor<?x32xf32>, tensor<4xi64>, tensor<?xi32>
}

// CHECK-LABEL: func.func @moe_combine
// CHECK: mixer.moe_combine ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<128x32xf32>, tensor<128xi32>, tensor<64x2xf32>) outs(%{{.*}} : tensor<64x32xf32>) -> tensor<64x32xf32>
func.func @moe_combine(%eo: tensor<128x32xf32>, %perm: tensor<128xi32>, %w: tensor<64x2xf32>) -> tensor<64x32xf32> {
  %init = tensor.empty() : tensor<64x32xf32>
  %out = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<128xi32>, tensor<64x2xf32>)
      outs(%init : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %out : tensor<64x32xf32>
}

// CHECK-LABEL: func.func @moe_combine_dynamic_rows
// CHECK: mixer.moe_combine ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x32xf32>, tensor<?xi32>, tensor<?x2xf32>) outs(%{{.*}} : tensor<?x32xf32>) -> tensor<?x32xf32>
func.func @moe_combine_dynamic_rows(%eo: tensor<?x32xf32>, %perm: tensor<?xi32>, %w: tensor<?x2xf32>, %init: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %out = mixer.moe_combine ins(%eo, %perm, %w : tensor<?x32xf32>, tensor<?xi32>, tensor<?x2xf32>)
      outs(%init : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %out : tensor<?x32xf32>
}

// A whole dropless MoE layer: route, dispatch, experts, combine.
// CHECK-LABEL: func.func @moe_layer
// CHECK: %[[W:.*]], %[[IDS:.*]] = mixer.topk_router k(2) normalize
// CHECK: %[[SORTED:.*]], %[[SIZES:.*]], %[[PERM:.*]] = mixer.moe_dispatch num_experts(4) ins(%{{.*}}, %[[IDS]] :
// CHECK: %[[H:.*]] = mixer.grouped_swiglu ins(%[[SORTED]], %{{.*}}, %{{.*}}, %[[SIZES]] :
// CHECK: %[[EO:.*]] = mixer.grouped_matmul ins(%[[H]], %{{.*}}, %[[SIZES]] :
// CHECK: mixer.moe_combine ins(%[[EO]], %[[PERM]], %[[W]] :
func.func @moe_layer(%x: tensor<64x32xf32>, %logits: tensor<64x4xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %wd: tensor<4x48x32xf32>) -> tensor<64x32xf32> {
  %w0 = tensor.empty() : tensor<64x2xf32>
  %i0 = tensor.empty() : tensor<64x2xi32>
  %w, %ids = mixer.topk_router k(2) normalize ins(%logits : tensor<64x4xf32>)
      outs(%w0, %i0 : tensor<64x2xf32>, tensor<64x2xi32>) -> tensor<64x2xf32>, tensor<64x2xi32>
  %s0 = tensor.empty() : tensor<128x32xf32>
  %g0 = tensor.empty() : tensor<4xi64>
  %p0 = tensor.empty() : tensor<128xi32>
  %sorted, %sizes, %perm = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<64x32xf32>, tensor<64x2xi32>)
      outs(%s0, %g0, %p0 : tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>) -> tensor<128x32xf32>, tensor<4xi64>, tensor<128xi32>
  %h0 = tensor.empty() : tensor<128x48xf32>
  %h = mixer.grouped_swiglu ins(%sorted, %wg, %wu, %sizes : tensor<128x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi64>)
      outs(%h0 : tensor<128x48xf32>) -> tensor<128x48xf32>
  %e0 = tensor.empty() : tensor<128x32xf32>
  %eo = mixer.grouped_matmul ins(%h, %wd, %sizes : tensor<128x48xf32>, tensor<4x48x32xf32>, tensor<4xi64>)
      outs(%e0 : tensor<128x32xf32>) -> tensor<128x32xf32>
  %y0 = tensor.empty() : tensor<64x32xf32>
  %y = mixer.moe_combine ins(%eo, %perm, %w : tensor<128x32xf32>, tensor<128xi32>, tensor<64x2xf32>)
      outs(%y0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// Every kernel of kernel_mv, batched with static shapes.
// CHECK-LABEL: func.func @kernel_mv_batched
// CHECK: mixer.kernel_mv kernel(gaussian) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<4x200x16xf32>, tensor<f32>) outs(%{{.*}} : tensor<4x100x16xf32>) -> tensor<4x100x16xf32>
// CHECK: mixer.kernel_mv kernel(laplacian) ins(
// CHECK: mixer.kernel_mv kernel(matern32) ins(
// CHECK: mixer.kernel_mv kernel(inverse_multiquadric) ins(
// CHECK: mixer.kernel_mv kernel(linear) ins(
func.func @kernel_mv_batched(%x: tensor<4x100x3xf32>, %y: tensor<4x200x3xf32>, %v: tensor<4x200x16xf32>, %h: tensor<f32>) -> (tensor<4x100x16xf32>, tensor<4x100x16xf32>, tensor<4x100x16xf32>, tensor<4x100x16xf32>, tensor<4x100x16xf32>) {
  %o = tensor.empty() : tensor<4x100x16xf32>
  %0 = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<4x200x16xf32>, tensor<f32>) outs(%o : tensor<4x100x16xf32>) -> tensor<4x100x16xf32>
  %1 = mixer.kernel_mv kernel(laplacian) ins(%x, %y, %v, %h : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<4x200x16xf32>, tensor<f32>) outs(%o : tensor<4x100x16xf32>) -> tensor<4x100x16xf32>
  %2 = mixer.kernel_mv kernel(matern32) ins(%x, %y, %v, %h : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<4x200x16xf32>, tensor<f32>) outs(%o : tensor<4x100x16xf32>) -> tensor<4x100x16xf32>
  %3 = mixer.kernel_mv kernel(inverse_multiquadric) ins(%x, %y, %v, %h : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<4x200x16xf32>, tensor<f32>) outs(%o : tensor<4x100x16xf32>) -> tensor<4x100x16xf32>
  %4 = mixer.kernel_mv kernel(linear) ins(%x, %y, %v, %h : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<4x200x16xf32>, tensor<f32>) outs(%o : tensor<4x100x16xf32>) -> tensor<4x100x16xf32>
  return %0, %1, %2, %3, %4 : tensor<4x100x16xf32>, tensor<4x100x16xf32>, tensor<4x100x16xf32>, tensor<4x100x16xf32>, tensor<4x100x16xf32>
}

// Every kernel of kernel_mv, unbatched with dynamic N and M.
// CHECK-LABEL: func.func @kernel_mv_unbatched_dynamic
// CHECK: mixer.kernel_mv kernel(gaussian) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x1xf32>, tensor<f32>) outs(%{{.*}} : tensor<?x1xf32>) -> tensor<?x1xf32>
// CHECK: mixer.kernel_mv kernel(laplacian) ins(
// CHECK: mixer.kernel_mv kernel(matern32) ins(
// CHECK: mixer.kernel_mv kernel(inverse_multiquadric) ins(
// CHECK: mixer.kernel_mv kernel(linear) ins(
func.func @kernel_mv_unbatched_dynamic(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>, %v: tensor<?x1xf32>, %h: tensor<f32>, %o: tensor<?x1xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>) {
  %0 = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x1xf32>, tensor<f32>) outs(%o : tensor<?x1xf32>) -> tensor<?x1xf32>
  %1 = mixer.kernel_mv kernel(laplacian) ins(%x, %y, %v, %h : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x1xf32>, tensor<f32>) outs(%o : tensor<?x1xf32>) -> tensor<?x1xf32>
  %2 = mixer.kernel_mv kernel(matern32) ins(%x, %y, %v, %h : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x1xf32>, tensor<f32>) outs(%o : tensor<?x1xf32>) -> tensor<?x1xf32>
  %3 = mixer.kernel_mv kernel(inverse_multiquadric) ins(%x, %y, %v, %h : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x1xf32>, tensor<f32>) outs(%o : tensor<?x1xf32>) -> tensor<?x1xf32>
  %4 = mixer.kernel_mv kernel(linear) ins(%x, %y, %v, %h : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x1xf32>, tensor<f32>) outs(%o : tensor<?x1xf32>) -> tensor<?x1xf32>
  return %0, %1, %2, %3, %4 : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>
}

// Dynamic batch, N, M and even D: only static sizes are checked.
// CHECK-LABEL: func.func @kernel_mv_dynamic_batch
// CHECK: mixer.kernel_mv kernel(gaussian) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x?x?xf32>, tensor<?x?x3xf32>, tensor<2x?x8xf32>, tensor<f32>) outs(%{{.*}} : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
func.func @kernel_mv_dynamic_batch(%x: tensor<?x?x?xf32>, %y: tensor<?x?x3xf32>, %v: tensor<2x?x8xf32>, %h: tensor<f32>, %o: tensor<?x?x8xf32>) -> tensor<?x?x8xf32> {
  %0 = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<?x?x?xf32>, tensor<?x?x3xf32>, tensor<2x?x8xf32>, tensor<f32>) outs(%o : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  return %0 : tensor<?x?x8xf32>
}

// Every cost of kernel_lse, batched with log-weights g.
// CHECK-LABEL: func.func @kernel_lse_batched
// CHECK: mixer.kernel_lse kernel(sqeuclidean) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<f32>) g(%{{.*}} : tensor<4x200xf32>) outs(%{{.*}} : tensor<4x100xf32>) -> tensor<4x100xf32>
// CHECK: mixer.kernel_lse kernel(gaussian) ins({{.*}}) g(
// CHECK: mixer.kernel_lse kernel(laplacian) ins({{.*}}) g(
func.func @kernel_lse_batched(%x: tensor<4x100x3xf32>, %y: tensor<4x200x3xf32>, %g: tensor<4x200xf32>, %eps: tensor<f32>) -> (tensor<4x100xf32>, tensor<4x100xf32>, tensor<4x100xf32>) {
  %o = tensor.empty() : tensor<4x100xf32>
  %0 = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<f32>) g(%g : tensor<4x200xf32>) outs(%o : tensor<4x100xf32>) -> tensor<4x100xf32>
  %1 = mixer.kernel_lse kernel(gaussian) ins(%x, %y, %eps : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<f32>) g(%g : tensor<4x200xf32>) outs(%o : tensor<4x100xf32>) -> tensor<4x100xf32>
  %2 = mixer.kernel_lse kernel(laplacian) ins(%x, %y, %eps : tensor<4x100x3xf32>, tensor<4x200x3xf32>, tensor<f32>) g(%g : tensor<4x200xf32>) outs(%o : tensor<4x100xf32>) -> tensor<4x100xf32>
  return %0, %1, %2 : tensor<4x100xf32>, tensor<4x100xf32>, tensor<4x100xf32>
}

// Every cost of kernel_lse, unbatched with dynamic N and M, without g.
// CHECK-LABEL: func.func @kernel_lse_unbatched_dynamic
// CHECK: mixer.kernel_lse kernel(sqeuclidean) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x3xf32>, tensor<?x3xf32>, tensor<f32>) outs(%{{.*}} : tensor<?xf32>) -> tensor<?xf32>
// CHECK: mixer.kernel_lse kernel(gaussian) ins({{.*}}) outs(
// CHECK: mixer.kernel_lse kernel(laplacian) ins({{.*}}) outs(
func.func @kernel_lse_unbatched_dynamic(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>, %eps: tensor<f32>, %o: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<?x3xf32>, tensor<?x3xf32>, tensor<f32>) outs(%o : tensor<?xf32>) -> tensor<?xf32>
  %1 = mixer.kernel_lse kernel(gaussian) ins(%x, %y, %eps : tensor<?x3xf32>, tensor<?x3xf32>, tensor<f32>) outs(%o : tensor<?xf32>) -> tensor<?xf32>
  %2 = mixer.kernel_lse kernel(laplacian) ins(%x, %y, %eps : tensor<?x3xf32>, tensor<?x3xf32>, tensor<f32>) outs(%o : tensor<?xf32>) -> tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// Unbatched with g, and batched with dynamic Bt, N and M.
// CHECK-LABEL: func.func @kernel_lse_mixed
// CHECK: mixer.kernel_lse kernel(sqeuclidean) ins({{.*}} : tensor<100x3xf32>, tensor<?x3xf32>, tensor<f32>) g(%{{.*}} : tensor<?xf32>) outs(%{{.*}} : tensor<100xf32>) -> tensor<100xf32>
// CHECK: mixer.kernel_lse kernel(gaussian) ins({{.*}} : tensor<?x?x3xf32>, tensor<?x?x3xf32>, tensor<f32>) g(%{{.*}} : tensor<?x?xf32>) outs(%{{.*}} : tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @kernel_lse_mixed(%x: tensor<100x3xf32>, %y: tensor<?x3xf32>, %g: tensor<?xf32>, %eps: tensor<f32>, %xb: tensor<?x?x3xf32>, %yb: tensor<?x?x3xf32>, %gb: tensor<?x?xf32>, %ob: tensor<?x?xf32>) -> (tensor<100xf32>, tensor<?x?xf32>) {
  %o = tensor.empty() : tensor<100xf32>
  %0 = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<100x3xf32>, tensor<?x3xf32>, tensor<f32>) g(%g : tensor<?xf32>) outs(%o : tensor<100xf32>) -> tensor<100xf32>
  %1 = mixer.kernel_lse kernel(gaussian) ins(%xb, %yb, %eps : tensor<?x?x3xf32>, tensor<?x?x3xf32>, tensor<f32>) g(%gb : tensor<?x?xf32>) outs(%ob : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<100xf32>, tensor<?x?xf32>
}

// Every cost of transport_cost, unbatched; batched with dynamic N and M.
// CHECK-LABEL: func.func @transport_cost
// CHECK: mixer.transport_cost cost(sqeuclidean) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<100x3xf32>, tensor<200x3xf32>, tensor<100xf32>, tensor<200xf32>, tensor<f32>) outs(%{{.*}} : tensor<100xf32>) -> tensor<100xf32>
// CHECK: mixer.transport_cost cost(gaussian) ins({{.*}}) outs(
// CHECK: mixer.transport_cost cost(laplacian) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?xf32>, tensor<2x?xf32>, tensor<f32>) outs(%{{.*}} : tensor<2x?xf32>) -> tensor<2x?xf32>
func.func @transport_cost(%x: tensor<100x3xf32>, %y: tensor<200x3xf32>, %u: tensor<100xf32>, %v: tensor<200xf32>, %eps: tensor<f32>, %o: tensor<100xf32>,
                          %bx: tensor<2x?x3xf32>, %by: tensor<2x?x3xf32>, %bu: tensor<2x?xf32>, %bv: tensor<2x?xf32>, %bo: tensor<2x?xf32>) -> (tensor<100xf32>, tensor<100xf32>, tensor<2x?xf32>) {
  %0 = mixer.transport_cost cost(sqeuclidean) ins(%x, %y, %u, %v, %eps : tensor<100x3xf32>, tensor<200x3xf32>, tensor<100xf32>, tensor<200xf32>, tensor<f32>) outs(%o : tensor<100xf32>) -> tensor<100xf32>
  %1 = mixer.transport_cost cost(gaussian) ins(%x, %y, %u, %v, %eps : tensor<100x3xf32>, tensor<200x3xf32>, tensor<100xf32>, tensor<200xf32>, tensor<f32>) outs(%o : tensor<100xf32>) -> tensor<100xf32>
  %2 = mixer.transport_cost cost(laplacian) ins(%bx, %by, %bu, %bv, %eps : tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?xf32>, tensor<2x?xf32>, tensor<f32>) outs(%bo : tensor<2x?xf32>) -> tensor<2x?xf32>
  return %0, %1, %2 : tensor<100xf32>, tensor<100xf32>, tensor<2x?xf32>
}

// Every cost of sinkhorn, static and dynamic N and M.
// CHECK-LABEL: func.func @sinkhorn
// CHECK: mixer.sinkhorn cost(sqeuclidean) iterations(100) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<100x3xf32>, tensor<200x3xf32>, tensor<100xf32>, tensor<200xf32>, tensor<f32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<100xf32>, tensor<200xf32>, tensor<f32>) -> tensor<100xf32>, tensor<200xf32>, tensor<f32>
// CHECK: mixer.sinkhorn cost(gaussian) iterations(1) ins(
// CHECK: mixer.sinkhorn cost(laplacian) iterations(20) ins({{.*}} : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>) outs({{.*}} : tensor<?xf32>, tensor<?xf32>, tensor<f32>) -> tensor<?xf32>, tensor<?xf32>, tensor<f32>
func.func @sinkhorn(%x: tensor<100x3xf32>, %y: tensor<200x3xf32>, %la: tensor<100xf32>, %lb: tensor<200xf32>, %eps: tensor<f32>, %xd: tensor<?x3xf32>, %yd: tensor<?x3xf32>, %lad: tensor<?xf32>, %lbd: tensor<?xf32>) -> (tensor<100xf32>, tensor<200xf32>, tensor<f32>, tensor<f32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>) {
  %f0 = tensor.empty() : tensor<100xf32>
  %g0 = tensor.empty() : tensor<200xf32>
  %c0 = tensor.empty() : tensor<f32>
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(100)
      ins(%x, %y, %la, %lb, %eps : tensor<100x3xf32>, tensor<200x3xf32>, tensor<100xf32>, tensor<200xf32>, tensor<f32>)
      outs(%f0, %g0, %c0 : tensor<100xf32>, tensor<200xf32>, tensor<f32>) -> tensor<100xf32>, tensor<200xf32>, tensor<f32>
  %f1, %g1, %c1 = mixer.sinkhorn cost(gaussian) iterations(1)
      ins(%x, %y, %la, %lb, %eps : tensor<100x3xf32>, tensor<200x3xf32>, tensor<100xf32>, tensor<200xf32>, tensor<f32>)
      outs(%f0, %g0, %c0 : tensor<100xf32>, tensor<200xf32>, tensor<f32>) -> tensor<100xf32>, tensor<200xf32>, tensor<f32>
  %f2, %g2, %c2 = mixer.sinkhorn cost(laplacian) iterations(20)
      ins(%xd, %yd, %lad, %lbd, %eps : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>)
      outs(%lad, %lbd, %c0 : tensor<?xf32>, tensor<?xf32>, tensor<f32>) -> tensor<?xf32>, tensor<?xf32>, tensor<f32>
  return %f, %g, %c, %c1, %f2, %g2, %c2 : tensor<100xf32>, tensor<200xf32>, tensor<f32>, tensor<f32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>
}

// In generic form the kinds are #mixer.kernel<...> attributes.
// CHECK-LABEL: func.func @kernel_ops_generic
// CHECK: mixer.kernel_mv kernel(linear) ins(
// CHECK: mixer.kernel_lse kernel(gaussian) ins(
// CHECK: mixer.sinkhorn cost(laplacian) iterations(5) ins(
func.func @kernel_ops_generic(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %v: tensor<16x2xf32>, %h: tensor<f32>, %o: tensor<8x2xf32>, %l: tensor<8xf32>, %lb: tensor<16xf32>) -> (tensor<8x2xf32>, tensor<8xf32>, tensor<f32>) {
  %0 = "mixer.kernel_mv"(%x, %y, %v, %h, %o) <{kernel = #mixer.kernel<linear>}> : (tensor<8x3xf32>, tensor<16x3xf32>, tensor<16x2xf32>, tensor<f32>, tensor<8x2xf32>) -> tensor<8x2xf32>
  %1 = "mixer.kernel_lse"(%x, %y, %h, %l) <{kernel = #mixer.kernel<gaussian>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> : (tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %2:3 = "mixer.sinkhorn"(%x, %y, %l, %lb, %h, %l, %lb, %h) <{cost = #mixer.kernel<laplacian>, iterations = 5 : i64}> : (tensor<8x3xf32>, tensor<16x3xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<16xf32>, tensor<f32>)
  return %0, %1, %2#2 : tensor<8x2xf32>, tensor<8xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @selective_scan
// CHECK: mixer.selective_scan ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<64x16xf32>, tensor<2x100x1x16xf32>, tensor<2x100x1x16xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x100x64xf32>, tensor<2x64x16xf32>) -> tensor<2x100x64xf32>, tensor<2x64x16xf32>
func.func @selective_scan(%u: tensor<2x100x64xf32>, %dt: tensor<2x100x64xf32>, %A: tensor<64x16xf32>, %b: tensor<2x100x1x16xf32>, %c: tensor<2x100x1x16xf32>) -> (tensor<2x100x64xf32>, tensor<2x64x16xf32>) {
  %y0 = tensor.empty() : tensor<2x100x64xf32>
  %s0 = tensor.empty() : tensor<2x64x16xf32>
  %y, %s = mixer.selective_scan
      ins(%u, %dt, %A, %b, %c : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<64x16xf32>, tensor<2x100x1x16xf32>, tensor<2x100x1x16xf32>)
      outs(%y0, %s0 : tensor<2x100x64xf32>, tensor<2x64x16xf32>) -> tensor<2x100x64xf32>, tensor<2x64x16xf32>
  return %y, %s : tensor<2x100x64xf32>, tensor<2x64x16xf32>
}

// CHECK-LABEL: func.func @selective_scan_all_options_dynamic_length
// CHECK: mixer.selective_scan delta_softplus ins({{.*}} : tensor<1x?x64xf32>, tensor<1x?x64xf32>, tensor<64x16xf32>, tensor<1x?x4x16xf32>, tensor<1x?x4x16xf32>)
// CHECK-SAME: D_skip(%{{.*}} : tensor<64xf32>) z(%{{.*}} : tensor<1x?x64xf32>) delta_bias(%{{.*}} : tensor<64xf32>) init(%{{.*}} : tensor<1x64x16xf32>)
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<1x?x64xf32>, tensor<1x64x16xf32>) -> tensor<1x?x64xf32>, tensor<1x64x16xf32>
func.func @selective_scan_all_options_dynamic_length(%u: tensor<1x?x64xf32>, %dt: tensor<1x?x64xf32>, %A: tensor<64x16xf32>, %b: tensor<1x?x4x16xf32>, %c: tensor<1x?x4x16xf32>, %d: tensor<64xf32>, %z: tensor<1x?x64xf32>, %db: tensor<64xf32>, %h: tensor<1x64x16xf32>, %y0: tensor<1x?x64xf32>, %s0: tensor<1x64x16xf32>) -> (tensor<1x?x64xf32>, tensor<1x64x16xf32>) {
  %y, %s = mixer.selective_scan delta_softplus
      ins(%u, %dt, %A, %b, %c : tensor<1x?x64xf32>, tensor<1x?x64xf32>, tensor<64x16xf32>, tensor<1x?x4x16xf32>, tensor<1x?x4x16xf32>)
      D_skip(%d : tensor<64xf32>) z(%z : tensor<1x?x64xf32>) delta_bias(%db : tensor<64xf32>)
      init(%h : tensor<1x64x16xf32>)
      outs(%y0, %s0 : tensor<1x?x64xf32>, tensor<1x64x16xf32>) -> tensor<1x?x64xf32>, tensor<1x64x16xf32>
  return %y, %s : tensor<1x?x64xf32>, tensor<1x64x16xf32>
}

// Any subset of the optional operands.
// CHECK-LABEL: func.func @selective_scan_some_options
// CHECK: mixer.selective_scan ins({{.*}}) z(%{{.*}} : tensor<1x8x4xf32>) init(%{{.*}} : tensor<1x4x2xf32>) outs(
func.func @selective_scan_some_options(%u: tensor<1x8x4xf32>, %A: tensor<4x2xf32>, %b: tensor<1x8x2x2xf32>, %h: tensor<1x4x2xf32>, %s0: tensor<1x4x2xf32>) -> (tensor<1x8x4xf32>, tensor<1x4x2xf32>) {
  %y, %s = mixer.selective_scan
      ins(%u, %u, %A, %b, %b : tensor<1x8x4xf32>, tensor<1x8x4xf32>, tensor<4x2xf32>, tensor<1x8x2x2xf32>, tensor<1x8x2x2xf32>)
      z(%u : tensor<1x8x4xf32>) init(%h : tensor<1x4x2xf32>)
      outs(%u, %s0 : tensor<1x8x4xf32>, tensor<1x4x2xf32>) -> tensor<1x8x4xf32>, tensor<1x4x2xf32>
  return %y, %s : tensor<1x8x4xf32>, tensor<1x4x2xf32>
}

// window and scale are elided when they have their default values.
// CHECK-LABEL: func.func @linear_attention
// CHECK: mixer.linear_attention chunk_size(64) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
// CHECK: mixer.linear_attention chunk_size(32) ins(
func.func @linear_attention(%q: tensor<2x100x8x16xf32>, %k: tensor<2x100x8x16xf32>, %v: tensor<2x100x8x32xf32>) -> (tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) {
  %o0 = tensor.empty() : tensor<2x100x8x32xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %o, %s = mixer.linear_attention chunk_size(64)
      ins(%q, %k, %v : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>)
      outs(%o0, %s0 : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
  %o1, %s1 = mixer.linear_attention chunk_size(32) window(0) scale(1.0)
      ins(%q, %k, %v : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>)
      outs(%o, %s : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
  return %o1, %s1 : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
}

// CHECK-LABEL: func.func @linear_attention_all_options_dynamic_length
// CHECK: mixer.linear_attention chunk_size(64) window(512) scale(1.250000e-01) ins({{.*}} : tensor<1x?x4x64xf32>, tensor<1x?x4x64xf32>, tensor<1x?x4x128xf32>)
// CHECK-SAME: log_decay(%{{.*}} : tensor<1x?x4xf32>) init(%{{.*}} : tensor<1x4x64x128xf32>)
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
func.func @linear_attention_all_options_dynamic_length(%q: tensor<1x?x4x64xf32>, %k: tensor<1x?x4x64xf32>, %v: tensor<1x?x4x128xf32>, %ld: tensor<1x?x4xf32>, %h: tensor<1x4x64x128xf32>, %o0: tensor<1x?x4x128xf32>, %s0: tensor<1x4x64x128xf32>) -> (tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) {
  %o, %s = mixer.linear_attention chunk_size(64) window(512) scale(0.125)
      ins(%q, %k, %v : tensor<1x?x4x64xf32>, tensor<1x?x4x64xf32>, tensor<1x?x4x128xf32>)
      log_decay(%ld : tensor<1x?x4xf32>) init(%h : tensor<1x4x64x128xf32>)
      outs(%o0, %s0 : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
  return %o, %s : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
}

// CHECK-LABEL: func.func @linear_attention_init_only
// CHECK: mixer.linear_attention chunk_size(16) window(1) ins({{.*}}) init(%{{.*}} : tensor<1x2x4x8xf32>) outs(
func.func @linear_attention_init_only(%q: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x8xf32>, %h: tensor<1x2x4x8xf32>) -> (tensor<1x1x2x8xf32>, tensor<1x2x4x8xf32>) {
  %o, %s = mixer.linear_attention chunk_size(16) window(1)
      ins(%q, %q, %v : tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x8xf32>)
      init(%h : tensor<1x2x4x8xf32>)
      outs(%v, %h : tensor<1x1x2x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x1x2x8xf32>, tensor<1x2x4x8xf32>
  return %o, %s : tensor<1x1x2x8xf32>, tensor<1x2x4x8xf32>
}

// CHECK-LABEL: func.func @gated_delta_rule
// CHECK: mixer.gated_delta_rule chunk_size(64) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>, tensor<2x100x8xf32>, tensor<2x100x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
func.func @gated_delta_rule(%q: tensor<2x100x8x16xf32>, %k: tensor<2x100x8x16xf32>, %v: tensor<2x100x8x32xf32>, %g: tensor<2x100x8xf32>, %beta: tensor<2x100x8xf32>) -> (tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) {
  %o0 = tensor.empty() : tensor<2x100x8x32xf32>
  %s0 = tensor.empty() : tensor<2x8x16x32xf32>
  %o, %s = mixer.gated_delta_rule chunk_size(64)
      ins(%q, %k, %v, %g, %beta : tensor<2x100x8x16xf32>, tensor<2x100x8x16xf32>, tensor<2x100x8x32xf32>, tensor<2x100x8xf32>, tensor<2x100x8xf32>)
      outs(%o0, %s0 : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>) -> tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
  return %o, %s : tensor<2x100x8x32xf32>, tensor<2x8x16x32xf32>
}

// CHECK-LABEL: func.func @gated_delta_rule_init_dynamic_length
// CHECK: mixer.gated_delta_rule chunk_size(64) scale(1.250000e-01) ins({{.*}} : tensor<1x?x4x64xf32>, tensor<1x?x4x64xf32>, tensor<1x?x4x128xf32>, tensor<1x?x4xf32>, tensor<1x?x4xf32>)
// CHECK-SAME: init(%{{.*}} : tensor<1x4x64x128xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
func.func @gated_delta_rule_init_dynamic_length(%q: tensor<1x?x4x64xf32>, %k: tensor<1x?x4x64xf32>, %v: tensor<1x?x4x128xf32>, %g: tensor<1x?x4xf32>, %beta: tensor<1x?x4xf32>, %h: tensor<1x4x64x128xf32>, %o0: tensor<1x?x4x128xf32>, %s0: tensor<1x4x64x128xf32>) -> (tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(64) scale(0.125)
      ins(%q, %k, %v, %g, %beta : tensor<1x?x4x64xf32>, tensor<1x?x4x64xf32>, tensor<1x?x4x128xf32>, tensor<1x?x4xf32>, tensor<1x?x4xf32>)
      init(%h : tensor<1x4x64x128xf32>)
      outs(%o0, %s0 : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>) -> tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
  return %o, %s : tensor<1x?x4x128xf32>, tensor<1x4x64x128xf32>
}

// CHECK-LABEL: func.func @kernel_mv_backward
// CHECK: mixer.kernel_mv_backward kernel(matern32) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>) outs(
func.func @kernel_mv_backward(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %v: tensor<2x16x5xf32>, %h: tensor<f32>, %d: tensor<2x8x5xf32>, %dx0: tensor<2x8x3xf32>, %dy0: tensor<2x16x3xf32>, %dv0: tensor<2x16x5xf32>, %dh0: tensor<f32>) -> tensor<f32> {
  %dx, %dy, %dv, %dh = mixer.kernel_mv_backward kernel(matern32)
      ins(%x, %y, %v, %h, %d : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>, tensor<2x8x5xf32>)
      outs(%dx0, %dy0, %dv0, %dh0 : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>)
      -> tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<2x16x5xf32>, tensor<f32>
  return %dh : tensor<f32>
}

// CHECK-LABEL: func.func @kernel_mv_point_grad
// CHECK: mixer.kernel_mv_point_grad kernel(linear) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x3xf32>, tensor<16x3xf32>, tensor<16x5xf32>, tensor<?x5xf32>, tensor<f32>) outs(
func.func @kernel_mv_point_grad(%x: tensor<?x3xf32>, %y: tensor<16x3xf32>, %v: tensor<16x5xf32>, %d: tensor<?x5xf32>, %h: tensor<f32>, %o: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %dx = mixer.kernel_mv_point_grad kernel(linear)
      ins(%x, %y, %v, %d, %h : tensor<?x3xf32>, tensor<16x3xf32>, tensor<16x5xf32>, tensor<?x5xf32>, tensor<f32>)
      outs(%o : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %dx : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @kernel_lse_backward
// CHECK: mixer.kernel_lse_backward kernel(laplacian) ins({{.*}}) g(%{{.*}} : tensor<16xf32>) outs(
func.func @kernel_lse_backward(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %out: tensor<8xf32>, %d: tensor<8xf32>, %g: tensor<16xf32>, %dx0: tensor<8x3xf32>, %dy0: tensor<16x3xf32>, %dg0: tensor<16xf32>) -> tensor<16xf32> {
  %dx, %dy, %dg = mixer.kernel_lse_backward kernel(laplacian)
      ins(%x, %y, %eps, %out, %d : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<8xf32>)
      g(%g : tensor<16xf32>)
      outs(%dx0, %dy0, %dg0 : tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>)
      -> tensor<8x3xf32>, tensor<16x3xf32>, tensor<16xf32>
  return %dg : tensor<16xf32>
}

// CHECK-LABEL: func.func @kernel_lse_point_grad
// CHECK: mixer.kernel_lse_point_grad kernel(sqeuclidean) ins({{.*}}) outs(
func.func @kernel_lse_point_grad(%x: tensor<2x8x3xf32>, %y: tensor<2x16x3xf32>, %eps: tensor<f32>, %a: tensor<2x8xf32>, %b: tensor<2x16xf32>, %w: tensor<2x16xf32>, %g0: tensor<2x8x3xf32>, %s0: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %grad, %sums = mixer.kernel_lse_point_grad kernel(sqeuclidean)
      ins(%x, %y, %eps, %a, %b, %w : tensor<2x8x3xf32>, tensor<2x16x3xf32>, tensor<f32>, tensor<2x8xf32>, tensor<2x16xf32>, tensor<2x16xf32>)
      outs(%g0, %s0 : tensor<2x8x3xf32>, tensor<2x8xf32>) -> tensor<2x8x3xf32>, tensor<2x8xf32>
  return %sums : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @grouped_matmul_backward
// CHECK: mixer.grouped_matmul_backward ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x32xf32>, tensor<4x32x64xf32>, tensor<4xi64>, tensor<?x64xf32>) outs(
func.func @grouped_matmul_backward(%lhs: tensor<?x32xf32>, %rhs: tensor<4x32x64xf32>, %sizes: tensor<4xi64>, %d: tensor<?x64xf32>, %dl0: tensor<?x32xf32>, %dr0: tensor<4x32x64xf32>) -> tensor<4x32x64xf32> {
  %dl, %dr = mixer.grouped_matmul_backward
      ins(%lhs, %rhs, %sizes, %d : tensor<?x32xf32>, tensor<4x32x64xf32>, tensor<4xi64>, tensor<?x64xf32>)
      outs(%dl0, %dr0 : tensor<?x32xf32>, tensor<4x32x64xf32>) -> tensor<?x32xf32>, tensor<4x32x64xf32>
  return %dr : tensor<4x32x64xf32>
}

// CHECK-LABEL: func.func @grouped_swiglu_backward
// CHECK: mixer.grouped_swiglu_backward ins({{.*}}) outs(
func.func @grouped_swiglu_backward(%x: tensor<?x32xf32>, %wg: tensor<4x32x48xf32>, %wu: tensor<4x32x48xf32>, %sizes: tensor<4xi32>, %d: tensor<?x48xf32>, %dx0: tensor<?x32xf32>, %dg0: tensor<4x32x48xf32>, %du0: tensor<4x32x48xf32>) -> tensor<4x32x48xf32> {
  %dx, %dg, %du = mixer.grouped_swiglu_backward
      ins(%x, %wg, %wu, %sizes, %d : tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>, tensor<4xi32>, tensor<?x48xf32>)
      outs(%dx0, %dg0, %du0 : tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>)
      -> tensor<?x32xf32>, tensor<4x32x48xf32>, tensor<4x32x48xf32>
  return %du : tensor<4x32x48xf32>
}

// CHECK-LABEL: func.func @moe_combine_backward
// CHECK: mixer.moe_combine_backward ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<12x16xf32>, tensor<12xi32>, tensor<6x2xf32>, tensor<6x16xf32>) outs(
func.func @moe_combine_backward(%eo: tensor<12x16xf32>, %p: tensor<12xi32>, %w: tensor<6x2xf32>, %d: tensor<6x16xf32>, %de0: tensor<12x16xf32>, %dw0: tensor<6x2xf32>) -> tensor<6x2xf32> {
  %de, %dw = mixer.moe_combine_backward
      ins(%eo, %p, %w, %d : tensor<12x16xf32>, tensor<12xi32>, tensor<6x2xf32>, tensor<6x16xf32>)
      outs(%de0, %dw0 : tensor<12x16xf32>, tensor<6x2xf32>) -> tensor<12x16xf32>, tensor<6x2xf32>
  return %dw : tensor<6x2xf32>
}
