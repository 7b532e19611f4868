// RUN: mixer-opt %s --convert-mixer-to-loops | FileCheck %s

// Per token: the max logit, the softmax denominator z = sum_e exp(l_e - max),
// then k picks. Pick j takes the largest logit among the experts after the
// previous pick in the order (descending logit, ascending index): l < prev,
// or l == prev with a larger index. A strictly larger logit replaces the
// current best, so equal logits keep the lower index. Logits compare
// exactly, and softmax is monotone, so the order is that of the
// probabilities. The weight is exp(l - max) / z; with `normalize` the k
// weights are divided by their sum.

// CHECK-LABEL: func.func @topk_router_normalize
// CHECK-SAME:    (%[[L:[^:]*]]: tensor<?x8xf32>, %[[W0:[^:]*]]: tensor<?x2xf32>, %[[I0:[^:]*]]: tensor<?x2xi32>)
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:   %[[NONE:.+]] = arith.constant -1 : index
// CHECK-DAG:   %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK-DAG:   %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[T:.+]] = tensor.dim %[[L]], %[[C0]] : tensor<?x8xf32>
// CHECK:       %[[RES:.+]]:2 = scf.for %[[TI:.+]] = %[[C0]] to %[[T]] step %[[C1]] iter_args(%[[WT:.+]] = %[[W0]], %[[IT:.+]] = %[[I0]])
// CHECK:         %[[MAX:.+]] = scf.for %[[E:.+]] = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[M:.+]] = %[[NINF]]) -> (f32)
// CHECK:           %[[LV:.+]] = tensor.extract %[[L]][%[[TI]], %[[E]]]
// CHECK:           arith.maximumf %[[M]], %[[LV]] : f32
// CHECK:         %[[Z:.+]] = scf.for %[[E2:.+]] = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[ZA:.+]] = %[[ZERO]]) -> (f32)
// CHECK:           %[[LV2:.+]] = tensor.extract %[[L]][%[[TI]], %[[E2]]]
// CHECK:           %[[SH:.+]] = arith.subf %[[LV2]], %[[MAX]] : f32
// CHECK:           %[[EX:.+]] = math.exp %[[SH]] : f32
// CHECK:           arith.addf %[[ZA]], %[[EX]] : f32
// CHECK:         %[[PICK:.+]]:5 = scf.for %[[J:.+]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[WJ:.+]] = %[[WT]], %[[IJ:.+]] = %[[IT]], %[[PL:.+]] = %[[INF]], %[[PE:.+]] = %[[NONE]], %[[PS:.+]] = %[[ZERO]]) -> (tensor<?x2xf32>, tensor<?x2xi32>, f32, index, f32)
// CHECK:           %[[BEST:.+]]:2 = scf.for %[[E3:.+]] = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[BL:.+]] = %[[ZERO]], %[[BE:.+]] = %[[NONE]]) -> (f32, index)
// CHECK:             %[[LV3:.+]] = tensor.extract %[[L]][%[[TI]], %[[E3]]]
// CHECK:             %[[LT:.+]] = arith.cmpf olt, %[[LV3]], %[[PL]] : f32
// CHECK:             %[[EQ:.+]] = arith.cmpf oeq, %[[LV3]], %[[PL]] : f32
// CHECK:             %[[GTI:.+]] = arith.cmpi sgt, %[[E3]], %[[PE]] : index
// CHECK:             %[[EQA:.+]] = arith.andi %[[EQ]], %[[GTI]] : i1
// CHECK:             %[[AFTER:.+]] = arith.ori %[[LT]], %[[EQA]] : i1
// CHECK:             %[[FIRST:.+]] = arith.cmpi slt, %[[BE]], %[[C0]] : index
// CHECK:             %[[GT:.+]] = arith.cmpf ogt, %[[LV3]], %[[BL]] : f32
// CHECK:             %[[BETTER:.+]] = arith.ori %[[FIRST]], %[[GT]] : i1
// CHECK:             %[[TAKE:.+]] = arith.andi %[[AFTER]], %[[BETTER]] : i1
// CHECK:             %[[NL:.+]] = arith.select %[[TAKE]], %[[LV3]], %[[BL]] : f32
// CHECK:             %[[NE:.+]] = arith.select %[[TAKE]], %[[E3]], %[[BE]] : index
// CHECK:             scf.yield %[[NL]], %[[NE]] : f32, index
// CHECK:           %[[D:.+]] = arith.subf %[[BEST]]#0, %[[MAX]] : f32
// CHECK:           %[[PX:.+]] = math.exp %[[D]] : f32
// CHECK:           %[[P:.+]] = arith.divf %[[PX]], %[[Z]] : f32
// CHECK:           %[[ID:.+]] = arith.index_cast %[[BEST]]#1 : index to i32
// CHECK:           %[[NW:.+]] = tensor.insert %[[P]] into %[[WJ]][%[[TI]], %[[J]]]
// CHECK:           %[[NI:.+]] = tensor.insert %[[ID]] into %[[IJ]][%[[TI]], %[[J]]]
// CHECK:           %[[NS:.+]] = arith.addf %[[PS]], %[[P]] : f32
// CHECK:           scf.yield %[[NW]], %[[NI]], %[[BEST]]#0, %[[BEST]]#1, %[[NS]]
// Normalize: the picked weights over their sum.
// CHECK:         %[[NORM:.+]] = scf.for %[[J2:.+]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[WN:.+]] = %[[PICK]]#0)
// CHECK:           %[[WV:.+]] = tensor.extract %[[WN]][%[[TI]], %[[J2]]]
// CHECK:           %[[WD:.+]] = arith.divf %[[WV]], %[[PICK]]#4 : f32
// CHECK:           tensor.insert %[[WD]] into %[[WN]][%[[TI]], %[[J2]]]
// CHECK:         scf.yield %[[NORM]], %[[PICK]]#1
// CHECK:       return %[[RES]]#0, %[[RES]]#1
func.func @topk_router_normalize(%l: tensor<?x8xf32>, %w0: tensor<?x2xf32>, %i0: tensor<?x2xi32>) -> (tensor<?x2xf32>, tensor<?x2xi32>) {
  %w, %ids = mixer.topk_router k(2) normalize ins(%l : tensor<?x8xf32>) outs(%w0, %i0 : tensor<?x2xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>, tensor<?x2xi32>
  return %w, %ids : tensor<?x2xf32>, tensor<?x2xi32>
}

// Without `normalize` the picked probabilities are the weights.

// CHECK-LABEL: func.func @topk_router_plain
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args({{.*}}) -> (tensor<4x3xf32>, tensor<4x3xi32>, f32, index, f32)
// CHECK-NOT:     arith.divf %{{.+}}, %{{.+}}#4
// CHECK:       return
func.func @topk_router_plain(%l: tensor<4x6xf32>, %w0: tensor<4x3xf32>, %i0: tensor<4x3xi32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %w, %ids = mixer.topk_router k(3) ins(%l : tensor<4x6xf32>) outs(%w0, %i0 : tensor<4x3xf32>, tensor<4x3xi32>) -> tensor<4x3xf32>, tensor<4x3xi32>
  return %w, %ids : tensor<4x3xf32>, tensor<4x3xi32>
}
