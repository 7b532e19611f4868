// RUN: mixer-opt %s --convert-mixer-to-loops | FileCheck %s

// A stable counting sort of the T*k slots by expert: zero the group sizes,
// count the slots of each expert (slot a = t*k + j has expert
// expert_ids[a / k, a % k]), the exclusive prefix sum of the sizes as each
// expert's next free row, place the slots in order, then gather the rows of
// x: sorted[r, :] = x[permutation[r] / k, :].

// CHECK-LABEL: func.func @moe_dispatch
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<6x16xf32>, %[[IDS:[^:]*]]: tensor<6x2xi32>, %[[S0:[^:]*]]: tensor<12x16xf32>, %[[G0:[^:]*]]: tensor<4xi64>, %[[P0:[^:]*]]: tensor<12xi32>)
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C12:.+]] = arith.constant 12 : index
// CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:   %[[Z64:.+]] = arith.constant 0 : i64
// CHECK-DAG:   %[[O64:.+]] = arith.constant 1 : i64
// CHECK:       %[[GZ:.+]] = scf.for %[[E:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[GA:.+]] = %[[G0]])
// CHECK:         tensor.insert %[[Z64]] into %[[GA]][%[[E]]]
// CHECK:       %[[SIZES:.+]] = scf.for %[[A:.+]] = %[[C0]] to %[[C12]] step %[[C1]] iter_args(%[[GC:.+]] = %[[GZ]])
// CHECK:         %[[T:.+]] = arith.divui %[[A]], %[[C2]] : index
// CHECK:         %[[J:.+]] = arith.remui %[[A]], %[[C2]] : index
// CHECK:         %[[ID:.+]] = tensor.extract %[[IDS]][%[[T]], %[[J]]]
// CHECK:         %[[EI:.+]] = arith.index_cast %[[ID]] : i32 to index
// CHECK:         %[[N:.+]] = tensor.extract %[[GC]][%[[EI]]]
// CHECK:         %[[N1:.+]] = arith.addi %[[N]], %[[O64]] : i64
// CHECK:         tensor.insert %[[N1]] into %[[GC]][%[[EI]]]
// CHECK:       %[[NEXT0:.+]] = tensor.empty() : tensor<4xi64>
// CHECK:       %[[NEXT:.+]]:2 = scf.for %[[E2:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[NX:.+]] = %[[NEXT0]], %[[OFF:.+]] = %[[Z64]])
// CHECK:         %[[SZ:.+]] = tensor.extract %[[SIZES]][%[[E2]]]
// CHECK:         %[[NX1:.+]] = tensor.insert %[[OFF]] into %[[NX]][%[[E2]]]
// CHECK:         %[[OFF1:.+]] = arith.addi %[[OFF]], %[[SZ]] : i64
// CHECK:         scf.yield %[[NX1]], %[[OFF1]]
// CHECK:       %[[PERM:.+]]:2 = scf.for %[[A2:.+]] = %[[C0]] to %[[C12]] step %[[C1]] iter_args(%[[PA:.+]] = %[[P0]], %[[NA:.+]] = %[[NEXT]]#0)
// CHECK:         %[[ID2:.+]] = tensor.extract %[[IDS]]
// CHECK:         %[[EI2:.+]] = arith.index_cast %[[ID2]] : i32 to index
// CHECK:         %[[ROW:.+]] = tensor.extract %[[NA]][%[[EI2]]]
// CHECK:         %[[SLOT:.+]] = arith.index_cast %[[A2]] : index to i32
// CHECK:         %[[RI:.+]] = arith.index_cast %[[ROW]] : i64 to index
// CHECK:         %[[PA1:.+]] = tensor.insert %[[SLOT]] into %[[PA]][%[[RI]]]
// CHECK:         %[[ROW1:.+]] = arith.addi %[[ROW]], %[[O64]] : i64
// CHECK:         %[[NA1:.+]] = tensor.insert %[[ROW1]] into %[[NA]][%[[EI2]]]
// CHECK:         scf.yield %[[PA1]], %[[NA1]]
// CHECK:       %[[SORTED:.+]] = scf.for %[[R:.+]] = %[[C0]] to %[[C12]] step %[[C1]] iter_args(%[[SA:.+]] = %[[S0]])
// CHECK:         scf.for %[[KK:.+]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[SB:.+]] = %[[SA]])
// CHECK:           %[[PV:.+]] = tensor.extract %[[PERM]]#0[%[[R]]]
// CHECK:           %[[PI:.+]] = arith.index_cast %[[PV]] : i32 to index
// CHECK:           %[[TOK:.+]] = arith.divui %[[PI]], %[[C2]] : index
// CHECK:           %[[XV:.+]] = tensor.extract %[[X]][%[[TOK]], %[[KK]]]
// CHECK:           tensor.insert %[[XV]] into %[[SB]][%[[R]], %[[KK]]]
// CHECK:       return %[[SORTED]], %[[SIZES]], %[[PERM]]#0
func.func @moe_dispatch(%x: tensor<6x16xf32>, %ids: tensor<6x2xi32>, %s0: tensor<12x16xf32>, %g0: tensor<4xi64>, %p0: tensor<12xi32>) -> (tensor<12x16xf32>, tensor<4xi64>, tensor<12xi32>) {
  %s, %g, %p = mixer.moe_dispatch num_experts(4) ins(%x, %ids : tensor<6x16xf32>, tensor<6x2xi32>) outs(%s0, %g0, %p0 : tensor<12x16xf32>, tensor<4xi64>, tensor<12xi32>) -> tensor<12x16xf32>, tensor<4xi64>, tensor<12xi32>
  return %s, %g, %p : tensor<12x16xf32>, tensor<4xi64>, tensor<12xi32>
}
