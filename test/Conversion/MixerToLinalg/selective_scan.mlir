// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s

// D = 64 channels in G = 2 groups: blocks of 32 channels (one group each).
// Per (batch, block): the state hT [N, Db] starts as init transposed; blocks
// of 16 tokens (100 / 16 = 6) compute dt = softplus(delta + bias) and dt * u
// over [16, Db], then run the tokens one by one (state update in place, the
// output row as a [1, N] x [N, Db] contraction), and apply D_skip and the
// silu(z) gate to the whole block before writing it once; the 4 tail tokens
// are blocks of one.

// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @ss_all
// CHECK-SAME:    (%[[U:[^:]*]]: tensor<2x100x64xf32>, %[[DT:[^:]*]]: tensor<2x100x64xf32>, %[[A:[^:]*]]: tensor<64x16xf32>, %[[B:[^:]*]]: tensor<2x100x2x16xf32>, %[[C:[^:]*]]: tensor<2x100x2x16xf32>, %[[DS:[^:]*]]: tensor<64xf32>, %[[Z:[^:]*]]: tensor<2x100x64xf32>, %[[DB:[^:]*]]: tensor<64xf32>, %[[H:[^:]*]]: tensor<2x64x16xf32>, %[[Y0:[^:]*]]: tensor<2x100x64xf32>, %[[S0:[^:]*]]: tensor<2x64x16xf32>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[TWENTY:.*]] = arith.constant 2.000000e+01 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[C100:.*]] = arith.constant 100 : index
// CHECK:         scf.for %[[BI:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args
// CHECK:           scf.for %[[BLK:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %[[SD:.*]] = %{{.*}})
// CHECK:             %[[D0:.*]] = arith.muli %[[BLK]], %[[C32]] : index
// CHECK:             %[[AS:.*]] = tensor.extract_slice %[[A]][%[[D0]], 0] [32, 16] [1, 1] : tensor<64x16xf32> to tensor<32x16xf32>
// CHECK:             %[[AT:.*]] = linalg.transpose ins(%[[AS]] : tensor<32x16xf32>)
// CHECK-DAG:         %[[BIAS:.*]] = tensor.extract_slice %[[DB]][%[[D0]]] [32] [1]
// CHECK-DAG:         %[[SKIP:.*]] = tensor.extract_slice %[[DS]][%[[D0]]] [32] [1]
// CHECK-DAG:         %[[G:.*]] = arith.divui %[[D0]], %[[C32]] : index
// CHECK:             %[[HS:.*]] = tensor.extract_slice %[[H]][%[[BI]], %[[D0]], 0] [1, 32, 16] [1, 1, 1] : tensor<2x64x16xf32> to tensor<32x16xf32>
// CHECK:             %[[HT:.*]] = linalg.transpose ins(%[[HS]] : tensor<32x16xf32>)
// CHECK:             %[[FULL:.*]]:2 = scf.for %[[TB:.*]] = %[[C0]] to %[[C6]] step %[[C1]] iter_args(%[[YB:.*]] = %{{.*}}, %[[HB:.*]] = %[[HT]]) -> (tensor<2x100x64xf32>, tensor<16x32xf32>)
// CHECK:               %[[T0:.*]] = arith.muli %[[TB]], %[[C16]] : index
// CHECK:               %[[UB:.*]] = tensor.extract_slice %[[U]][%[[BI]], %[[T0]], %[[D0]]] [1, 16, 32] [1, 1, 1] : tensor<2x100x64xf32> to tensor<16x32xf32>
// CHECK:               %[[DTB:.*]] = tensor.extract_slice %[[DT]][%[[BI]], %[[T0]], %[[D0]]] [1, 16, 32]
// dt = softplus(delta + bias): log1p(exp(x)), x above 20.
// CHECK:               %[[STEP:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COL]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[DTB]], %[[BIAS]] : tensor<16x32xf32>, tensor<32xf32>)
// CHECK-NEXT:          ^bb0(%[[X0:.*]]: f32, %[[X1:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:            %[[X:.*]] = arith.addf %[[X0]], %[[X1]] : f32
// CHECK-NEXT:            %[[BIG:.*]] = arith.cmpf ogt, %[[X]], %[[TWENTY]] : f32
// CHECK-NEXT:            %[[XC:.*]] = arith.minimumf %[[X]], %[[TWENTY]] : f32
// CHECK-NEXT:            %[[EX:.*]] = math.exp %[[XC]] : f32
// CHECK-NEXT:            %[[SP:.*]] = math.log1p %[[EX]] : f32
// CHECK-NEXT:            %[[SEL:.*]] = arith.select %[[BIG]], %[[X]], %[[SP]] : f32
// CHECK-NEXT:            linalg.yield %[[SEL]] : f32
// CHECK:               %[[DU:.*]] = linalg.generic {{.*}} ins(%[[STEP]], %[[UB]] : tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK:               %[[BC:.*]] = tensor.extract_slice %[[B]][%[[BI]], %[[T0]], %[[G]], 0] [1, 16, 1, 16] [1, 1, 1, 1] : tensor<2x100x2x16xf32> to tensor<16x16xf32>
// CHECK:               %[[CC:.*]] = tensor.extract_slice %[[C]][%[[BI]], %[[T0]], %[[G]], 0] [1, 16, 1, 16] [1, 1, 1, 1] : tensor<2x100x2x16xf32> to tensor<16x16xf32>
// CHECK:               %[[YA:.*]] = bufferization.alloc_tensor() : tensor<16x32xf32>
// CHECK:               %[[YZ:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[YA]] : tensor<16x32xf32>)
// CHECK:               %[[TOK:.*]]:2 = scf.for %[[I:.*]] = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[YI:.*]] = %[[YZ]], %[[HI:.*]] = %[[HB]])
// CHECK-DAG:             %[[DTI:.*]] = tensor.extract_slice %[[STEP]][%[[I]], 0] [1, 32] [1, 1] : tensor<16x32xf32> to tensor<32xf32>
// CHECK-DAG:             %[[DUI:.*]] = tensor.extract_slice %[[DU]][%[[I]], 0] [1, 32] [1, 1] : tensor<16x32xf32> to tensor<32xf32>
// CHECK-DAG:             %[[BR:.*]] = tensor.extract_slice %[[BC]][%[[I]], 0] [1, 16] [1, 1] : tensor<16x16xf32> to tensor<16xf32>
// CHECK-DAG:             %[[CR:.*]] = tensor.extract_slice %[[CC]][%[[I]], 0] [1, 16] [1, 1] : tensor<16x16xf32> to tensor<1x16xf32>
// hT = exp(A^T dt) * hT + b (dt u)^T, in place.
// CHECK:                 %[[NH:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COL]], #[[$COL]], #[[$ROW]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[AT]], %[[DTI]], %[[DUI]], %[[BR]] : tensor<16x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<16xf32>) outs(%[[HI]] : tensor<16x32xf32>)
// CHECK-NEXT:            ^bb0(%[[AV:.*]]: f32, %[[DV:.*]]: f32, %[[DUV:.*]]: f32, %[[BV:.*]]: f32, %[[HV:.*]]: f32):
// CHECK-NEXT:              %[[DA:.*]] = arith.mulf %[[AV]], %[[DV]] : f32
// CHECK-NEXT:              %[[DEC:.*]] = math.exp %[[DA]] : f32
// CHECK-NEXT:              %[[KEPT:.*]] = arith.mulf %[[DEC]], %[[HV]] : f32
// CHECK-NEXT:              %[[IN:.*]] = arith.mulf %[[DUV]], %[[BV]] : f32
// CHECK-NEXT:              %[[NV:.*]] = arith.addf %[[KEPT]], %[[IN]] : f32
// CHECK-NEXT:              linalg.yield %[[NV]] : f32
// CHECK:                 %[[YR:.*]] = tensor.extract_slice %[[YI]][%[[I]], 0] [1, 32] [1, 1] : tensor<16x32xf32> to tensor<1x32xf32>
// CHECK:                 %[[YN:.*]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[CR]], %[[NH]] : tensor<1x16xf32>, tensor<16x32xf32>) outs(%[[YR]] : tensor<1x32xf32>)
// CHECK:                 %[[YIN:.*]] = tensor.insert_slice %[[YN]] into %[[YI]][%[[I]], 0] [1, 32] [1, 1]
// CHECK:                 scf.yield %[[YIN]], %[[NH]]
// y = (y + D_skip u) * z / (1 + exp(-z)), in place, then written once.
// CHECK:               %[[ZB:.*]] = tensor.extract_slice %[[Z]][%[[BI]], %[[T0]], %[[D0]]] [1, 16, 32]
// CHECK:               %[[YG:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COL]], #[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[UB]], %[[SKIP]], %[[ZB]] : tensor<16x32xf32>, tensor<32xf32>, tensor<16x32xf32>) outs(%[[TOK]]#0 : tensor<16x32xf32>)
// CHECK:                 arith.negf
// CHECK:                 math.exp
// CHECK:                 arith.divf
// CHECK:               %[[NY:.*]] = tensor.insert_slice %[[YG]] into %[[YB]][%[[BI]], %[[T0]], %[[D0]]] [1, 16, 32] [1, 1, 1]
// CHECK:               scf.yield %[[NY]], %[[TOK]]#1
// CHECK:             %[[TAIL:.*]]:2 = scf.for %[[TT:.*]] = %[[C96]] to %[[C100]] step %[[C1]] iter_args(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1)
// CHECK:               tensor.extract_slice %[[U]][%[[BI]], %[[TT]], %[[D0]]] [1, 1, 32] [1, 1, 1] : tensor<2x100x64xf32> to tensor<1x32xf32>
// The final state, transposed back to [Db, N].
// CHECK:             %[[HF:.*]] = linalg.transpose ins(%[[TAIL]]#1 : tensor<16x32xf32>)
// CHECK:             tensor.insert_slice %[[HF]] into %[[SD]][%[[BI]], %[[D0]], 0] [1, 32, 16] [1, 1, 1] : tensor<32x16xf32> into tensor<2x64x16xf32>
// CHECK-NOT:   mixer.selective_scan
func.func @ss_all(%u: tensor<2x100x64xf32>, %dt: tensor<2x100x64xf32>, %A: tensor<64x16xf32>, %b: tensor<2x100x2x16xf32>, %c: tensor<2x100x2x16xf32>,
  %d: tensor<64xf32>, %z: tensor<2x100x64xf32>, %db: tensor<64xf32>, %h: tensor<2x64x16xf32>,
  %y0: tensor<2x100x64xf32>, %s0: tensor<2x64x16xf32>) -> (tensor<2x100x64xf32>, tensor<2x64x16xf32>) {
  %y, %s = mixer.selective_scan delta_softplus
      ins(%u, %dt, %A, %b, %c : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<64x16xf32>, tensor<2x100x2x16xf32>, tensor<2x100x2x16xf32>)
      D_skip(%d : tensor<64xf32>) z(%z : tensor<2x100x64xf32>) delta_bias(%db : tensor<64xf32>) init(%h : tensor<2x64x16xf32>)
      outs(%y0, %s0 : tensor<2x100x64xf32>, tensor<2x64x16xf32>) -> tensor<2x100x64xf32>, tensor<2x64x16xf32>
  return %y, %s : tensor<2x100x64xf32>, tensor<2x64x16xf32>
}

// -----

// No optional operand, dynamic L, 6 channels per group (blocks of 2): dt is
// delta as given (no softplus, no log1p), the state starts from zeros, and
// no gate follows the token loop.

// CHECK-LABEL: func.func @ss_plain
// CHECK-SAME:    (%[[U:[^:]*]]: tensor<1x?x6xf32>, %[[DT:[^:]*]]: tensor<1x?x6xf32>
// CHECK-NOT:     math.log1p
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[L:.*]] = tensor.dim %{{.*}}, %[[C1]] : tensor<1x?x6xf32>
// CHECK:         %[[NB:.*]] = arith.divui %[[L]], %[[C16]] : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C3]] step %[[C1]]
// CHECK:           %[[HA:.*]] = bufferization.alloc_tensor() : tensor<4x2xf32>
// CHECK:           %[[HZ:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[HA]] : tensor<4x2xf32>)
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[NB]] step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[HZ]])
// CHECK:             %[[UB:.*]] = tensor.extract_slice %[[U]]{{.*}} [1, 16, 2] [1, 1, 1] : tensor<1x?x6xf32> to tensor<16x2xf32>
// CHECK:             %[[DTB:.*]] = tensor.extract_slice %[[DT]]{{.*}} [1, 16, 2] [1, 1, 1] : tensor<1x?x6xf32> to tensor<16x2xf32>
// CHECK:             linalg.generic {{.*}} ins(%[[DTB]], %[[UB]] : tensor<16x2xf32>, tensor<16x2xf32>)
// CHECK:             %[[TOK:.*]]:2 = scf.for
// CHECK:               math.exp
// CHECK:             tensor.insert_slice %[[TOK]]#0 into
func.func @ss_plain(%u: tensor<1x?x6xf32>, %dt: tensor<1x?x6xf32>, %A: tensor<6x4xf32>, %b: tensor<1x?x1x4xf32>, %c: tensor<1x?x1x4xf32>,
  %y0: tensor<1x?x6xf32>, %s0: tensor<1x6x4xf32>) -> (tensor<1x?x6xf32>, tensor<1x6x4xf32>) {
  %y, %s = mixer.selective_scan
      ins(%u, %dt, %A, %b, %c : tensor<1x?x6xf32>, tensor<1x?x6xf32>, tensor<6x4xf32>, tensor<1x?x1x4xf32>, tensor<1x?x1x4xf32>)
      outs(%y0, %s0 : tensor<1x?x6xf32>, tensor<1x6x4xf32>) -> tensor<1x?x6xf32>, tensor<1x6x4xf32>
  return %y, %s : tensor<1x?x6xf32>, tensor<1x6x4xf32>
}
