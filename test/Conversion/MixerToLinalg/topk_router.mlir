// RUN: mixer-opt %s --split-input-file --convert-mixer-to-linalg \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.generic
// RUN: mixer-opt %s --split-input-file --mixer-set-target="cpu=znver3" \
// RUN:   --convert-mixer-to-linalg \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.generic

// On a CPU the router runs W tokens at a time (W = 16 f32 lanes with
// AVX-512, 8 with AVX2): each expert's column of W logits is gathered into
// one vector (lane stride E), the max is a tree of vector maxes, and each of
// the k passes over the experts is a loop of vector compares and selects
// that scatters its weight and id into the W rows (lane stride k). With
// `normalize` a second loop rescales the k weights by their sum. The tokens
// after the last full vector take the scalar loops.

// CHECK-LABEL: func.func @dynamic_tokens
// CHECK-SAME:    (%[[L:[^:]*]]: tensor<?x8xf32>, %[[W0:[^:]*]]: tensor<?x2xf32>, %[[I0:[^:]*]]: tensor<?x2xi32>)
// AVX512-DAG:  %[[LANES:.+]] = arith.constant 16 : index
// AVX2-DAG:    %[[LANES:.+]] = arith.constant 8 : index
// AVX512-DAG:  arith.constant dense<[0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120]> : vector<16xi32>
// AVX2-DAG:    arith.constant dense<[0, 8, 16, 24, 32, 40, 48, 56]> : vector<8xi32>
// CHECK-DAG:   %[[T:.+]] = tensor.dim %[[L]], %c0
// CHECK:       %[[REM:.+]] = arith.remui %[[T]], %[[LANES]]
// CHECK:       %[[FULL:.+]] = arith.subi %[[T]], %[[REM]]
// CHECK:       %[[FL:.+]] = tensor.collapse_shape %[[L]] {{\[}}[0, 1]] : tensor<?x8xf32> into tensor<?xf32>
// CHECK:       %[[FW:.+]] = tensor.collapse_shape %[[W0]]
// CHECK:       %[[FI:.+]] = tensor.collapse_shape %[[I0]]
// CHECK:       %[[BLOCKS:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %[[FULL]] step %[[LANES]] iter_args(%{{.+}} = %[[FW]], %{{.+}} = %[[FI]])
// AVX512-COUNT-8: vector.gather %[[FL]][%{{.+}}] [%{{.+}}], %{{.+}}, %{{.+}} : tensor<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// AVX2-COUNT-8:   vector.gather %[[FL]][%{{.+}}] [%{{.+}}], %{{.+}}, %{{.+}} : tensor<?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK-COUNT-7: arith.maximumf
// AVX512:        %[[PICKS:.+]]:5 = scf.for {{.*}} -> (vector<16xf32>, vector<16xi32>, vector<16xf32>, tensor<?xf32>, tensor<?xi32>)
// AVX2:          %[[PICKS:.+]]:5 = scf.for {{.*}} -> (vector<8xf32>, vector<8xi32>, vector<8xf32>, tensor<?xf32>, tensor<?xi32>)
// CHECK-COUNT-8:   arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<{{8|16}}xi1>, vector<{{8|16}}xi32>
// CHECK:           math.exp %{{.+}} : vector<{{8|16}}xf32>
// CHECK:           vector.scatter
// CHECK:           vector.scatter
// CHECK:         scf.for {{.*}} -> (tensor<?xf32>)
// CHECK:           vector.gather
// CHECK:           arith.divf %{{.+}}, %[[PICKS]]#2
// CHECK:           vector.scatter
// CHECK:       %[[W:.+]] = tensor.expand_shape %[[BLOCKS]]#0
// CHECK:       %[[I:.+]] = tensor.expand_shape %[[BLOCKS]]#1
// CHECK:       %[[REST:.+]] = arith.subi %[[T]], %[[FULL]]
// CHECK:       tensor.extract_slice %[[L]][%[[FULL]], 0] [%[[REST]], 8]
// CHECK:       %[[TAIL:.+]]:2 = scf.for {{.*}} -> (tensor<?x2xf32>, tensor<?x2xi32>)
// CHECK:       %[[RW:.+]] = tensor.insert_slice %[[TAIL]]#0 into %[[W]][%[[FULL]], 0] [%[[REST]], 2]
// CHECK:       %[[RI:.+]] = tensor.insert_slice %[[TAIL]]#1 into %[[I]][%[[FULL]], 0] [%[[REST]], 2]
// CHECK:       return %[[RW]], %[[RI]]
func.func @dynamic_tokens(%l: tensor<?x8xf32>, %w0: tensor<?x2xf32>, %i0: tensor<?x2xi32>) -> (tensor<?x2xf32>, tensor<?x2xi32>) {
  %w, %ids = mixer.topk_router k(2) normalize ins(%l : tensor<?x8xf32>) outs(%w0, %i0 : tensor<?x2xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>, tensor<?x2xi32>
  return %w, %ids : tensor<?x2xf32>, tensor<?x2xi32>
}

// -----

// A whole number of vectors: no scalar tail. Without `normalize` the
// weights are over the softmax denominator z, a sum of vector exps before
// the passes, and there is no rescaling loop.

// CHECK-LABEL: func.func @static_tokens
// CHECK-COUNT-4: math.exp %{{.+}} : vector<{{8|16}}xf32>
// CHECK:       scf.for {{.*}} -> (vector<{{8|16}}xf32>, vector<{{8|16}}xi32>, vector<{{8|16}}xf32>, tensor<256xf32>, tensor<256xi32>)
// CHECK:         math.exp
// CHECK:         arith.divf
// CHECK-NOT:   scf.for
// CHECK-NOT:   tensor.extract_slice
// CHECK:       tensor.expand_shape {{.*}} output_shape [128, 2]
func.func @static_tokens(%l: tensor<128x4xf32>, %w0: tensor<128x2xf32>, %i0: tensor<128x2xi32>) -> (tensor<128x2xf32>, tensor<128x2xi32>) {
  %w, %ids = mixer.topk_router k(2) ins(%l : tensor<128x4xf32>) outs(%w0, %i0 : tensor<128x2xf32>, tensor<128x2xi32>) -> tensor<128x2xf32>, tensor<128x2xi32>
  return %w, %ids : tensor<128x2xf32>, tensor<128x2xi32>
}

// -----

// A dynamic number of experts keeps the per-token scalar loops of
// convert-mixer-to-loops (see test/Conversion/MixerToLoops/topk_router.mlir):
// max, softmax denominator, k picks, then the normalization.

// CHECK-LABEL: func.func @dynamic_experts
// CHECK-SAME:    (%[[L:[^:]*]]: tensor<?x?xf32>, %[[W0:[^:]*]]: tensor<?x2xf32>, %[[I0:[^:]*]]: tensor<?x2xi32>)
// CHECK-NOT:   vector.gather
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
func.func @dynamic_experts(%l: tensor<?x?xf32>, %w0: tensor<?x2xf32>, %i0: tensor<?x2xi32>) -> (tensor<?x2xf32>, tensor<?x2xi32>) {
  %w, %ids = mixer.topk_router k(2) normalize ins(%l : tensor<?x?xf32>) outs(%w0, %i0 : tensor<?x2xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>, tensor<?x2xi32>
  return %w, %ids : tensor<?x2xf32>, tensor<?x2xi32>
}
