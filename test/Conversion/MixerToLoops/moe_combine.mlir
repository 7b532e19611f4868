// RUN: mixer-opt %s --convert-mixer-to-loops | FileCheck %s

// The output zeroed, then for each dispatched row r of slot
// a = permutation[r] (token t = a / k, choice j = a % k):
// out[t, n] += weights[t, j] * expert_out[r, n].

// CHECK-LABEL: func.func @moe_combine
// CHECK-SAME:    (%[[EO:[^:]*]]: tensor<?x16xf32>, %[[P:[^:]*]]: tensor<?xi32>, %[[W:[^:]*]]: tensor<?x2xf32>, %[[O:[^:]*]]: tensor<?x16xf32>)
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
// CHECK:       %[[SLOTS:.+]] = tensor.dim %[[EO]], %[[C0]]
// CHECK:       %[[T:.+]] = tensor.dim %[[O]], %[[C0]]
// CHECK:       %[[Z:.+]] = scf.for %{{.+}} = %[[C0]] to %[[T]] step %[[C1]] iter_args(%{{.+}} = %[[O]])
// CHECK:           tensor.insert %[[ZERO]]
// CHECK:       %[[RES:.+]] = scf.for %[[R:.+]] = %[[C0]] to %[[SLOTS]] step %[[C1]] iter_args(%[[OA:.+]] = %[[Z]])
// CHECK:         %[[PV:.+]] = tensor.extract %[[P]][%[[R]]]
// CHECK:         %[[A:.+]] = arith.index_cast %[[PV]] : i32 to index
// CHECK:         %[[TOK:.+]] = arith.divui %[[A]], %[[C2]] : index
// CHECK:         %[[J:.+]] = arith.remui %[[A]], %[[C2]] : index
// CHECK:         %[[WV:.+]] = tensor.extract %[[W]][%[[TOK]], %[[J]]]
// CHECK:         scf.for %[[N:.+]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[OB:.+]] = %[[OA]])
// CHECK:           %[[OV:.+]] = tensor.extract %[[OB]][%[[TOK]], %[[N]]]
// CHECK:           %[[EV:.+]] = tensor.extract %[[EO]][%[[R]], %[[N]]]
// CHECK:           %[[PR:.+]] = arith.mulf %[[WV]], %[[EV]] : f32
// CHECK:           %[[S:.+]] = arith.addf %[[OV]], %[[PR]] : f32
// CHECK:           tensor.insert %[[S]] into %[[OB]][%[[TOK]], %[[N]]]
// CHECK:       return %[[RES]]
func.func @moe_combine(%eo: tensor<?x16xf32>, %p: tensor<?xi32>, %w: tensor<?x2xf32>, %o: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %y = mixer.moe_combine ins(%eo, %p, %w : tensor<?x16xf32>, tensor<?xi32>, tensor<?x2xf32>) outs(%o : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
