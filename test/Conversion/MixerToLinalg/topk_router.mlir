// RUN: mixer-opt %s --convert-mixer-to-linalg \
// RUN:   | FileCheck %s --implicit-check-not=linalg.generic

// The router keeps the per-token scalar loops of convert-mixer-to-loops
// (see test/Conversion/MixerToLoops/topk_router.mlir): it reads the T x E
// logits once and E is small. Max, softmax denominator, k picks, then the
// normalization, and no linalg.generic anywhere.

// CHECK-LABEL: func.func @topk_router
// CHECK-SAME:    (%[[L:[^:]*]]: tensor<?x8xf32>, %[[W0:[^:]*]]: tensor<?x2xf32>, %[[I0:[^:]*]]: tensor<?x2xi32>)
// CHECK:       %[[RES:.+]]:2 = scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %[[W0]], %{{.+}} = %[[I0]])
// CHECK:         scf.for {{.*}} -> (f32)
// CHECK:           arith.maximumf
// CHECK:         scf.for {{.*}} -> (f32)
// CHECK:           math.exp
// CHECK:         %[[PICK:.+]]:5 = scf.for {{.*}} -> (tensor<?x2xf32>, tensor<?x2xi32>, f32, index, f32)
// CHECK:           scf.for {{.*}} -> (f32, index)
// CHECK:         scf.for
// CHECK:           arith.divf %{{.+}}, %[[PICK]]#4 : f32
// CHECK:       return %[[RES]]#0, %[[RES]]#1
func.func @topk_router(%l: tensor<?x8xf32>, %w0: tensor<?x2xf32>, %i0: tensor<?x2xi32>) -> (tensor<?x2xf32>, tensor<?x2xi32>) {
  %w, %ids = mixer.topk_router k(2) normalize ins(%l : tensor<?x8xf32>) outs(%w0, %i0 : tensor<?x2xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>, tensor<?x2xi32>
  return %w, %ids : tensor<?x2xf32>, tensor<?x2xi32>
}
