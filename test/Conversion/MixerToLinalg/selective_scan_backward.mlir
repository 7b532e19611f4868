// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s --implicit-check-not='tensor<2x100x64x16xf32>' --implicit-check-not='tensor<100x16x32xf32>'

// D = 64 channels in G = 2 groups: blocks of 32 channels; chunks of T = 16
// tokens (100 = 6 * 16 + 4). First the boundary states: a forward scan over
// the 6 chunks recording hT [16, 32] before each (7 rows). Then, per
// (batch, block), the reverse scan: the 4 tail tokens from the last (each
// recomputing its state from the tail's boundary row 6), then the 6 chunks
// from the last, each recomputing its 17 states and 16 decays and running
// its 16 tokens backwards. db and dc start at zero (blocks of a group add to them); dA and
// dinit are written once per block. No per-token state of the sequence.

// CHECK-LABEL: func.func @ssb
// CHECK-SAME:    (%[[U:[^:]*]]: tensor<2x100x64xf32>, %[[DT:[^:]*]]: tensor<2x100x64xf32>, %[[A:[^:]*]]: tensor<64x16xf32>, %{{[^:]*}}: tensor<2x100x2x16xf32>, %{{[^:]*}}: tensor<2x100x2x16xf32>, %{{[^:]*}}: tensor<2x64x16xf32>, %{{[^:]*}}: tensor<2x100x64xf32>, %[[GU:[^:]*]]: tensor<2x100x64xf32>, %[[GDT:[^:]*]]: tensor<2x100x64xf32>, %[[GA:[^:]*]]: tensor<2x64x16xf32>, %[[GB:[^:]*]]: tensor<2x100x2x16xf32>, %[[GC:[^:]*]]: tensor<2x100x2x16xf32>, %[[GH:[^:]*]]: tensor<2x64x16xf32>)
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : index
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[C99:.*]] = arith.constant 99 : index
// CHECK:         %[[DB0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[GB]] : tensor<2x100x2x16xf32>)
// CHECK:         %[[DC0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[GC]] : tensor<2x100x2x16xf32>)
// The boundary states.
// CHECK:         %[[BND0:.*]] = tensor.empty(%{{.*}}, %[[C7]]) : tensor<?x2x?x16x32xf32>
// CHECK:         %[[BND:.*]] = scf.for
// CHECK:           scf.for
// CHECK:             scf.for %[[CHUNK:[^ ]*]] = %{{.*}} to %[[C6]]
// CHECK:               tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, %[[CHUNK]], 0, 0] [1, 1, 1, 16, 32]
// The reverse scan: tail tokens 99 down to 96.
// CHECK:         %[[R:.*]]:6 = scf.for %[[BI:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %[[GU]], %{{.*}} = %[[GDT]], %{{.*}} = %[[DB0]], %{{.*}} = %[[DC0]], %{{.*}} = %[[GA]], %{{.*}} = %[[GH]])
// CHECK:           scf.for %[[BLK:[^ ]*]] =
// CHECK:             scf.for %[[TI:[^ ]*]] = {{.*}} iter_args(
// CHECK:               %[[TOK:.*]] = arith.subi %[[C99]], %[[TI]] : index
// CHECK:               tensor.extract_slice %[[BND]][%[[BI]], %[[BLK]], %[[C6]], 0, 0] [1, 1, 1, 16, 32]
// CHECK:               scf.for %{{.*}} = %[[C96]] to %[[TOK]]
// The full chunks, 5 down to 0.
// CHECK:             scf.for %[[CI:[^ ]*]] = {{.*}} to %[[C6]]
// CHECK:               %[[CH:.*]] = arith.subi %{{.*}}, %[[CI]] : index
// CHECK:               tensor.empty() : tensor<17x16x32xf32>
// CHECK:               scf.for {{.*}} -> (tensor<16x32xf32>, tensor<17x16x32xf32>, tensor<16x16x32xf32>)
// CHECK:               tensor.empty() : tensor<16x16x32xf32>
// CHECK:               scf.for %[[J:[^ ]*]] = {{.*}} -> (tensor<16x32xf32>, tensor<16x16x32xf32>, tensor<16x32xf32>)
// CHECK:                 arith.subi %[[C15]], %[[J]] : index
// CHECK:                 linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x16xf32>, tensor<16x32xf32>)
// dc and db: the channels summed a vector (16 lanes) at a time, then the
// lanes.
// CHECK:               tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [16, 16, 2, 16]
// CHECK:               linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%{{.*}} : tensor<16x16x2x16xf32>) outs(%{{.*}} : tensor<16x16x16xf32>)
// CHECK:               linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<16x16x16xf32>) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK:               tensor.expand_shape
// CHECK:               linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
// ddelta sums A W over the state, dA dt W over the chunk: one input each.
// CHECK:               linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.*}} : tensor<16x16x32xf32>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK:               linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel"]} ins(%{{.*}} : tensor<16x16x32xf32>) outs(%{{.*}} : tensor<16x32xf32>)
// dA and dinit, transposed back, once per block.
// CHECK:             linalg.transpose
// CHECK:             tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, 0] [1, 32, 16]
// CHECK:             linalg.transpose
// CHECK:             tensor.insert_slice %{{.*}} into %{{.*}}[%[[BI]], %{{.*}}, 0] [1, 32, 16]
// CHECK:         return %[[R]]#0, %[[R]]#1, %[[R]]#4, %[[R]]#2, %[[R]]#3, %[[R]]#5
func.func @ssb(%u: tensor<2x100x64xf32>, %dt: tensor<2x100x64xf32>, %A: tensor<64x16xf32>, %b: tensor<2x100x2x16xf32>, %c: tensor<2x100x2x16xf32>, %h: tensor<2x64x16xf32>, %dy: tensor<2x100x64xf32>, %g0: tensor<2x100x64xf32>, %g1: tensor<2x100x64xf32>, %g2: tensor<2x64x16xf32>, %g3: tensor<2x100x2x16xf32>, %g4: tensor<2x100x2x16xf32>, %g5: tensor<2x64x16xf32>) -> (tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x64x16xf32>, tensor<2x100x2x16xf32>, tensor<2x100x2x16xf32>, tensor<2x64x16xf32>) {
  %r:6 = mixer.selective_scan_backward chunk_size(16) delta_softplus ins(%u, %dt, %A, %b, %c : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<64x16xf32>, tensor<2x100x2x16xf32>, tensor<2x100x2x16xf32>) init(%h : tensor<2x64x16xf32>) dy(%dy : tensor<2x100x64xf32>) outs(%g0, %g1, %g2, %g3, %g4, %g5 : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x64x16xf32>, tensor<2x100x2x16xf32>, tensor<2x100x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x64x16xf32>, tensor<2x100x2x16xf32>, tensor<2x100x2x16xf32>, tensor<2x64x16xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x64x16xf32>, tensor<2x100x2x16xf32>, tensor<2x100x2x16xf32>, tensor<2x64x16xf32>
}
