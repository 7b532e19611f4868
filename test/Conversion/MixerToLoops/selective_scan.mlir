// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s

// Every optional operand: loops b, d outside (channel d reads group
// d / (D / G) = d / 2), h[b,d,:] copied from init, then t: dt =
// softplus(delta + bias), the n loop updating the state and accumulating
// y, then the D_skip term and the silu(z) gate.

// CHECK-LABEL: func.func @ss_all
// CHECK-SAME:    %[[U:[a-z0-9]+]]: tensor<1x5x4xf32>, %[[DT:[a-z0-9]+]]: tensor<1x5x4xf32>, %[[A:[a-z0-9]+]]: tensor<4x3xf32>,
// CHECK-SAME:    %[[B:[a-z0-9]+]]: tensor<1x5x2x3xf32>, %[[C:[a-z0-9]+]]: tensor<1x5x2x3xf32>, %[[DS:[a-z0-9]+]]: tensor<4xf32>,
// CHECK-SAME:    %[[Z:[a-z0-9]+]]: tensor<1x5x4xf32>, %[[DB:[a-z0-9]+]]: tensor<4xf32>, %[[H:[a-z0-9]+]]: tensor<1x4x3xf32>,
// CHECK-SAME:    %[[Y0:[a-z0-9]+]]: tensor<1x5x4xf32>, %[[S0:[a-z0-9]+]]: tensor<1x4x3xf32>
// CHECK-DAG:   %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:   %[[TWENTY:.+]] = arith.constant 2.000000e+01 : f32
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C5:.+]] = arith.constant 5 : index
// CHECK:       %[[RES:.+]]:2 = scf.for %[[BI:[a-z0-9]+]] = {{.*}} iter_args(%{{.+}} = %[[Y0]], %{{.+}} = %[[S0]])
// CHECK:         scf.for %[[D:[a-z0-9]+]] = %{{.+}} to %[[C4]] {{.*}} iter_args(%[[YD:[a-z0-9_]+]] = %{{.+}}, %[[SD:[a-z0-9_]+]] = %{{.+}})
// CHECK:           %[[G:.+]] = arith.divui %[[D]], %[[C2]] : index
// CHECK:           %[[S1:.+]] = scf.for %[[N0:[a-z0-9]+]] = %{{.+}} to %[[C3]] {{.*}} iter_args(%[[SF:.+]] = %[[SD]])
// CHECK:             %[[IV:.+]] = tensor.extract %[[H]][%[[BI]], %[[D]], %[[N0]]]
// CHECK:             tensor.insert %[[IV]] into %[[SF]][%[[BI]], %[[D]], %[[N0]]]
// CHECK:           scf.for %[[T:[a-z0-9]+]] = %{{.+}} to %[[C5]] {{.*}} iter_args(%[[YT:[a-z0-9_]+]] = %[[YD]], %[[ST:[a-z0-9_]+]] = %[[S1]])
// CHECK-DAG:         %[[UV:.+]] = tensor.extract %[[U]][%[[BI]], %[[T]], %[[D]]]
// CHECK-DAG:         %[[DV:.+]] = tensor.extract %[[DT]][%[[BI]], %[[T]], %[[D]]]
// CHECK-DAG:         %[[BV:.+]] = tensor.extract %[[DB]][%[[D]]]
// CHECK:             %[[X:.+]] = arith.addf %[[DV]], %[[BV]] : f32
// CHECK:             %[[BIG:.+]] = arith.cmpf ogt, %[[X]], %[[TWENTY]] : f32
// CHECK:             %[[EX:.+]] = math.exp %[[X]] : f32
// CHECK:             %[[SP:.+]] = math.log1p %[[EX]] : f32
// CHECK:             %[[STEP:.+]] = arith.select %[[BIG]], %[[X]], %[[SP]] : f32
// CHECK:             %[[DU:.+]] = arith.mulf %[[STEP]], %[[UV]] : f32
// CHECK:             %[[UPD:.+]]:2 = scf.for %[[N:[a-z0-9]+]] = %{{.+}} to %[[C3]] {{.*}} iter_args(%[[SN:[a-z0-9_]+]] = %[[ST]], %[[ACC:[a-z0-9_]+]] = %[[ZERO]])
// CHECK:               %[[PREV:.+]] = tensor.extract %[[SN]][%[[BI]], %[[D]], %[[N]]]
// CHECK:               %[[AV:.+]] = tensor.extract %[[A]][%[[D]], %[[N]]]
// CHECK:               %[[DA:.+]] = arith.mulf %[[STEP]], %[[AV]] : f32
// CHECK:               %[[DEC:.+]] = math.exp %[[DA]] : f32
// CHECK-DAG:           %[[BN:.+]] = tensor.extract %[[B]][%[[BI]], %[[T]], %[[G]], %[[N]]]
// CHECK-DAG:           %[[CN:.+]] = tensor.extract %[[C]][%[[BI]], %[[T]], %[[G]], %[[N]]]
// CHECK-DAG:           %[[KEPT:.+]] = arith.mulf %[[DEC]], %[[PREV]] : f32
// CHECK-DAG:           %[[IN:.+]] = arith.mulf %[[DU]], %[[BN]] : f32
// CHECK:               %[[NEXT:.+]] = arith.addf %[[KEPT]], %[[IN]] : f32
// CHECK:               %[[SNEW:.+]] = tensor.insert %[[NEXT]] into %[[SN]][%[[BI]], %[[D]], %[[N]]]
// CHECK:               %[[YC:.+]] = arith.mulf %[[NEXT]], %[[CN]] : f32
// CHECK:               %[[ACCN:.+]] = arith.addf %[[ACC]], %[[YC]] : f32
// CHECK:               scf.yield %[[SNEW]], %[[ACCN]]
// CHECK:             %[[SKIP:.+]] = tensor.extract %[[DS]][%[[D]]]
// CHECK:             %[[SU:.+]] = arith.mulf %[[SKIP]], %[[UV]] : f32
// CHECK:             %[[Y1:.+]] = arith.addf %[[UPD]]#1, %[[SU]] : f32
// CHECK:             %[[ZV:.+]] = tensor.extract %[[Z]][%[[BI]], %[[T]], %[[D]]]
// CHECK:             %[[NZ:.+]] = arith.negf %[[ZV]] : f32
// CHECK:             %[[EZ:.+]] = math.exp %[[NZ]] : f32
// CHECK:             %[[DEN:.+]] = arith.addf %[[EZ]], %[[ONE]] : f32
// CHECK:             %[[SILU:.+]] = arith.divf %[[ZV]], %[[DEN]] : f32
// CHECK:             %[[Y2:.+]] = arith.mulf %[[Y1]], %[[SILU]] : f32
// CHECK:             %[[YN:.+]] = tensor.insert %[[Y2]] into %[[YT]][%[[BI]], %[[T]], %[[D]]]
// CHECK:             scf.yield %[[YN]], %[[UPD]]#0
// CHECK-NOT:   mixer.selective_scan
// CHECK:       return %[[RES]]#0, %[[RES]]#1
func.func @ss_all(%u: tensor<1x5x4xf32>, %dt: tensor<1x5x4xf32>, %A: tensor<4x3xf32>, %b: tensor<1x5x2x3xf32>, %c: tensor<1x5x2x3xf32>,
  %d: tensor<4xf32>, %z: tensor<1x5x4xf32>, %db: tensor<4xf32>, %h: tensor<1x4x3xf32>,
  %y0: tensor<1x5x4xf32>, %s0: tensor<1x4x3xf32>) -> (tensor<1x5x4xf32>, tensor<1x4x3xf32>) {
  %y, %s = mixer.selective_scan delta_softplus
      ins(%u, %dt, %A, %b, %c : tensor<1x5x4xf32>, tensor<1x5x4xf32>, tensor<4x3xf32>, tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>)
      D_skip(%d : tensor<4xf32>) z(%z : tensor<1x5x4xf32>) delta_bias(%db : tensor<4xf32>) init(%h : tensor<1x4x3xf32>)
      outs(%y0, %s0 : tensor<1x5x4xf32>, tensor<1x4x3xf32>) -> tensor<1x5x4xf32>, tensor<1x4x3xf32>
  return %y, %s : tensor<1x5x4xf32>, tensor<1x4x3xf32>
}

// -----

// No optional operand, dynamic B and L: dt is delta itself, the state starts
// from zeros, y is the sum alone.

// CHECK-LABEL: func.func @ss_plain
// CHECK-SAME:    %[[U:[a-z0-9]+]]: tensor<?x?x4xf32>, %[[DT:[a-z0-9]+]]: tensor<?x?x4xf32>
// CHECK-NOT:     math.log1p
// CHECK-NOT:     arith.divf
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for {{.*}} iter_args(%[[SF:.+]] = %{{.+}})
// CHECK:               tensor.insert %{{.+}} into %[[SF]]
// CHECK:             scf.for
// CHECK:               %[[UV:.+]] = tensor.extract %[[U]]{{.+}} : tensor<?x?x4xf32>
// CHECK:               %[[DV:.+]] = tensor.extract %[[DT]]{{.+}} : tensor<?x?x4xf32>
// CHECK:               arith.mulf %[[DV]], %[[UV]] : f32
// CHECK:               %[[UPD:.+]]:2 = scf.for
// CHECK:                 arith.mulf %[[DV]], %{{.+}} : f32
// CHECK:                 math.exp
// CHECK:               tensor.insert %[[UPD]]#1 into
// CHECK-NOT:   mixer.selective_scan
// CHECK:       return
func.func @ss_plain(%u: tensor<?x?x4xf32>, %dt: tensor<?x?x4xf32>, %A: tensor<4x3xf32>, %b: tensor<?x?x1x3xf32>, %c: tensor<?x?x1x3xf32>,
  %y0: tensor<?x?x4xf32>, %s0: tensor<?x4x3xf32>) -> (tensor<?x?x4xf32>, tensor<?x4x3xf32>) {
  %y, %s = mixer.selective_scan
      ins(%u, %dt, %A, %b, %c : tensor<?x?x4xf32>, tensor<?x?x4xf32>, tensor<4x3xf32>, tensor<?x?x1x3xf32>, tensor<?x?x1x3xf32>)
      outs(%y0, %s0 : tensor<?x?x4xf32>, tensor<?x4x3xf32>) -> tensor<?x?x4xf32>, tensor<?x4x3xf32>
  return %y, %s : tensor<?x?x4xf32>, tensor<?x4x3xf32>
}
