// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// The output zeroed in static row slabs (as the rows past the sum of the
// grouped GEMMs), then one vector row update per dispatched row r: the
// token's row of out is the init of a linalg.generic adding
// weights[t, j] * expert_out[r, :] in place.

// CHECK-DAG:   #[[$ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @moe_combine
// CHECK-SAME:    (%[[EO:[^:]*]]: tensor<?x64xf32>, %[[P:[^:]*]]: tensor<?xi32>, %[[W:[^:]*]]: tensor<?x2xf32>, %[[O:[^:]*]]: tensor<?x64xf32>)
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
// CHECK:       %[[SLOTS:.+]] = tensor.dim %[[EO]], %[[C0]]
// CHECK:       %[[T:.+]] = tensor.dim %[[O]], %[[C0]]
// CHECK:       %[[NZ:.+]] = arith.divui %[[T]], %[[C16]] : index
// CHECK:       scf.for %{{.+}} = %[[C0]] to %[[NZ]] step %[[C1]] iter_args(%{{.+}} = %[[O]])
// CHECK:         linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<16x64xf32>)
// CHECK:         linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<1x64xf32>)
// CHECK:       %[[RES:.+]] = scf.for %[[R:.+]] = %[[C0]] to %[[SLOTS]] step %[[C1]] iter_args(%[[OA:.+]] = %{{.+}})
// CHECK:         %[[PV:.+]] = tensor.extract %[[P]][%[[R]]]
// CHECK:         %[[A:.+]] = arith.index_cast %[[PV]] : i32 to index
// CHECK:         %[[TOK:.+]] = arith.divui %[[A]], %[[C2]] : index
// CHECK:         %[[J:.+]] = arith.remui %[[A]], %[[C2]] : index
// CHECK:         %[[WV:.+]] = tensor.extract %[[W]][%[[TOK]], %[[J]]]
// CHECK:         %[[SRC:.+]] = tensor.extract_slice %[[EO]][%[[R]], 0] [1, 64] [1, 1] : tensor<?x64xf32> to tensor<64xf32>
// CHECK:         %[[DST:.+]] = tensor.extract_slice %[[OA]][%[[TOK]], 0] [1, 64] [1, 1] : tensor<?x64xf32> to tensor<64xf32>
// CHECK:         %[[UPD:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel"]} ins(%[[SRC]] : tensor<64xf32>) outs(%[[DST]] : tensor<64xf32>)
// CHECK-NEXT:    ^bb0(%[[EV:.+]]: f32, %[[OV:.+]]: f32):
// CHECK-NEXT:      %[[PR:.+]] = arith.mulf %[[WV]], %[[EV]] : f32
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[OV]], %[[PR]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         tensor.insert_slice %[[UPD]] into %[[OA]][%[[TOK]], 0] [1, 64] [1, 1]
// CHECK:       return %[[RES]]
func.func @moe_combine(%eo: tensor<?x64xf32>, %p: tensor<?xi32>, %w: tensor<?x2xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %y = mixer.moe_combine ins(%eo, %p, %w : tensor<?x64xf32>, tensor<?xi32>, tensor<?x2xf32>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
