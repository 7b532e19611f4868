// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// mixer.grouped_matmul: a loop over the experts carrying the output, one
// packed weight panel and the running row offset (prefix sum of the
// run-time group sizes). The columns of each expert's [K, N] weight go in
// panels as wide as the register tile (2 x 16 lanes on the default target,
// AVX-512): each panel is copied into the contiguous [K, 32] buffer, then
// every slab of the group's rows is multiplied by it. The rows of a group
// are covered by static slabs: size / 16 slabs of 16 rows, then one slab
// each of 8, 4, 2 and 1 rows where that bit of the remainder is set (trip
// count 0 or 1). Each slab's product accumulates in place in its zeroed
// tile of the output. Rows past the sum are zeroed in the same slabs.

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
// CHECK-DAG:   %[[C32:.+]] = arith.constant 32 : index
// The panel buffer: allocated once, reused by every (expert, panel).
// CHECK:       %[[BUF0:.+]] = bufferization.alloc_tensor() : tensor<32x32xf32>
// CHECK:       %[[T:.+]] = tensor.dim %[[LHS]], %[[C0]] : tensor<?x32xf32>
// CHECK:       %[[G:.+]]:3 = scf.for %[[E:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[OE:.+]] = %[[O]], %[[BUFE:.+]] = %[[BUF0]], %[[OFF:.+]] = %[[C0]]) -> (tensor<?x64xf32>, tensor<32x32xf32>, index)
// CHECK:         %[[SZ:.+]] = tensor.extract %[[GS]][%[[E]]] : tensor<4xi32>
// CHECK:         %[[RAW:.+]] = arith.index_cast %[[SZ]] : i32 to index
// Sizes are clamped to [0, rows left]: never out of bounds.
// CHECK:         %[[NONNEG:.+]] = arith.maxsi %[[RAW]], %{{.+}} : index
// CHECK:         %[[SIZE:.+]] = arith.minsi %[[NONNEG]], %{{.+}} : index
// Two panels of 32 columns: pack, then the slabs.
// CHECK:         %[[P:.+]]:2 = scf.for %[[J:.+]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[OP:.+]] = %[[OE]], %[[BUF:.+]] = %[[BUFE]]) -> (tensor<?x64xf32>, tensor<32x32xf32>)
// CHECK:           %[[COL:.+]] = arith.muli %[[J]], %[[C32]] : index
// CHECK:           %[[SRC:.+]] = tensor.extract_slice %[[RHS]][%[[E]], 0, %[[COL]]] [1, 32, 32] [1, 1, 1] : tensor<4x32x64xf32> to tensor<32x32xf32>
// CHECK:           %[[PANEL:.+]] = linalg.copy ins(%[[SRC]] : tensor<32x32xf32>) outs(%[[BUF]] : tensor<32x32xf32>)
// Full slabs of 16 rows.
// CHECK:           %[[NFULL:.+]] = arith.divui %[[SIZE]], %[[C16]] : index
// CHECK:           %[[O16:.+]] = scf.for %[[I:.+]] = %[[C0]] to %[[NFULL]] step %[[C1]] iter_args(%[[OS:.+]] = %[[OP]]) -> (tensor<?x64xf32>)
// CHECK:             %[[D:.+]] = arith.muli %[[I]], %[[C16]] : index
// CHECK:             %[[R0:.+]] = arith.addi %[[OFF]], %[[D]] : index
// CHECK:             %[[A:.+]] = tensor.extract_slice %[[LHS]][%[[R0]], 0] [16, 32] [1, 1] : tensor<?x32xf32> to tensor<16x32xf32>
// CHECK:             %[[DEST:.+]] = tensor.extract_slice %[[OS]][%[[R0]], %[[COL]]] [16, 32] [1, 1] : tensor<?x64xf32> to tensor<16x32xf32>
// CHECK:             %[[ACC:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[DEST]] : tensor<16x32xf32>)
// CHECK:             %[[MM:.+]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[PANEL]] : tensor<16x32xf32>, tensor<32x32xf32>) outs(%[[ACC]] : tensor<16x32xf32>)
// CHECK:               arith.mulf
// CHECK:               arith.addf
// CHECK:             %[[INS:.+]] = tensor.insert_slice %[[MM]] into %[[OS]][%[[R0]], %[[COL]]] [16, 32] [1, 1] : tensor<16x32xf32> into tensor<?x64xf32>
// CHECK:             scf.yield %[[INS]]
// The remainder: bit 8 gives 0 or 1 slab of 8 rows, and so on down to 1.
// CHECK:           %[[DONE:.+]] = arith.muli %[[NFULL]], %[[C16]] : index
// CHECK:           %[[POS:.+]] = arith.addi %[[OFF]], %[[DONE]] : index
// CHECK:           %[[REST:.+]] = arith.subi %[[SIZE]], %[[DONE]] : index
// CHECK:           %[[BIT8:.+]] = arith.andi %[[REST]], %[[C8]] : index
// CHECK:           %[[N8:.+]] = arith.divui %[[BIT8]], %[[C8]] : index
// CHECK:           %[[O8:.+]] = scf.for %{{.+}} = %[[C0]] to %[[N8]] step %[[C1]] iter_args(%{{.+}} = %[[O16]])
// CHECK:             tensor.extract_slice %[[LHS]][%{{.+}}, 0] [8, 32] [1, 1] : tensor<?x32xf32> to tensor<8x32xf32>
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[PANEL]] : tensor<8x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:           arith.andi %[[REST]], %[[C4]] : index
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[PANEL]] : tensor<4x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<4x32xf32>)
// CHECK:           arith.andi %[[REST]], %[[C2]] : index
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[PANEL]] : tensor<2x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<2x32xf32>)
// CHECK:           %[[BIT1:.+]] = arith.andi %[[REST]], %[[C1]] : index
// CHECK:           %[[O1:.+]] = scf.for %{{.+}} = %[[C0]] to %[[BIT1]] step %[[C1]]
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[PANEL]] : tensor<1x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<1x32xf32>)
// CHECK:           scf.yield %[[O1]], %[[PANEL]] : tensor<?x64xf32>, tensor<32x32xf32>
// CHECK:         %[[NEXT:.+]] = arith.addi %[[OFF]], %[[SIZE]] : index
// CHECK:         scf.yield %[[P]]#0, %[[P]]#1, %[[NEXT]] : tensor<?x64xf32>, tensor<32x32xf32>, index
// Rows past the sum: zero-filled in place, in the same slabs.
// CHECK:       %[[PAST:.+]] = arith.subi %[[T]], %[[G]]#2 : index
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

// N = 40: one full panel of 32 columns, then the last 8 columns packed into
// the leading columns of the same buffer.

// CHECK-LABEL: func.func @grouped_matmul_narrow_panel
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<?x24xf32>, %[[RHS:[^:]*]]: tensor<3x24x40xf32>
// CHECK:       bufferization.alloc_tensor() : tensor<24x32xf32>
// CHECK:       scf.for
// CHECK:         scf.for {{.*}} -> (tensor<?x40xf32>, tensor<24x32xf32>)
// CHECK:           linalg.copy ins(%{{.+}} : tensor<24x32xf32>)
// CHECK:           linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<16x24xf32>, tensor<24x32xf32>) outs(%{{.+}} : tensor<16x32xf32>)
// CHECK:         %[[TAILBUF:.+]] = tensor.extract_slice %{{.+}}[0, 0] [24, 8] [1, 1] : tensor<24x32xf32> to tensor<24x8xf32>
// CHECK:         %[[TAILSRC:.+]] = tensor.extract_slice %[[RHS]][%{{.+}}, 0, 32] [1, 24, 8] [1, 1, 1] : tensor<3x24x40xf32> to tensor<24x8xf32>
// CHECK:         %[[TAIL:.+]] = linalg.copy ins(%[[TAILSRC]] : tensor<24x8xf32>) outs(%[[TAILBUF]] : tensor<24x8xf32>)
// CHECK:         tensor.insert_slice %[[TAIL]] into %{{.+}}[0, 0] [24, 8] [1, 1] : tensor<24x8xf32> into tensor<24x32xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[TAIL]] : tensor<16x24xf32>, tensor<24x8xf32>) outs(%{{.+}} : tensor<16x8xf32>)
// CHECK:         tensor.insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 32] [16, 8] [1, 1] : tensor<16x8xf32> into tensor<?x40xf32>
func.func @grouped_matmul_narrow_panel(%lhs: tensor<?x24xf32>, %rhs: tensor<3x24x40xf32>, %gs: tensor<3xi64>, %o: tensor<?x40xf32>) -> tensor<?x40xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x24xf32>, tensor<3x24x40xf32>, tensor<3xi64>) outs(%o : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %out : tensor<?x40xf32>
}
