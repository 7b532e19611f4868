// RUN: mixer-opt %s --convert-mixer-to-loops | FileCheck %s

// The definition of mixer.pack_weights, one scalar at a time: the result is
// zeroed, then weights[e, k, n] goes to packed[e, n floordiv W, k, n mod W].

// CHECK-LABEL: func.func @pack_weights
// CHECK-SAME:    (%[[W:[^:]*]]: tensor<4x32x80xf32>, %[[P0:[^:]*]]: tensor<4x3x32x32xf32>)
// CHECK:         tensor.insert %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<4x3x32x32xf32>
// CHECK:         scf.for %[[E:[^ ]+]] =
// CHECK:           scf.for %[[K:[^ ]+]] =
// CHECK:             scf.for %[[N:[^ ]+]] =
// CHECK-DAG:           %[[PAN:.+]] = arith.divui %[[N]], %c32
// CHECK-DAG:           %[[COL:.+]] = arith.remui %[[N]], %c32
// CHECK-DAG:           %[[V:.+]] = tensor.extract %[[W]][%[[E]], %[[K]], %[[N]]]
// CHECK:               tensor.insert %[[V]] into %{{.*}}[%[[E]], %[[PAN]], %[[K]], %[[COL]]] : tensor<4x3x32x32xf32>
func.func @pack_weights(%w: tensor<4x32x80xf32>, %p0: tensor<4x3x32x32xf32>) -> tensor<4x3x32x32xf32> {
  %p = mixer.pack_weights ins(%w : tensor<4x32x80xf32>) outs(%p0 : tensor<4x3x32x32xf32>) -> tensor<4x3x32x32xf32>
  return %p : tensor<4x3x32x32xf32>
}

// grouped_matmul reads rhs[e, k, n] of packed weights at
// [e, n floordiv W, k, n mod W]; the columns are those of the output.
// CHECK-LABEL: func.func @grouped_matmul_packed
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<?x32xf32>, %[[RHS:[^:]*]]: tensor<4x3x32x32xf32>
// CHECK:         scf.for %[[E:[^ ]+]] =
// CHECK:           scf.for %[[R:[^ ]+]] =
// CHECK:             scf.for %[[N:[^ ]+]] = %{{.*}} to %c80
// CHECK:               scf.for %[[K:[^ ]+]] =
// CHECK-DAG:             %[[PAN:.+]] = arith.divui %[[N]], %c32
// CHECK-DAG:             %[[COL:.+]] = arith.remui %[[N]], %c32
// CHECK:                 tensor.extract %[[RHS]][%[[E]], %[[PAN]], %[[K]], %[[COL]]] : tensor<4x3x32x32xf32>
func.func @grouped_matmul_packed(%lhs: tensor<?x32xf32>, %rhs: tensor<4x3x32x32xf32>, %gs: tensor<4xi32>, %o: tensor<?x80xf32>) -> tensor<?x80xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x32xf32>, tensor<4x3x32x32xf32>, tensor<4xi32>) outs(%o : tensor<?x80xf32>) -> tensor<?x80xf32>
  return %out : tensor<?x80xf32>
}
