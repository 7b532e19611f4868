// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s

// The definition row by row: a loop over the experts carrying the output and
// the running row offset, the rows [offset, offset + size) of each group,
// one dot product per output element, then zeros in the rows past the sum.

// CHECK-LABEL: func.func @grouped_matmul_i32
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<?x32xf32>, %[[RHS:[^:]*]]: tensor<4x32x64xf32>, %[[GS:[^:]*]]: tensor<4xi32>, %[[O:[^:]*]]: tensor<?x64xf32>)
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:   %[[C64:.+]] = arith.constant 64 : index
// CHECK:       %[[T:.+]] = tensor.dim %[[LHS]], %[[C0]] : tensor<?x32xf32>
// CHECK:       %[[G:.+]]:2 = scf.for %[[E:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[OE:.+]] = %[[O]], %[[OFF:.+]] = %[[C0]]) -> (tensor<?x64xf32>, index)
// CHECK:         %[[SZ:.+]] = tensor.extract %[[GS]][%[[E]]] : tensor<4xi32>
// CHECK:         %[[RAW:.+]] = arith.index_cast %[[SZ]] : i32 to index
// Sizes are clamped to [0, rows left]: never out of bounds.
// CHECK-DAG:     %[[NONNEG:.+]] = arith.maxsi %[[RAW]], %{{.+}} : index
// CHECK-DAG:     %[[ROOM:.+]] = arith.subi %{{.+}}, %[[OFF]] : index
// CHECK:         %[[SIZE:.+]] = arith.minsi %[[NONNEG]], %[[ROOM]] : index
// CHECK:         %[[END:.+]] = arith.addi %[[OFF]], %[[SIZE]] : index
// CHECK:         %[[ROWS:.+]] = scf.for %[[R:.+]] = %[[OFF]] to %[[END]] step %[[C1]] iter_args(%[[OR:.+]] = %[[OE]])
// CHECK:           scf.for %[[N:.+]] = %[[C0]] to %[[C64]] step %[[C1]] iter_args(%[[ON:.+]] = %[[OR]])
// CHECK:             %[[DOT:.+]] = scf.for %[[K:.+]] = %[[C0]] to %[[C32]] step %[[C1]] iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (f32)
// CHECK:               %[[A:.+]] = tensor.extract %[[LHS]][%[[R]], %[[K]]]
// CHECK:               %[[W:.+]] = tensor.extract %[[RHS]][%[[E]], %[[K]], %[[N]]]
// CHECK:               %[[P:.+]] = arith.mulf %[[A]], %[[W]] : f32
// CHECK:               %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK:               scf.yield %[[S]] : f32
// CHECK:             tensor.insert %[[DOT]] into %[[ON]][%[[R]], %[[N]]]
// CHECK:         scf.yield %[[ROWS]], %[[END]] : tensor<?x64xf32>, index
// CHECK:       %[[RES:.+]] = scf.for %[[R2:.+]] = %[[G]]#1 to %[[T]] step %[[C1]] iter_args(%[[OZ:.+]] = %[[G]]#0)
// CHECK:         scf.for %[[N2:.+]] = %[[C0]] to %[[C64]] step %[[C1]] iter_args(%[[OZN:.+]] = %[[OZ]])
// CHECK:           tensor.insert %[[ZERO]] into %[[OZN]][%[[R2]], %[[N2]]]
// CHECK:       return %[[RES]] : tensor<?x64xf32>
func.func @grouped_matmul_i32(%lhs: tensor<?x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x32xf32>, tensor<4x32x64xf32>, tensor<4xi32>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}

// -----

// i64 group sizes are cast to index the same way; E is read from their shape.

// CHECK-LABEL: func.func @grouped_matmul_i64
// CHECK:         %[[SZ:.+]] = tensor.extract %{{.+}}[%{{.+}}] : tensor<3xi64>
// CHECK:         arith.index_cast %[[SZ]] : i64 to index
// CHECK-NOT:   mixer.grouped_matmul
func.func @grouped_matmul_i64(%lhs: tensor<20x8xf32>, %rhs: tensor<3x8x16xf32>, %gs: tensor<3xi64>, %o: tensor<20x16xf32>) -> tensor<20x16xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<20x8xf32>, tensor<3x8x16xf32>, tensor<3xi64>) outs(%o : tensor<20x16xf32>) -> tensor<20x16xf32>
  return %out : tensor<20x16xf32>
}
