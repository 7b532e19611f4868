// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s

// Window 0, no decay, no init: loops b, h, j (a column of the state) outside,
// the zero fill of S[b,h,:,j], then t with the i loop updating the column,
// and o[b,t,h,j] = scale * sum_i S[b,h,i,j] q[b,t,h,i].

// CHECK-LABEL: func.func @la_plain
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x5x2x3xf32>, %[[K:[a-z0-9]+]]: tensor<2x5x2x3xf32>,
// CHECK-SAME:    %[[V:[a-z0-9]+]]: tensor<2x5x2x4xf32>,
// CHECK-SAME:    %[[O0:[a-z0-9]+]]: tensor<2x5x2x4xf32>, %[[S0:[a-z0-9]+]]: tensor<2x2x3x4xf32>
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[SCALE:.+]] = arith.constant 2.500000e-01 : f32
// CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C5:.+]] = arith.constant 5 : index
// CHECK:       %[[RES:.+]]:2 = scf.for %[[BI:[a-z0-9]+]] = %{{.+}} iter_args(%{{.+}} = %[[O0]], %{{.+}} = %[[S0]])
// CHECK:         scf.for %[[H:[a-z0-9]+]] = %{{.+}}
// CHECK:           scf.for %[[J:[a-z0-9]+]] = %{{.+}} to %[[C4]] {{.*}} iter_args(%[[OJ:.+]] = %{{.+}}, %[[SJ:.+]] = %{{.+}})
// CHECK:             %[[FILLED:.+]] = scf.for %[[I0:[a-z0-9]+]] = %{{.+}} to %[[C3]] {{.*}} iter_args(%[[SF:.+]] = %[[SJ]])
// CHECK:               tensor.insert %[[ZERO]] into %[[SF]][%[[BI]], %[[H]], %[[I0]], %[[J]]]
// CHECK:             scf.for %[[T:[a-z0-9]+]] = %{{.+}} to %[[C5]] {{.*}} iter_args(%[[OT:.+]] = %[[OJ]], %[[ST:.+]] = %[[FILLED]])
// CHECK-NOT:           math.exp
// CHECK:               %[[VJ:.+]] = tensor.extract %[[V]][%[[BI]], %[[T]], %[[H]], %[[J]]]
// CHECK:               %[[UPD:.+]] = scf.for %[[I:[a-z0-9]+]] = %{{.+}} to %[[C3]] {{.*}} iter_args(%[[SI:.+]] = %[[ST]])
// CHECK-DAG:             %[[PREV:.+]] = tensor.extract %[[SI]][%[[BI]], %[[H]], %[[I]], %[[J]]]
// CHECK-DAG:             %[[KI:.+]] = tensor.extract %[[K]][%[[BI]], %[[T]], %[[H]], %[[I]]]
// CHECK:                 %[[KV:.+]] = arith.mulf %[[KI]], %[[VJ]] : f32
// CHECK:                 %[[NEXT:.+]] = arith.addf %[[PREV]], %[[KV]] : f32
// CHECK:                 tensor.insert %[[NEXT]] into %[[SI]][%[[BI]], %[[H]], %[[I]], %[[J]]]
// CHECK:               %[[SUM:.+]] = scf.for %[[I2:[a-z0-9]+]] = %{{.+}} to %[[C3]] {{.*}} iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (f32)
// CHECK-DAG:             tensor.extract %[[UPD]][%[[BI]], %[[H]], %[[I2]], %[[J]]]
// CHECK-DAG:             tensor.extract %[[Q]][%[[BI]], %[[T]], %[[H]], %[[I2]]]
// CHECK:               %[[OV:.+]] = arith.mulf %[[SUM]], %[[SCALE]] : f32
// CHECK:               %[[ONEW:.+]] = tensor.insert %[[OV]] into %[[OT]][%[[BI]], %[[T]], %[[H]], %[[J]]]
// CHECK:               scf.yield %[[ONEW]], %[[UPD]]
// CHECK-NOT:   mixer.linear_attention
// CHECK:       return %[[RES]]#0, %[[RES]]#1
func.func @la_plain(%q: tensor<2x5x2x3xf32>, %k: tensor<2x5x2x3xf32>, %v: tensor<2x5x2x4xf32>,
                    %o0: tensor<2x5x2x4xf32>, %s0: tensor<2x2x3x4xf32>)
    -> (tensor<2x5x2x4xf32>, tensor<2x2x3x4xf32>) {
  %o, %s = mixer.linear_attention chunk_size(64) scale(0.25)
      ins(%q, %k, %v : tensor<2x5x2x3xf32>, tensor<2x5x2x3xf32>, tensor<2x5x2x4xf32>)
      outs(%o0, %s0 : tensor<2x5x2x4xf32>, tensor<2x2x3x4xf32>)
      -> tensor<2x5x2x4xf32>, tensor<2x2x3x4xf32>
  return %o, %s : tensor<2x5x2x4xf32>, tensor<2x2x3x4xf32>
}

// -----

// Window 2, decay and init: the column and a lagged copy start from init;
// once t >= 3 the lagged column takes token t - 3, and the output reads it.

// CHECK-LABEL: func.func @la_window
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<1x6x2x3xf32>, %[[K:[a-z0-9]+]]: tensor<1x6x2x3xf32>,
// CHECK-SAME:    %[[V:[a-z0-9]+]]: tensor<1x6x2x4xf32>, %[[LD:[a-z0-9]+]]: tensor<1x6x2xf32>,
// CHECK-SAME:    %[[INIT:[a-z0-9]+]]: tensor<1x2x3x4xf32>
// CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : index
// CHECK:       scf.for %[[BI:[a-z0-9]+]] =
// CHECK:         scf.for %[[H:[a-z0-9]+]] =
// CHECK:           scf.for %[[J:[a-z0-9]+]] =
// CHECK:             %[[LAG0:.+]] = tensor.empty(%[[C3]]) : tensor<?xf32>
// CHECK:             %[[START:.+]]:2 = scf.for %[[I0:[a-z0-9]+]] = {{.*}} iter_args(%[[SF:.+]] = %{{.+}}, %[[LF:.+]] = %[[LAG0]])
// CHECK:               %[[IV:.+]] = tensor.extract %[[INIT]][%[[BI]], %[[H]], %[[I0]], %[[J]]]
// CHECK:               tensor.insert %[[IV]] into %[[SF]][%[[BI]], %[[H]], %[[I0]], %[[J]]]
// CHECK:               tensor.insert %[[IV]] into %[[LF]][%[[I0]]]
// CHECK:             scf.for %[[T:[a-z0-9]+]] = {{.*}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %[[START]]#0, %[[LAG:.+]] = %[[START]]#1)
// CHECK:               %[[A:.+]] = tensor.extract %[[LD]][%[[BI]], %[[T]], %[[H]]]
// CHECK:               math.exp %[[A]] : f32
// CHECK:               %[[SEEN:.+]] = arith.cmpi uge, %[[T]], %[[C3]] : index
// CHECK:               %[[NLAG:.+]] = scf.if %[[SEEN]] -> (tensor<?xf32>)
// CHECK:                 %[[TL:.+]] = arith.subi %[[T]], %[[C3]] : index
// CHECK:                 tensor.extract %[[LD]][%[[BI]], %[[TL]], %[[H]]]
// CHECK:                 scf.for {{.*}} iter_args(%{{.+}} = %[[LAG]])
// CHECK:                   tensor.extract %[[K]][%[[BI]], %[[TL]], %[[H]], %{{.+}}]
// CHECK:               } else {
// CHECK:                 scf.yield %[[LAG]] : tensor<?xf32>
// CHECK:               scf.for
// CHECK:                 tensor.extract %[[NLAG]][%{{.+}}] : tensor<?xf32>
// CHECK:                 tensor.extract %[[Q]][%[[BI]], %[[T]], %[[H]], %{{.+}}]
// CHECK-NOT:   mixer.linear_attention
// CHECK:       return
func.func @la_window(%q: tensor<1x6x2x3xf32>, %k: tensor<1x6x2x3xf32>, %v: tensor<1x6x2x4xf32>,
                     %ld: tensor<1x6x2xf32>, %init: tensor<1x2x3x4xf32>,
                     %o0: tensor<1x6x2x4xf32>, %s0: tensor<1x2x3x4xf32>)
    -> (tensor<1x6x2x4xf32>, tensor<1x2x3x4xf32>) {
  %o, %s = mixer.linear_attention chunk_size(4) window(2) scale(0.5)
      ins(%q, %k, %v : tensor<1x6x2x3xf32>, tensor<1x6x2x3xf32>, tensor<1x6x2x4xf32>)
      log_decay(%ld : tensor<1x6x2xf32>) init(%init : tensor<1x2x3x4xf32>)
      outs(%o0, %s0 : tensor<1x6x2x4xf32>, tensor<1x2x3x4xf32>)
      -> tensor<1x6x2x4xf32>, tensor<1x2x3x4xf32>
  return %o, %s : tensor<1x6x2x4xf32>, tensor<1x2x3x4xf32>
}
