// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s

// Loops b, h, j (a column of the state) outside, the column copied from
// init, then per token: kS = sum_i k[i] S[i,j], the update
// S[i,j] = a (S[i,j] - beta k[i] kS) + beta k[i] v[j] with a = exp(g), and
// o[b,t,h,j] = scale * sum_i S[i,j] q[i].

// CHECK-LABEL: func.func @gdr
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<1x10x2x16xf32>, %[[K:[a-z0-9]+]]: tensor<1x10x2x16xf32>,
// CHECK-SAME:    %[[V:[a-z0-9]+]]: tensor<1x10x2x8xf32>, %[[G:[a-z0-9]+]]: tensor<1x10x2xf32>,
// CHECK-SAME:    %[[BETA:[a-z0-9]+]]: tensor<1x10x2xf32>, %[[INIT:[a-z0-9]+]]: tensor<1x2x16x8xf32>,
// CHECK-SAME:    %[[O0:[a-z0-9]+]]: tensor<1x10x2x8xf32>, %[[S0:[a-z0-9]+]]: tensor<1x2x16x8xf32>
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[SCALE:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:   %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:   %[[C10:.+]] = arith.constant 10 : index
// CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
// CHECK:       %[[RES:.+]]:2 = scf.for %[[BI:[a-z0-9]+]] = {{.*}} iter_args(%{{.+}} = %[[O0]], %{{.+}} = %[[S0]])
// CHECK:         scf.for %[[H:[a-z0-9]+]] =
// CHECK:           scf.for %[[J:[a-z0-9]+]] = %{{.+}} to %[[C8]] {{.*}} iter_args(%[[OJ:[a-z0-9_]+]] = %{{.+}}, %[[SJ:[a-z0-9_]+]] = %{{.+}})
// CHECK:             %[[FILLED:.+]] = scf.for %[[I0:[a-z0-9]+]] = %{{.+}} to %[[C16]] {{.*}} iter_args(%[[SF:.+]] = %[[SJ]])
// CHECK:               %[[IV:.+]] = tensor.extract %[[INIT]][%[[BI]], %[[H]], %[[I0]], %[[J]]]
// CHECK:               tensor.insert %[[IV]] into %[[SF]][%[[BI]], %[[H]], %[[I0]], %[[J]]]
// CHECK:             scf.for %[[T:[a-z0-9]+]] = %{{.+}} to %[[C10]] {{.*}} iter_args(%[[OT:[a-z0-9_]+]] = %[[OJ]], %[[ST:[a-z0-9_]+]] = %[[FILLED]])
// CHECK:               %[[GV:.+]] = tensor.extract %[[G]][%[[BI]], %[[T]], %[[H]]]
// CHECK:               %[[A:.+]] = math.exp %[[GV]] : f32
// CHECK:               %[[B:.+]] = tensor.extract %[[BETA]][%[[BI]], %[[T]], %[[H]]]
// CHECK:               %[[VJ:.+]] = tensor.extract %[[V]][%[[BI]], %[[T]], %[[H]], %[[J]]]
// CHECK:               %[[KS:.+]] = scf.for %[[I1:[a-z0-9]+]] = {{.*}} iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (f32)
// CHECK-DAG:             tensor.extract %[[K]][%[[BI]], %[[T]], %[[H]], %[[I1]]]
// CHECK-DAG:             tensor.extract %[[ST]][%[[BI]], %[[H]], %[[I1]], %[[J]]]
// CHECK:               %[[UPD:.+]] = scf.for %[[I:[a-z0-9]+]] = {{.*}} iter_args(%[[SI:.+]] = %[[ST]])
// CHECK:                 %[[KI:.+]] = tensor.extract %[[K]][%[[BI]], %[[T]], %[[H]], %[[I]]]
// CHECK:                 %[[BK:.+]] = arith.mulf %[[B]], %[[KI]] : f32
// CHECK:                 %[[PREV:.+]] = tensor.extract %[[SI]][%[[BI]], %[[H]], %[[I]], %[[J]]]
// CHECK:                 %[[BKS:.+]] = arith.mulf %[[BK]], %[[KS]] : f32
// CHECK:                 %[[DIFF:.+]] = arith.subf %[[PREV]], %[[BKS]] : f32
// CHECK:                 %[[KEPT:.+]] = arith.mulf %[[A]], %[[DIFF]] : f32
// CHECK:                 %[[IN:.+]] = arith.mulf %[[BK]], %[[VJ]] : f32
// CHECK:                 %[[NEXT:.+]] = arith.addf %[[KEPT]], %[[IN]] : f32
// CHECK:                 tensor.insert %[[NEXT]] into %[[SI]][%[[BI]], %[[H]], %[[I]], %[[J]]]
// CHECK:               %[[SUM:.+]] = scf.for %[[I2:[a-z0-9]+]] = {{.*}} -> (f32)
// CHECK-DAG:             tensor.extract %[[UPD]][%[[BI]], %[[H]], %[[I2]], %[[J]]]
// CHECK-DAG:             tensor.extract %[[Q]][%[[BI]], %[[T]], %[[H]], %[[I2]]]
// CHECK:               %[[OV:.+]] = arith.mulf %[[SUM]], %[[SCALE]] : f32
// CHECK:               %[[ON:.+]] = tensor.insert %[[OV]] into %[[OT]][%[[BI]], %[[T]], %[[H]], %[[J]]]
// CHECK:               scf.yield %[[ON]], %[[UPD]]
// CHECK-NOT:   mixer.gated_delta_rule
// CHECK:       return %[[RES]]#0, %[[RES]]#1
func.func @gdr(%q: tensor<1x10x2x16xf32>, %k: tensor<1x10x2x16xf32>, %v: tensor<1x10x2x8xf32>,
               %g: tensor<1x10x2xf32>, %beta: tensor<1x10x2xf32>, %init: tensor<1x2x16x8xf32>,
               %o0: tensor<1x10x2x8xf32>, %s0: tensor<1x2x16x8xf32>)
    -> (tensor<1x10x2x8xf32>, tensor<1x2x16x8xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(64) scale(0.5)
      ins(%q, %k, %v, %g, %beta : tensor<1x10x2x16xf32>, tensor<1x10x2x16xf32>, tensor<1x10x2x8xf32>, tensor<1x10x2xf32>, tensor<1x10x2xf32>)
      init(%init : tensor<1x2x16x8xf32>)
      outs(%o0, %s0 : tensor<1x10x2x8xf32>, tensor<1x2x16x8xf32>)
      -> tensor<1x10x2x8xf32>, tensor<1x2x16x8xf32>
  return %o, %s : tensor<1x10x2x8xf32>, tensor<1x2x16x8xf32>
}

// -----

// No init, dynamic B and L: the column starts from zeros.

// CHECK-LABEL: func.func @gdr_plain
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               scf.for {{.*}} iter_args(%[[SF:.+]] = %{{.+}})
// CHECK-NEXT:            tensor.insert %[[ZERO]] into %[[SF]]
// CHECK:               scf.for
// CHECK:                 math.exp
// CHECK-NOT:   mixer.gated_delta_rule
// CHECK:       return
func.func @gdr_plain(%q: tensor<?x?x1x4xf32>, %k: tensor<?x?x1x4xf32>, %v: tensor<?x?x1x4xf32>,
                     %g: tensor<?x?x1xf32>, %beta: tensor<?x?x1xf32>,
                     %o0: tensor<?x?x1x4xf32>, %s0: tensor<?x1x4x4xf32>)
    -> (tensor<?x?x1x4xf32>, tensor<?x1x4x4xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(8)
      ins(%q, %k, %v, %g, %beta : tensor<?x?x1x4xf32>, tensor<?x?x1x4xf32>, tensor<?x?x1x4xf32>, tensor<?x?x1xf32>, tensor<?x?x1xf32>)
      outs(%o0, %s0 : tensor<?x?x1x4xf32>, tensor<?x1x4x4xf32>)
      -> tensor<?x?x1x4xf32>, tensor<?x1x4x4xf32>
  return %o, %s : tensor<?x?x1x4xf32>, tensor<?x1x4x4xf32>
}
