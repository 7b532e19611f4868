// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// A gather per token. First the inverse of the permutation (the row of
// each slot), zeroed, then scattered in an scf.forall over the rows r:
// rowOfSlot[permutation[r]] = r. Then an scf.forall over the tokens t
// writes row t of the output: zeroed, then k vector row updates adding
// weights[t, j] * expert_out[rowOfSlot[t * k + j], :]. No two iterations
// write the same row, so both foralls are parallel.

// CHECK-DAG:   #[[$ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @moe_combine
// CHECK-SAME:    (%[[EO:[^:]*]]: tensor<?x64xf32>, %[[P:[^:]*]]: tensor<?xi32>, %[[W:[^:]*]]: tensor<?x2xf32>, %[[O:[^:]*]]: tensor<?x64xf32>)
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[Z32:.+]] = arith.constant 0 : i32
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[T:.+]] = tensor.dim %[[O]], %[[C0]]
// CHECK-DAG:   %[[SLOTS:.+]] = tensor.dim %[[P]], %[[C0]]
// CHECK:       %[[E:.+]] = tensor.empty(%[[SLOTS]]) : tensor<?xi32>
// CHECK:       %[[Z:.+]] = linalg.fill ins(%[[Z32]] : i32) outs(%[[E]] : tensor<?xi32>)
// CHECK:       %[[INV:.+]] = scf.forall (%[[R:.+]]) in (%[[SLOTS]]) shared_outs(%[[IS:.+]] = %[[Z]])
// CHECK:         %[[PV:.+]] = tensor.extract %[[P]][%[[R]]]
// CHECK:         %[[A:.+]] = arith.index_cast %[[PV]] : i32 to index
// CHECK:         %[[R32:.+]] = arith.index_cast %[[R]] : index to i32
// CHECK:         %[[CELL:.+]] = tensor.extract_slice %[[IS]][%[[A]]] [1] [1]
// CHECK:         %[[SET:.+]] = linalg.fill ins(%[[R32]] : i32) outs(%[[CELL]] : tensor<1xi32>)
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice %[[SET]] into %[[IS]][%[[A]]] [1] [1]
// CHECK:       %[[RES:.+]] = scf.forall (%[[TOK:.+]]) in (%[[T]]) shared_outs(%[[OS:.+]] = %[[O]])
// CHECK:         %[[DST:.+]] = tensor.extract_slice %[[OS]][%[[TOK]], 0] [1, 64] [1, 1] : tensor<?x64xf32> to tensor<64xf32>
// CHECK:         %[[ROW0:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[DST]] : tensor<64xf32>)
// CHECK:         %[[FIRST:.+]] = arith.muli %[[TOK]], %[[C2]] : index
// CHECK:         %[[ROW:.+]] = scf.for %[[J:.+]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[ACC:.+]] = %[[ROW0]])
// CHECK:           %[[SLOT:.+]] = arith.addi %[[FIRST]], %[[J]] : index
// CHECK:           %[[RV:.+]] = tensor.extract %[[INV]][%[[SLOT]]]
// CHECK:           %[[RI:.+]] = arith.index_cast %[[RV]] : i32 to index
// CHECK:           %[[WV:.+]] = tensor.extract %[[W]][%[[TOK]], %[[J]]]
// CHECK:           %[[SRC:.+]] = tensor.extract_slice %[[EO]][%[[RI]], 0] [1, 64] [1, 1] : tensor<?x64xf32> to tensor<64xf32>
// CHECK:           %[[UPD:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel"]} ins(%[[SRC]] : tensor<64xf32>) outs(%[[ACC]] : tensor<64xf32>)
// CHECK-NEXT:      ^bb0(%[[EV:.+]]: f32, %[[OV:.+]]: f32):
// CHECK-NEXT:        %[[PR:.+]] = arith.mulf %[[WV]], %[[EV]] : f32
// CHECK-NEXT:        %[[S:.+]] = arith.addf %[[OV]], %[[PR]] : f32
// CHECK-NEXT:        linalg.yield %[[S]] : f32
// CHECK:           scf.yield %[[UPD]]
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice %[[ROW]] into %[[OS]][%[[TOK]], 0] [1, 64] [1, 1]
// CHECK:       return %[[RES]]
func.func @moe_combine(%eo: tensor<?x64xf32>, %p: tensor<?xi32>, %w: tensor<?x2xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %y = mixer.moe_combine ins(%eo, %p, %w : tensor<?x64xf32>, tensor<?xi32>, tensor<?x2xf32>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
