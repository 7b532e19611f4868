// RUN: mixer-opt %s --convert-mixer-to-loops | FileCheck %s

// The rows of each group as in grouped_matmul; per output element the two
// dot products with w_gate[e] and w_up[e], then silu(g) * u with
// silu(g) = g / (1 + exp(-g)). Rows past the sum are zero.

// CHECK-LABEL: func.func @grouped_swiglu
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?x32xf32>, %[[WG:[^:]*]]: tensor<4x32x64xf32>, %[[WU:[^:]*]]: tensor<4x32x64xf32>, %[[GS:[^:]*]]: tensor<4xi64>, %[[O:[^:]*]]: tensor<?x64xf32>)
// CHECK-DAG:   %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:   %[[C64:.+]] = arith.constant 64 : index
// CHECK:       %[[T:.+]] = tensor.dim %[[X]], %[[C0]] : tensor<?x32xf32>
// CHECK:       %[[G:.+]]:2 = scf.for %[[E:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[OE:.+]] = %[[O]], %[[OFF:.+]] = %[[C0]]) -> (tensor<?x64xf32>, index)
// CHECK:         %[[SZ:.+]] = tensor.extract %[[GS]][%[[E]]] : tensor<4xi64>
// CHECK:         %[[RAW:.+]] = arith.index_cast %[[SZ]] : i64 to index
// Sizes are clamped to [0, rows left]: never out of bounds.
// CHECK-DAG:     %[[NONNEG:.+]] = arith.maxsi %[[RAW]], %{{.+}} : index
// CHECK-DAG:     %[[ROOM:.+]] = arith.subi %{{.+}}, %[[OFF]] : index
// CHECK:         %[[SIZE:.+]] = arith.minsi %[[NONNEG]], %[[ROOM]] : index
// CHECK:         %[[END:.+]] = arith.addi %[[OFF]], %[[SIZE]] : index
// CHECK:         scf.for %[[R:.+]] = %[[OFF]] to %[[END]] step %[[C1]]
// CHECK:           scf.for %[[N:.+]] = %[[C0]] to %[[C64]] step %[[C1]] iter_args(%[[ON:.+]] = %{{.+}})
// CHECK:             %[[GATE:.+]] = scf.for %[[K:.+]] = %[[C0]] to %[[C32]] step %[[C1]] iter_args(%{{.+}} = %[[ZERO]]) -> (f32)
// CHECK:               tensor.extract %[[X]][%[[R]], %[[K]]]
// CHECK:               tensor.extract %[[WG]][%[[E]], %[[K]], %[[N]]]
// CHECK:             %[[UP:.+]] = scf.for %[[K2:.+]] = %[[C0]] to %[[C32]] step %[[C1]] iter_args(%{{.+}} = %[[ZERO]]) -> (f32)
// CHECK:               tensor.extract %[[X]][%[[R]], %[[K2]]]
// CHECK:               tensor.extract %[[WU]][%[[E]], %[[K2]], %[[N]]]
// CHECK:             %[[NEG:.+]] = arith.negf %[[GATE]] : f32
// CHECK:             %[[EXP:.+]] = math.exp %[[NEG]] : f32
// CHECK:             %[[DEN:.+]] = arith.addf %[[EXP]], %[[ONE]] : f32
// CHECK:             %[[SILU:.+]] = arith.divf %[[GATE]], %[[DEN]] : f32
// CHECK:             %[[H:.+]] = arith.mulf %[[SILU]], %[[UP]] : f32
// CHECK:             tensor.insert %[[H]] into %[[ON]][%[[R]], %[[N]]]
// CHECK:       scf.for %[[R2:.+]] = %[[G]]#1 to %[[T]] step %[[C1]] iter_args(%{{.+}} = %[[G]]#0)
// CHECK:           tensor.insert %[[ZERO]] into
// CHECK-NOT:   mixer.grouped_swiglu
func.func @grouped_swiglu(%x: tensor<?x32xf32>, %wg: tensor<4x32x64xf32>, %wu: tensor<4x32x64xf32>, %gs: tensor<4xi64>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<?x32xf32>, tensor<4x32x64xf32>, tensor<4x32x64xf32>, tensor<4xi64>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}
