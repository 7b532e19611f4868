// RUN: mixer-opt %s --mixer-tile-parallel-dims --split-input-file | FileCheck %s

// mixer.grouped_matmul_backward is tiled over K: each tile takes its columns
// of lhs and dlhs and its rows of every rhs[e] and drhs[e]; dout and the
// group sizes are read whole.

// CHECK-LABEL: func.func @grouped_matmul_backward_k_blocks
// CHECK-SAME:    (%[[L:[^:]*]]: tensor<?x512xf32>, %[[R:[^:]*]]: tensor<4x512x64xf32>, %[[S:[^:]*]]: tensor<4xi64>, %[[D:[^:]*]]: tensor<?x64xf32>, %[[DL0:[^:]*]]: tensor<?x512xf32>, %[[DR0:[^:]*]]: tensor<4x512x64xf32>)
// CHECK:         scf.forall (%[[K:.*]]) = (0) to (512) step (256) shared_outs(%[[DL:.*]] = %[[DL0]], %[[DR:.*]] = %[[DR0]])
// CHECK-DAG:       %[[LT:.*]] = tensor.extract_slice %[[L]][0, %[[K]]] [%{{.*}}, 256] [1, 1] : tensor<?x512xf32> to tensor<?x256xf32>
// CHECK-DAG:       %[[RT:.*]] = tensor.extract_slice %[[R]][0, %[[K]], 0] [4, 256, 64] [1, 1, 1] : tensor<4x512x64xf32> to tensor<4x256x64xf32>
// CHECK-DAG:       %[[DLT:.*]] = tensor.extract_slice %[[DL]][0, %[[K]]] [%{{.*}}, 256] [1, 1]
// CHECK-DAG:       %[[DRT:.*]] = tensor.extract_slice %[[DR]][0, %[[K]], 0] [4, 256, 64] [1, 1, 1]
// CHECK:           %[[TL:[^,]*]], %[[TR:.*]] = mixer.grouped_matmul_backward ins(%[[LT]], %[[RT]], %[[S]], %[[D]] : tensor<?x256xf32>, tensor<4x256x64xf32>, tensor<4xi64>, tensor<?x64xf32>) outs(%[[DLT]], %[[DRT]] : tensor<?x256xf32>, tensor<4x256x64xf32>)
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[TL]] into %[[DL]][0, %[[K]]] [%{{.*}}, 256] [1, 1]
// CHECK-NEXT:        tensor.parallel_insert_slice %[[TR]] into %[[DR]][0, %[[K]], 0] [4, 256, 64] [1, 1, 1]
func.func @grouped_matmul_backward_k_blocks(%l: tensor<?x512xf32>, %r: tensor<4x512x64xf32>, %s: tensor<4xi64>, %d: tensor<?x64xf32>, %dl0: tensor<?x512xf32>, %dr0: tensor<4x512x64xf32>) -> (tensor<?x512xf32>, tensor<4x512x64xf32>) {
  %g:2 = mixer.grouped_matmul_backward ins(%l, %r, %s, %d : tensor<?x512xf32>, tensor<4x512x64xf32>, tensor<4xi64>, tensor<?x64xf32>) outs(%dl0, %dr0 : tensor<?x512xf32>, tensor<4x512x64xf32>) -> tensor<?x512xf32>, tensor<4x512x64xf32>
  return %g#0, %g#1 : tensor<?x512xf32>, tensor<4x512x64xf32>
}

// -----

// The point gradients are tiled like the forward sums: one (batch, block
// of 64 rows) per tile, with all of y and v (and the column operands).

// CHECK-LABEL: func.func @kernel_mv_point_grad_rows
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x300x3xf32>, %[[Y:[^:]*]]: tensor<2x80x3xf32>, %[[V:[^:]*]]: tensor<2x80x4xf32>, %[[D:[^:]*]]: tensor<2x300x4xf32>, %[[H:[^:]*]]: tensor<f32>, %[[O:[^:]*]]: tensor<2x300x3xf32>)
// CHECK:         scf.forall (%[[B:.*]], %[[I:.*]]) = (0, 0) to (2, 300) step (1, 64) shared_outs(%[[OS:.*]] = %[[O]])
// CHECK:           %[[N:.*]] = affine.min
// CHECK-DAG:       %[[XT:.*]] = tensor.extract_slice %[[X]][%[[B]], %[[I]], 0] [1, %[[N]], 3] [1, 1, 1]
// CHECK-DAG:       %[[YT:.*]] = tensor.extract_slice %[[Y]][%[[B]], 0, 0] [1, 80, 3] [1, 1, 1]
// CHECK-DAG:       %[[VT:.*]] = tensor.extract_slice %[[V]][%[[B]], 0, 0] [1, 80, 4] [1, 1, 1]
// CHECK-DAG:       %[[DT:.*]] = tensor.extract_slice %[[D]][%[[B]], %[[I]], 0] [1, %[[N]], 4] [1, 1, 1]
// CHECK:           mixer.kernel_mv_point_grad kernel(gaussian) ins(%[[XT]], %[[YT]], %[[VT]], %[[DT]], %[[H]] : tensor<1x?x3xf32>, tensor<1x80x3xf32>, tensor<1x80x4xf32>, tensor<1x?x4xf32>, tensor<f32>)
func.func @kernel_mv_point_grad_rows(%x: tensor<2x300x3xf32>, %y: tensor<2x80x3xf32>, %v: tensor<2x80x4xf32>, %d: tensor<2x300x4xf32>, %h: tensor<f32>, %o: tensor<2x300x3xf32>) -> tensor<2x300x3xf32> {
  %dx = mixer.kernel_mv_point_grad kernel(gaussian) ins(%x, %y, %v, %d, %h : tensor<2x300x3xf32>, tensor<2x80x3xf32>, tensor<2x80x4xf32>, tensor<2x300x4xf32>, tensor<f32>) outs(%o : tensor<2x300x3xf32>) -> tensor<2x300x3xf32>
  return %dx : tensor<2x300x3xf32>
}

// -----

// CHECK-LABEL: func.func @kernel_lse_point_grad_rows
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<300x3xf32>, %[[Y:[^:]*]]: tensor<80x3xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[A:[^:]*]]: tensor<300xf32>, %[[BS:[^:]*]]: tensor<80xf32>, %[[W:[^:]*]]: tensor<80xf32>, %[[G0:[^:]*]]: tensor<300x3xf32>, %[[S0:[^:]*]]: tensor<300xf32>)
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (300) step (64) shared_outs(%[[GS:.*]] = %[[G0]], %[[SS:.*]] = %[[S0]])
// CHECK-DAG:       %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I]], 0]
// CHECK-DAG:       %[[AT:.*]] = tensor.extract_slice %[[A]][%[[I]]]
// CHECK:           %[[TG:[^,]*]], %[[TS:.*]] = mixer.kernel_lse_point_grad kernel(sqeuclidean) ins(%[[XT]], %[[Y]], %[[EPS]], %[[AT]], %[[BS]], %[[W]] :
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[TG]] into %[[GS]][%[[I]], 0]
// CHECK-NEXT:        tensor.parallel_insert_slice %[[TS]] into %[[SS]][%[[I]]]
func.func @kernel_lse_point_grad_rows(%x: tensor<300x3xf32>, %y: tensor<80x3xf32>, %eps: tensor<f32>, %a: tensor<300xf32>, %b: tensor<80xf32>, %w: tensor<80xf32>, %g0: tensor<300x3xf32>, %s0: tensor<300xf32>) -> (tensor<300x3xf32>, tensor<300xf32>) {
  %grad, %sums = mixer.kernel_lse_point_grad kernel(sqeuclidean) ins(%x, %y, %eps, %a, %b, %w : tensor<300x3xf32>, tensor<80x3xf32>, tensor<f32>, tensor<300xf32>, tensor<80xf32>, tensor<80xf32>) outs(%g0, %s0 : tensor<300x3xf32>, tensor<300xf32>) -> tensor<300x3xf32>, tensor<300xf32>
  return %grad, %sums : tensor<300x3xf32>, tensor<300xf32>
}
