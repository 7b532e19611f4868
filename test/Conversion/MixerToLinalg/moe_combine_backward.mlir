// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// mixer.moe_combine_backward: one pass over the dispatched rows r carrying
// both results. Row r holds slot a = permutation[r] = t * k + j:
// d_expert_out[r] = weights[t, j] dout[t] (a vector row map into the row),
// d_weights[t, j] = <dout[t], expert_out[r]> (a row reduction to a 0-d
// tensor, inserted at [t, j]).

// CHECK-DAG:   #[[$ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$TO0D:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @moe_combine_backward
// CHECK-SAME:    (%[[EO:[^:]*]]: tensor<26x24xf32>, %[[P:[^:]*]]: tensor<26xi32>, %[[W:[^:]*]]: tensor<13x2xf32>, %[[D:[^:]*]]: tensor<13x24xf32>, %[[DE0:[^:]*]]: tensor<26x24xf32>, %[[DW0:[^:]*]]: tensor<13x2xf32>)
// CHECK:         %[[R:.*]]:2 = scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[DE:.*]] = %[[DE0]], %[[DW:.*]] = %[[DW0]]) -> (tensor<26x24xf32>, tensor<13x2xf32>)
// CHECK:           %[[SLOT:.*]] = tensor.extract %[[P]][%[[ROW]]] : tensor<26xi32>
// CHECK:           %[[T:.*]] = arith.divui
// CHECK:           %[[J:.*]] = arith.remui
// CHECK:           %[[WT:.*]] = tensor.extract %[[W]][%[[T]], %[[J]]] : tensor<13x2xf32>
// CHECK:           %[[DROW:.*]] = tensor.extract_slice %[[D]][%[[T]], 0] [1, 24] [1, 1]
// CHECK:           %[[EROW:.*]] = tensor.extract_slice %[[EO]][%[[ROW]], 0] [1, 24] [1, 1]
// CHECK:           %[[UPD:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel"]} ins(%[[DROW]] : tensor<24xf32>)
// CHECK:             arith.mulf %[[WT]]
// CHECK:           tensor.insert_slice %[[UPD]] into %[[DE]][%[[ROW]], 0] [1, 24] [1, 1]
// CHECK:           %[[DOT:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$TO0D]]], iterator_types = ["reduction"]} ins(%[[DROW]], %[[EROW]] : tensor<24xf32>, tensor<24xf32>)
// CHECK:           %[[V:.*]] = tensor.extract %[[DOT]][] : tensor<f32>
// CHECK:           tensor.insert %[[V]] into %[[DW]][%[[T]], %[[J]]] : tensor<13x2xf32>
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @moe_combine_backward(%eo: tensor<26x24xf32>, %p: tensor<26xi32>, %w: tensor<13x2xf32>, %d: tensor<13x24xf32>, %de0: tensor<26x24xf32>, %dw0: tensor<13x2xf32>) -> (tensor<26x24xf32>, tensor<13x2xf32>) {
  %g:2 = mixer.moe_combine_backward ins(%eo, %p, %w, %d : tensor<26x24xf32>, tensor<26xi32>, tensor<13x2xf32>, tensor<13x24xf32>) outs(%de0, %dw0 : tensor<26x24xf32>, tensor<13x2xf32>) -> tensor<26x24xf32>, tensor<13x2xf32>
  return %g#0, %g#1 : tensor<26x24xf32>, tensor<13x2xf32>
}
