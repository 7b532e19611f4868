// RUN: mixer-opt %s --convert-mixer-to-loops | FileCheck %s

// The scalar form of mixer.kernel_lse_point_grad: per row p, grad[p, :] = 0,
// then a loop over the M columns q carrying grad and the sum: r^2 summed
// directly, P = w_q exp(min(-c/eps + a_p + b_q, 0)), grad[p, :] +=
// -(1/eps) P f (x_p - y_q) (f = 2 for sqeuclidean), sum += P; then
// sums[p] = sum.

// CHECK-LABEL: func.func @kernel_lse_point_grad
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<8x3xf32>, %[[Y:[^:]*]]: tensor<16x3xf32>, %[[EPS:[^:]*]]: tensor<f32>, %[[A:[^:]*]]: tensor<8xf32>, %[[B:[^:]*]]: tensor<16xf32>, %[[W:[^:]*]]: tensor<16xf32>, %[[G0:[^:]*]]: tensor<8x3xf32>, %[[S0:[^:]*]]: tensor<8xf32>)
// CHECK-DAG:     %[[TWO:[^ ]*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[ZERO:[^ ]*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[R:[^ ]*]]:2 = scf.for %[[P:[^ ]*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[G:[^ ]*]] = %[[G0]], %[[S:[^ ]*]] = %[[S0]])
// CHECK:           %[[AP:[^ ]*]] = tensor.extract %[[A]][%[[P]]]
// CHECK:           %[[ZEROED:[^ ]*]] = scf.for
// CHECK:             tensor.insert %[[ZERO]] into
// CHECK:           %[[COLS:[^ ]*]]:2 = scf.for %[[Q:[^ ]*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[GQ:[^ ]*]] = %[[ZEROED]], %[[SUM:[^ ]*]] = %[[ZERO]])
// CHECK:             %[[R2:[^ ]*]] = scf.for
// CHECK:               arith.subf
// CHECK:               arith.mulf
// CHECK:             %[[BQ:[^ ]*]] = tensor.extract %[[B]][%[[Q]]]
// CHECK:             %[[WQ:[^ ]*]] = tensor.extract %[[W]][%[[Q]]]
// CHECK:             %[[E1:[^ ]*]] = arith.addf %{{.*}}, %[[AP]]
// CHECK:             %[[E2:[^ ]*]] = arith.addf %[[E1]], %[[BQ]]
// CHECK:             %[[CL:[^ ]*]] = arith.minimumf %[[E2]], %[[ZERO]]
// CHECK:             %[[EX:[^ ]*]] = math.exp %[[CL]]
// CHECK:             %[[PLAN:[^ ]*]] = arith.mulf %[[WQ]], %[[EX]]
// CHECK:             %[[SC:[^ ]*]] = arith.mulf %{{.*}}, %[[PLAN]]
// CHECK:             %[[SC2:[^ ]*]] = arith.mulf %[[SC]], %[[TWO]]
// CHECK:             %[[GN:[^ ]*]] = scf.for
// CHECK:               arith.mulf %[[SC2]]
// CHECK:               tensor.insert
// CHECK:             %[[SN:[^ ]*]] = arith.addf %[[SUM]], %[[PLAN]]
// CHECK:             scf.yield %[[GN]], %[[SN]]
// CHECK:           %[[SUMS:[^ ]*]] = tensor.insert %[[COLS]]#1 into %[[S]][%[[P]]]
// CHECK:           scf.yield %[[COLS]]#0, %[[SUMS]]
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @kernel_lse_point_grad(%x: tensor<8x3xf32>, %y: tensor<16x3xf32>, %eps: tensor<f32>, %a: tensor<8xf32>, %b: tensor<16xf32>, %w: tensor<16xf32>, %g0: tensor<8x3xf32>, %s0: tensor<8xf32>) -> (tensor<8x3xf32>, tensor<8xf32>) {
  %g, %s = mixer.kernel_lse_point_grad kernel(sqeuclidean) ins(%x, %y, %eps, %a, %b, %w : tensor<8x3xf32>, tensor<16x3xf32>, tensor<f32>, tensor<8xf32>, tensor<16xf32>, tensor<16xf32>) outs(%g0, %s0 : tensor<8x3xf32>, tensor<8xf32>) -> tensor<8x3xf32>, tensor<8xf32>
  return %g, %s : tensor<8x3xf32>, tensor<8xf32>
}
