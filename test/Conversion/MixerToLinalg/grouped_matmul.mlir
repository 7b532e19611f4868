// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// mixer.grouped_matmul: a loop over the experts carrying the output and the
// running row offset (prefix sum of the run-time group sizes). The rows of
// a group are covered by static slabs: size / 16 slabs of 16 rows, then one
// slab each of 8, 4, 2 and 1 rows where that bit of the remainder is set
// (trip count 0 or 1). Each slab is a static-shape contraction into a local
// zero-filled buffer, inserted once. Rows past the sum are zeroed in the
// same slabs.

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @grouped_matmul
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<?x32xf32>, %[[RHS:[^:]*]]: tensor<4x32x64xf32>, %[[GS:[^:]*]]: tensor<4xi32>, %[[O:[^:]*]]: tensor<?x64xf32>)
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
// CHECK:       %[[T:.+]] = tensor.dim %[[LHS]], %[[C0]] : tensor<?x32xf32>
// CHECK:       %[[G:.+]]:2 = scf.for %[[E:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[OE:.+]] = %[[O]], %[[OFF:.+]] = %[[C0]]) -> (tensor<?x64xf32>, index)
// CHECK:         %[[SZ:.+]] = tensor.extract %[[GS]][%[[E]]] : tensor<4xi32>
// CHECK:         %[[RAW:.+]] = arith.index_cast %[[SZ]] : i32 to index
// Sizes are clamped to [0, rows left]: never out of bounds.
// CHECK:         %[[NONNEG:.+]] = arith.maxsi %[[RAW]], %{{.+}} : index
// CHECK:         %[[SIZE:.+]] = arith.minsi %[[NONNEG]], %{{.+}} : index
// CHECK:         %[[W:.+]] = tensor.extract_slice %[[RHS]][%[[E]], 0, 0] [1, 32, 64] [1, 1, 1] : tensor<4x32x64xf32> to tensor<32x64xf32>
// Full slabs of 16 rows.
// CHECK:         %[[NFULL:.+]] = arith.divui %[[SIZE]], %[[C16]] : index
// CHECK:         %[[O16:.+]] = scf.for %[[I:.+]] = %[[C0]] to %[[NFULL]] step %[[C1]] iter_args(%[[OS:.+]] = %[[OE]]) -> (tensor<?x64xf32>)
// CHECK:           %[[D:.+]] = arith.muli %[[I]], %[[C16]] : index
// CHECK:           %[[R0:.+]] = arith.addi %[[OFF]], %[[D]] : index
// CHECK:           %[[A:.+]] = tensor.extract_slice %[[LHS]][%[[R0]], 0] [16, 32] [1, 1] : tensor<?x32xf32> to tensor<16x32xf32>
// CHECK:           %[[BUF:.+]] = bufferization.alloc_tensor() : tensor<16x64xf32>
// CHECK:           %[[ACC:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[BUF]] : tensor<16x64xf32>)
// CHECK:           %[[MM:.+]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[W]] : tensor<16x32xf32>, tensor<32x64xf32>) outs(%[[ACC]] : tensor<16x64xf32>)
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:           %[[INS:.+]] = tensor.insert_slice %[[MM]] into %[[OS]][%[[R0]], 0] [16, 64] [1, 1] : tensor<16x64xf32> into tensor<?x64xf32>
// CHECK:           scf.yield %[[INS]]
// The remainder: bit 8 gives 0 or 1 slab of 8 rows, and so on down to 1.
// CHECK:         %[[DONE:.+]] = arith.muli %[[NFULL]], %[[C16]] : index
// CHECK:         %[[POS:.+]] = arith.addi %[[OFF]], %[[DONE]] : index
// CHECK:         %[[REST:.+]] = arith.subi %[[SIZE]], %[[DONE]] : index
// CHECK:         %[[BIT8:.+]] = arith.andi %[[REST]], %[[C8]] : index
// CHECK:         %[[N8:.+]] = arith.divui %[[BIT8]], %[[C8]] : index
// CHECK:         %[[O8:.+]] = scf.for %{{.+}} = %[[C0]] to %[[N8]] step %[[C1]] iter_args(%{{.+}} = %[[O16]])
// CHECK:           tensor.extract_slice %[[LHS]][%{{.+}}, 0] [8, 32] [1, 1] : tensor<?x32xf32> to tensor<8x32xf32>
// CHECK:           linalg.generic {{.*}} ins(%{{.+}}, %[[W]] : tensor<8x32xf32>, tensor<32x64xf32>) outs(%{{.+}} : tensor<8x64xf32>)
// CHECK:         arith.andi %[[REST]], %[[C4]] : index
// CHECK:           linalg.generic {{.*}} ins(%{{.+}}, %[[W]] : tensor<4x32xf32>, tensor<32x64xf32>) outs(%{{.+}} : tensor<4x64xf32>)
// CHECK:         arith.andi %[[REST]], %[[C2]] : index
// CHECK:           linalg.generic {{.*}} ins(%{{.+}}, %[[W]] : tensor<2x32xf32>, tensor<32x64xf32>) outs(%{{.+}} : tensor<2x64xf32>)
// CHECK:         %[[BIT1:.+]] = arith.andi %[[REST]], %[[C1]] : index
// CHECK:         %[[O1:.+]] = scf.for %{{.+}} = %[[C0]] to %[[BIT1]] step %[[C1]]
// CHECK:           linalg.generic {{.*}} ins(%{{.+}}, %[[W]] : tensor<1x32xf32>, tensor<32x64xf32>) outs(%{{.+}} : tensor<1x64xf32>)
// CHECK:         %[[NEXT:.+]] = arith.addi %[[OFF]], %[[SIZE]] : index
// CHECK:         scf.yield %[[O1]], %[[NEXT]] : tensor<?x64xf32>, index
// Rows past the sum: zero-filled in place, in the same slabs.
// CHECK:       %[[PAST:.+]] = arith.subi %[[T]], %[[G]]#1 : index
// CHECK:       %[[NZ:.+]] = arith.divui %[[PAST]], %[[C16]] : index
// CHECK:       scf.for %{{.+}} = %[[C0]] to %[[NZ]] step %[[C1]] iter_args(%[[OZ:.+]] = %[[G]]#0)
// CHECK:         %[[ZS:.+]] = tensor.extract_slice %[[OZ]][%{{.+}}, 0] [16, 64] [1, 1] : tensor<?x64xf32> to tensor<16x64xf32>
// CHECK:         %[[ZF:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ZS]] : tensor<16x64xf32>)
// CHECK:         tensor.insert_slice %[[ZF]] into %[[OZ]]
// CHECK:       linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<1x64xf32>)
// CHECK-NOT:   mixer.grouped_matmul
func.func @grouped_matmul(%lhs: tensor<?x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x32xf32>, tensor<4x32x64xf32>, tensor<4xi32>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}
