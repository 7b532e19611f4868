// RUN: mixer-opt %s --mixer-decompose-composites --split-input-file | FileCheck %s

// mixer.sinkhorn becomes an scf.for over its 10 iterations of two
// mixer.kernel_lse with the op's cost: the f update (x against y, weights
// -L_g + log_b = g / eps + log_b), then the g update (y against x, weights
// -L_f + log_a). The loop carries the log-sums L_f, L_g in the `outs`
// tensors of f and g, L_g starting at 0 (g = 0); f = -eps L_f and
// g = -eps L_g after the loop. The transport cost is the sum of the rows of
// a mixer.transport_cost of the plan's log-scalings, summed into the cost
// `outs` tensor.

// CHECK-DAG:   #[[$ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$TO0D:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @sinkhorn
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<100x3xf32>, %[[Y:[^:]*]]: tensor<80x3xf32>, %[[LA:[^:]*]]: tensor<100xf32>, %[[LB:[^:]*]]: tensor<80xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[F0:[^:]*]]: tensor<100xf32>, %[[G0:[^:]*]]: tensor<80xf32>, %[[C0T:[^:]*]]: tensor<f32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[E:.*]] = tensor.extract %[[EPS]][] : tensor<f32>
// CHECK:         %[[NEGE:.*]] = arith.negf %[[E]] : f32
// CHECK:         %[[LG0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[G0]] : tensor<80xf32>)
// CHECK:         %[[LOOP:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[C10]] step %[[C1]] iter_args(%[[LF:.*]] = %[[F0]], %[[LG:.*]] = %[[LG0]]) -> (tensor<100xf32>, tensor<80xf32>)
// CHECK:           %[[WB:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]]], iterator_types = ["parallel"]} ins(%[[LG]], %[[LB]] : tensor<80xf32>, tensor<80xf32>)
// CHECK-NEXT:      ^bb0(%[[L1:.*]]: f32, %[[B1:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        %[[W1:.*]] = arith.subf %[[B1]], %[[L1]] : f32
// CHECK-NEXT:        linalg.yield %[[W1]] : f32
// CHECK:           %[[NLF:.*]] = mixer.kernel_lse kernel(sqeuclidean) ins(%[[X]], %[[Y]], %[[EPS]] : tensor<100x3xf32>, tensor<80x3xf32>, tensor<f32>) g(%[[WB]] : tensor<80xf32>) outs(%[[LF]] : tensor<100xf32>)
// CHECK:           %[[WA:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]]], iterator_types = ["parallel"]} ins(%[[NLF]], %[[LA]] : tensor<100xf32>, tensor<100xf32>)
// CHECK:             arith.subf
// CHECK:           %[[NLG:.*]] = mixer.kernel_lse kernel(sqeuclidean) ins(%[[Y]], %[[X]], %[[EPS]] : tensor<80x3xf32>, tensor<100x3xf32>, tensor<f32>) g(%[[WA]] : tensor<100xf32>) outs(%[[LG]] : tensor<80xf32>)
// CHECK:           scf.yield %[[NLF]], %[[NLG]] : tensor<100xf32>, tensor<80xf32>
// CHECK:         %[[F:.*]] = linalg.generic {indexing_maps = [#[[$ID]]], iterator_types = ["parallel"]} outs(%[[LOOP]]#0 : tensor<100xf32>)
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32):
// CHECK-NEXT:      %[[FV:.*]] = arith.mulf %[[NEGE]], %[[V]] : f32
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [#[[$ID]]], iterator_types = ["parallel"]} outs(%[[LOOP]]#1 : tensor<80xf32>)
// CHECK:           arith.mulf %[[NEGE]]
// Row costs sum_j exp(log_u_i + log_v_j - C_ij / eps) C_ij with
// log_u = f / eps + log_a and log_v = g / eps + log_b.
// CHECK:         %[[INV:.*]] = arith.divf %{{.*}}, %[[E]] : f32
// CHECK:         %[[LU:.*]] = linalg.generic {{.*}} ins(%[[F]], %[[LA]] : tensor<100xf32>, tensor<100xf32>)
// CHECK-NEXT:    ^bb0(%[[FI:.*]]: f32, %[[LAI:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[FS:.*]] = arith.mulf %[[FI]], %[[INV]] : f32
// CHECK-NEXT:      arith.addf %[[FS]], %[[LAI]] : f32
// CHECK:         %[[LV:.*]] = linalg.generic {{.*}} ins(%[[G]], %[[LB]] : tensor<80xf32>, tensor<80xf32>)
// CHECK:         %[[RC:.*]] = mixer.transport_cost cost(sqeuclidean) ins(%[[X]], %[[Y]], %[[LU]], %[[LV]], %[[EPS]] : tensor<100x3xf32>, tensor<80x3xf32>, tensor<100xf32>, tensor<80xf32>, tensor<f32>) outs(%{{.*}} : tensor<100xf32>)
// CHECK:         %[[CZ:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[C0T]] : tensor<f32>)
// CHECK:         %[[COST:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$TO0D]]], iterator_types = ["reduction"]} ins(%[[RC]] : tensor<100xf32>) outs(%[[CZ]] : tensor<f32>)
// CHECK:         return %[[F]], %[[G]], %[[COST]] : tensor<100xf32>, tensor<80xf32>, tensor<f32>
func.func @sinkhorn(%x: tensor<100x3xf32>, %y: tensor<80x3xf32>, %la: tensor<100xf32>, %lb: tensor<80xf32>, %eps: tensor<f32>, %f0: tensor<100xf32>, %g0: tensor<80xf32>, %c0: tensor<f32>) -> (tensor<100xf32>, tensor<80xf32>, tensor<f32>) {
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(10) ins(%x, %y, %la, %lb, %eps : tensor<100x3xf32>, tensor<80x3xf32>, tensor<100xf32>, tensor<80xf32>, tensor<f32>) outs(%f0, %g0, %c0 : tensor<100xf32>, tensor<80xf32>, tensor<f32>) -> tensor<100xf32>, tensor<80xf32>, tensor<f32>
  return %f, %g, %c : tensor<100xf32>, tensor<80xf32>, tensor<f32>
}

// -----

// The cost kind reaches both kernel_lse ops and the transport cost.
// Dynamic N and M.

// CHECK-LABEL: func.func @sinkhorn_laplacian_dynamic
// CHECK:         scf.for
// CHECK:           mixer.kernel_lse kernel(laplacian) ins(%{{.*}} : tensor<?x2xf32>, tensor<?x2xf32>, tensor<f32>) g(%{{.*}} : tensor<?xf32>)
// CHECK:           mixer.kernel_lse kernel(laplacian)
// CHECK-NOT:     mixer.sinkhorn
// CHECK:         mixer.transport_cost cost(laplacian) {{.*}} : tensor<?x2xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>) outs(%{{.*}} : tensor<?xf32>)
// CHECK-LABEL: func.func @sinkhorn_gaussian
// CHECK:           mixer.kernel_lse kernel(gaussian)
// CHECK:           mixer.kernel_lse kernel(gaussian)
// CHECK-NOT:     mixer.sinkhorn
// CHECK:         mixer.transport_cost cost(gaussian)
// CHECK-NOT:     mixer.sinkhorn
// CHECK:         return
func.func @sinkhorn_laplacian_dynamic(%x: tensor<?x2xf32>, %y: tensor<?x2xf32>, %la: tensor<?xf32>, %lb: tensor<?xf32>, %eps: tensor<f32>, %f0: tensor<?xf32>, %g0: tensor<?xf32>, %c0: tensor<f32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<f32>) {
  %f, %g, %c = mixer.sinkhorn cost(laplacian) iterations(5) ins(%x, %y, %la, %lb, %eps : tensor<?x2xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>) outs(%f0, %g0, %c0 : tensor<?xf32>, tensor<?xf32>, tensor<f32>) -> tensor<?xf32>, tensor<?xf32>, tensor<f32>
  return %f, %g, %c : tensor<?xf32>, tensor<?xf32>, tensor<f32>
}
func.func @sinkhorn_gaussian(%x: tensor<8x2xf32>, %y: tensor<4x2xf32>, %la: tensor<8xf32>, %lb: tensor<4xf32>, %eps: tensor<f32>, %f0: tensor<8xf32>, %g0: tensor<4xf32>, %c0: tensor<f32>) -> (tensor<8xf32>, tensor<4xf32>, tensor<f32>) {
  %f, %g, %c = mixer.sinkhorn cost(gaussian) iterations(1) ins(%x, %y, %la, %lb, %eps : tensor<8x2xf32>, tensor<4x2xf32>, tensor<8xf32>, tensor<4xf32>, tensor<f32>) outs(%f0, %g0, %c0 : tensor<8xf32>, tensor<4xf32>, tensor<f32>) -> tensor<8xf32>, tensor<4xf32>, tensor<f32>
  return %f, %g, %c : tensor<8xf32>, tensor<4xf32>, tensor<f32>
}

// -----

// A dynamic point dimension D decomposes the same way (the scalar
// lowering takes it; the blocked one needs D static).

// CHECK-LABEL: func.func @sinkhorn_dynamic_dim
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?x?xf32>, %[[Y:[^:]*]]: tensor<?x?xf32>
// CHECK:         scf.for
// CHECK:           mixer.kernel_lse kernel(sqeuclidean) ins(%[[X]], %[[Y]], %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>, tensor<f32>)
// CHECK:           mixer.kernel_lse kernel(sqeuclidean) ins(%[[Y]], %[[X]], %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>, tensor<f32>)
// CHECK:         mixer.transport_cost cost(sqeuclidean) ins(%[[X]], %[[Y]], {{.*}} : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>)
func.func @sinkhorn_dynamic_dim(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>, %la: tensor<?xf32>, %lb: tensor<?xf32>, %eps: tensor<f32>, %f0: tensor<?xf32>, %g0: tensor<?xf32>, %c0: tensor<f32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<f32>) {
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(2) ins(%x, %y, %la, %lb, %eps : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<f32>) outs(%f0, %g0, %c0 : tensor<?xf32>, tensor<?xf32>, tensor<f32>) -> tensor<?xf32>, tensor<?xf32>, tensor<f32>
  return %f, %g, %c : tensor<?xf32>, tensor<?xf32>, tensor<f32>
}
