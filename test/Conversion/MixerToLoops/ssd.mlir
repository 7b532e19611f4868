// RUN: mixer-opt %s --convert-mixer-to-loops --split-input-file | FileCheck %s

// Static shapes, no init: the state starts from zeros. Loops b, h, p outside,
// the zero fill of S[b,h,p,:], then t with the n loop that updates the state
// and accumulates y.

// CHECK-LABEL: func.func @ssd_static
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x5x4x8xf32>, %[[LA:[a-z0-9]+]]: tensor<2x5x4xf32>,
// CHECK-SAME:    %[[B:[a-z0-9]+]]: tensor<2x5x2x16xf32>, %[[C:[a-z0-9]+]]: tensor<2x5x2x16xf32>,
// CHECK-SAME:    %[[Y0:[a-z0-9]+]]: tensor<2x5x4x8xf32>, %[[S0:[a-z0-9]+]]: tensor<2x4x8x16xf32>
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG:   %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
// CHECK:       %[[RES:.+]]:2 = scf.for %[[BI:.+]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[YB:.+]] = %[[Y0]], %[[SB:.+]] = %[[S0]])
// CHECK:         scf.for %[[H:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[YH:.+]] = %[[YB]], %[[SH:.+]] = %[[SB]])
// CHECK:           scf.for %[[P:.+]] = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[YP:.+]] = %[[YH]], %[[SP:.+]] = %[[SH]])
// CHECK:             %[[G:.+]] = arith.divui %[[H]], %[[C2]] : index
// CHECK:             %[[FILLED:.+]] = scf.for %[[N0:.+]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[SF:.+]] = %[[SP]])
// CHECK:               %[[Z:.+]] = tensor.insert %[[ZERO]] into %[[SF]][%[[BI]], %[[H]], %[[P]], %[[N0]]]
// CHECK:               scf.yield %[[Z]]
// CHECK:             scf.for %[[T:.+]] = %[[C0]] to %[[C5]] step %[[C1]] iter_args(%[[YT:.+]] = %[[YP]], %[[ST:.+]] = %[[FILLED]])
// CHECK:               %[[LAV:.+]] = tensor.extract %[[LA]][%[[BI]], %[[T]], %[[H]]]
// CHECK:               %[[DECAY:.+]] = math.exp %[[LAV]] : f32
// CHECK:               %[[XV:.+]] = tensor.extract %[[X]][%[[BI]], %[[T]], %[[H]], %[[P]]]
// CHECK:               %[[UPD:.+]]:2 = scf.for %[[N:.+]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[SN:.+]] = %[[ST]], %[[ACC:.+]] = %[[ZERO]])
// CHECK-DAG:             %[[PREV:.+]] = tensor.extract %[[SN]][%[[BI]], %[[H]], %[[P]], %[[N]]]
// CHECK-DAG:             %[[BV:.+]] = tensor.extract %[[B]][%[[BI]], %[[T]], %[[G]], %[[N]]]
// CHECK-DAG:             %[[CV:.+]] = tensor.extract %[[C]][%[[BI]], %[[T]], %[[G]], %[[N]]]
// CHECK-DAG:             %[[DS:.+]] = arith.mulf %[[DECAY]], %[[PREV]] : f32
// CHECK-DAG:             %[[XB:.+]] = arith.mulf %[[XV]], %[[BV]] : f32
// CHECK:                 %[[NEXT:.+]] = arith.addf %[[DS]], %[[XB]] : f32
// CHECK:                 %[[SNEW:.+]] = tensor.insert %[[NEXT]] into %[[SN]][%[[BI]], %[[H]], %[[P]], %[[N]]]
// CHECK:                 %[[SC:.+]] = arith.mulf %[[NEXT]], %[[CV]] : f32
// CHECK:                 %[[ACCNEW:.+]] = arith.addf %[[ACC]], %[[SC]] : f32
// CHECK:                 scf.yield %[[SNEW]], %[[ACCNEW]]
// CHECK:               %[[YNEW:.+]] = tensor.insert %[[UPD]]#1 into %[[YT]][%[[BI]], %[[T]], %[[H]], %[[P]]]
// CHECK:               scf.yield %[[YNEW]], %[[UPD]]#0
// CHECK-NOT:   mixer.ssd
// CHECK:       return %[[RES]]#0, %[[RES]]#1
func.func @ssd_static(%x: tensor<2x5x4x8xf32>, %log_a: tensor<2x5x4xf32>,
                      %b: tensor<2x5x2x16xf32>, %c: tensor<2x5x2x16xf32>,
                      %y0: tensor<2x5x4x8xf32>, %s0: tensor<2x4x8x16xf32>)
    -> (tensor<2x5x4x8xf32>, tensor<2x4x8x16xf32>) {
  %y, %s = mixer.ssd chunk_size(64)
      ins(%x, %log_a, %b, %c : tensor<2x5x4x8xf32>, tensor<2x5x4xf32>,
                               tensor<2x5x2x16xf32>, tensor<2x5x2x16xf32>)
      outs(%y0, %s0 : tensor<2x5x4x8xf32>, tensor<2x4x8x16xf32>)
      -> tensor<2x5x4x8xf32>, tensor<2x4x8x16xf32>
  return %y, %s : tensor<2x5x4x8xf32>, tensor<2x4x8x16xf32>
}

// -----

// With init: the state row starts as a copy of init[b,h,p,:].

// CHECK-LABEL: func.func @ssd_init
// CHECK-SAME:    %[[INIT:[a-z0-9]+]]: tensor<1x2x3x4xf32>
// CHECK:         scf.for %[[BI:[a-z0-9]+]] =
// CHECK:           scf.for %[[H:[a-z0-9]+]] =
// CHECK:             scf.for %[[P:[a-z0-9]+]] =
// CHECK:               scf.for %[[N:[a-z0-9]+]] = {{.*}} iter_args(%[[SF:.+]] = %{{.+}})
// CHECK:                 %[[V:.+]] = tensor.extract %[[INIT]][%[[BI]], %[[H]], %[[P]], %[[N]]]
// CHECK:                 tensor.insert %[[V]] into %[[SF]][%[[BI]], %[[H]], %[[P]], %[[N]]]
// CHECK:               scf.for
// CHECK:                 math.exp
// CHECK:                 scf.for
// CHECK-NOT:   mixer.ssd
// CHECK:       return
func.func @ssd_init(%x: tensor<1x6x2x3xf32>, %log_a: tensor<1x6x2xf32>,
                    %b: tensor<1x6x1x4xf32>, %c: tensor<1x6x1x4xf32>,
                    %init: tensor<1x2x3x4xf32>,
                    %y0: tensor<1x6x2x3xf32>, %s0: tensor<1x2x3x4xf32>)
    -> (tensor<1x6x2x3xf32>, tensor<1x2x3x4xf32>) {
  %y, %s = mixer.ssd chunk_size(4)
      ins(%x, %log_a, %b, %c : tensor<1x6x2x3xf32>, tensor<1x6x2xf32>,
                               tensor<1x6x1x4xf32>, tensor<1x6x1x4xf32>)
      init(%init : tensor<1x2x3x4xf32>)
      outs(%y0, %s0 : tensor<1x6x2x3xf32>, tensor<1x2x3x4xf32>)
      -> tensor<1x6x2x3xf32>, tensor<1x2x3x4xf32>
  return %y, %s : tensor<1x6x2x3xf32>, tensor<1x2x3x4xf32>
}

// -----

// Dynamic B and L (and N): the loop bounds are tensor.dim of the operands.
// One group serves all four heads: g = h / 4.

// CHECK-LABEL: func.func @ssd_dynamic
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x?x4x8xf32>, %{{.+}}: tensor<?x?x4xf32>, %[[B:[a-z0-9]+]]: tensor<?x?x1x?xf32>
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[BATCH:.+]] = tensor.dim %[[X]], %[[C0]] : tensor<?x?x4x8xf32>
// CHECK-DAG:     %[[LEN:.+]] = tensor.dim %[[X]], %[[C1]] : tensor<?x?x4x8xf32>
// CHECK-DAG:     %[[N:.+]] = tensor.dim %[[B]], %[[C3]] : tensor<?x?x1x?xf32>
// CHECK:         scf.for %{{.+}} = %[[C0]] to %[[BATCH]] step %[[C1]]
// CHECK:           scf.for %[[H:[a-z0-9]+]] = %[[C0]] to %[[C4]]
// CHECK:             scf.for
// CHECK:               arith.divui %[[H]], %[[C4]] : index
// CHECK:               scf.for %{{.+}} = %[[C0]] to %[[N]] step %[[C1]]
// CHECK:               scf.for %{{.+}} = %[[C0]] to %[[LEN]] step %[[C1]]
// CHECK:                 math.exp
// CHECK:                 scf.for %{{.+}} = %[[C0]] to %[[N]] step %[[C1]]
// CHECK-NOT:   mixer.ssd
// CHECK:       return
func.func @ssd_dynamic(%x: tensor<?x?x4x8xf32>, %log_a: tensor<?x?x4xf32>,
                       %b: tensor<?x?x1x?xf32>, %c: tensor<?x?x1x?xf32>,
                       %init: tensor<?x4x8x?xf32>,
                       %y0: tensor<?x?x4x8xf32>, %s0: tensor<?x4x8x?xf32>)
    -> (tensor<?x?x4x8xf32>, tensor<?x4x8x?xf32>) {
  %y, %s = mixer.ssd chunk_size(64)
      ins(%x, %log_a, %b, %c : tensor<?x?x4x8xf32>, tensor<?x?x4xf32>,
                               tensor<?x?x1x?xf32>, tensor<?x?x1x?xf32>)
      init(%init : tensor<?x4x8x?xf32>)
      outs(%y0, %s0 : tensor<?x?x4x8xf32>, tensor<?x4x8x?xf32>)
      -> tensor<?x?x4x8xf32>, tensor<?x4x8x?xf32>
  return %y, %s : tensor<?x?x4x8xf32>, tensor<?x4x8x?xf32>
}
