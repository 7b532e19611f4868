// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// The counting sort in scalar loops (the group sizes zero-filled by
// linalg.fill, the next-row counters in a fresh local buffer), then the
// sorted rows gathered in parallel: an scf.forall over the rows r, each
// copied from its token's row of x by a linalg.copy of one row (vectorized
// by rows on the CPU, over a block's threads on the GPU).

// CHECK-LABEL: func.func @moe_dispatch
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<6x16xf32>, %[[IDS:[^:]*]]: tensor<6x2xi32>, %[[S0:[^:]*]]: tensor<12x16xf32>, %[[G0:[^:]*]]: tensor<4xi64>, %[[P0:[^:]*]]: tensor<12xi32>)
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C12:.+]] = arith.constant 12 : index
// CHECK-DAG:   %[[Z64:.+]] = arith.constant 0 : i64
// CHECK-DAG:   %[[O64:.+]] = arith.constant 1 : i64
// CHECK:       %[[GZ:.+]] = linalg.fill ins(%[[Z64]] : i64) outs(%[[G0]] : tensor<4xi64>)
// CHECK:       %[[SIZES:.+]] = scf.for %[[A:.+]] = %[[C0]] to %[[C12]] step %[[C1]] iter_args(%[[GC:.+]] = %[[GZ]])
// CHECK:         %[[T:.+]] = arith.divui %[[A]], %[[C2]] : index
// CHECK:         %[[J:.+]] = arith.remui %[[A]], %[[C2]] : index
// CHECK:         %[[ID:.+]] = tensor.extract %[[IDS]][%[[T]], %[[J]]]
// CHECK:         %[[EI:.+]] = arith.index_cast %[[ID]] : i32 to index
// CHECK:         %[[N:.+]] = tensor.extract %[[GC]][%[[EI]]]
// CHECK:         %[[N1:.+]] = arith.addi %[[N]], %[[O64]] : i64
// CHECK:         tensor.insert %[[N1]] into %[[GC]][%[[EI]]]
// CHECK:       %[[NEXT0:.+]] = bufferization.alloc_tensor() : tensor<4xi64>
// CHECK:       %[[NEXT:.+]]:2 = scf.for %[[E:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[NX:.+]] = %[[NEXT0]], %[[OFF:.+]] = %[[Z64]])
// CHECK:         tensor.extract %[[SIZES]][%[[E]]]
// CHECK:         tensor.insert %[[OFF]] into %[[NX]][%[[E]]]
// CHECK:       %[[PERM:.+]]:2 = scf.for %[[A2:.+]] = %[[C0]] to %[[C12]] step %[[C1]] iter_args(%[[PA:.+]] = %[[P0]], %[[NA:.+]] = %[[NEXT]]#0)
// CHECK:         %[[ROW:.+]] = tensor.extract %[[NA]][%{{.+}}]
// CHECK:         %[[SLOT:.+]] = arith.index_cast %[[A2]] : index to i32
// CHECK:         %[[RI:.+]] = arith.index_cast %[[ROW]] : i64 to index
// CHECK:         tensor.insert %[[SLOT]] into %[[PA]][%[[RI]]]
// CHECK:         arith.addi %[[ROW]], %[[O64]] : i64
// CHECK:       %[[SORTED:.+]] = scf.forall (%[[R:.+]]) in (%[[C12]]) shared_outs(%[[SA:.+]] = %[[S0]])
// CHECK:         %[[PV:.+]] = tensor.extract %[[PERM]]#0[%[[R]]]
// CHECK:         %[[PI:.+]] = arith.index_cast %[[PV]] : i32 to index
// CHECK:         %[[TOK:.+]] = arith.divui %[[PI]], %[[C2]] : index
// CHECK:         %[[SRC:.+]] = tensor.extract_slice %[[X]][%[[TOK]], 0] [1, 16] [1, 1] : tensor<6x16xf32> to tensor<16xf32>
// CHECK:         %[[DST:.+]] = tensor.extract_slice %[[SA]][%[[R]], 0] [1, 16] [1, 1] : tensor<12x16xf32> to tensor<16xf32>
// CHECK:         %[[CP:.+]] = linalg.copy ins(%[[SRC]] : tensor<16xf32>) outs(%[[DST]] : tensor<16xf32>)
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice %[[CP]] into %[[SA]][%[[R]], 0] [1, 16] [1, 1]
// CHECK:       return %[[SORTED]], %[[SIZES]], %[[PERM]]#0
func.func @moe_dispatch(%x: tensor<6x16xf32>, %ids: tensor<6x2xi32>, %s0: tensor<12x16xf32>, %g0: tensor<4xi64>, %p0: tensor<12xi32>) -> (tensor<12x16xf32>, tensor<4xi64>, tensor<12xi32>) {
  %s, %g, %p = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<6x16xf32>, tensor<6x2xi32>) outs(%s0, %g0, %p0 : tensor<12x16xf32>, tensor<4xi64>, tensor<12xi32>) -> tensor<12x16xf32>, tensor<4xi64>, tensor<12xi32>
  return %s, %g, %p : tensor<12x16xf32>, tensor<4xi64>, tensor<12xi32>
}
