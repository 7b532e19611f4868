// RUN: mixer-opt %s --convert-mixer-to-linalg --split-input-file | FileCheck %s

// Heads of one group, as many as the target's scan_head_block_limit (4 on
// the default CPU), run inside the chunk loop: per batch entry the initial
// states of every head, stacked [H, N, P]; per full chunk, b's and c's rows
// and G = Cc Bc^T once, then a loop over the heads that steps each head's
// state (a slice of the stack, put back in place) with its own decays; then
// per head its tail tokens; then each head's final state.

// CHECK-LABEL: func.func @ssd_heads_inner
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<1x40x2x4xf32>, %[[LA:[^:]*]]: tensor<1x40x2xf32>, %[[B:[^:]*]]: tensor<1x40x1x8xf32>, %[[C:[^:]*]]: tensor<1x40x1x8xf32>, %[[Y0:[^:]*]]: tensor<1x40x2x4xf32>, %[[S0:[^:]*]]: tensor<1x2x4x8xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CHECK:         %[[RES:.*]]:2 = scf.for %[[BI:.*]] = %[[C0]] to %[[C1]] step %[[C1]] iter_args(%[[YB:.*]] = %[[Y0]], %[[SB:.*]] = %[[S0]])
// CHECK:           %[[Z0:.*]] = linalg.fill {{.*}} -> tensor<8x4xf32>
// CHECK:           %[[Z1:.*]] = linalg.fill {{.*}} -> tensor<8x4xf32>
// CHECK:           %[[STACK0:.*]] = tensor.empty() : tensor<2x8x4xf32>
// CHECK:           %[[STACK1:.*]] = tensor.insert_slice %[[Z0]] into %[[STACK0]][0, 0, 0] [1, 8, 4] [1, 1, 1]
// CHECK:           %[[STACK:.*]] = tensor.insert_slice %[[Z1]] into %[[STACK1]][1, 0, 0] [1, 8, 4] [1, 1, 1]
// The chunk loop outside, its shared products first.
// CHECK:           %[[CHUNKS:.*]]:2 = scf.for %[[CI:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[YC:.*]] = %[[YB]], %[[SC:.*]] = %[[STACK]]) -> (tensor<1x40x2x4xf32>, tensor<2x8x4xf32>)
// CHECK:             %[[T0:.*]] = arith.muli %[[CI]], %[[C16]] : index
// CHECK-DAG:         %[[BC:.*]] = tensor.extract_slice %[[B]][%[[BI]], %[[T0]], %[[C0]], 0] [1, 16, 1, 8] [1, 1, 1, 1] : tensor<1x40x1x8xf32> to tensor<16x8xf32>
// CHECK-DAG:         %[[CC:.*]] = tensor.extract_slice %[[C]][%[[BI]], %[[T0]], %[[C0]], 0] [1, 16, 1, 8] [1, 1, 1, 1] : tensor<1x40x1x8xf32> to tensor<16x8xf32>
// CHECK:             %[[BT:.*]] = linalg.transpose ins(%[[BC]] : tensor<16x8xf32>)
// CHECK:             %[[G:.*]] = linalg.generic {{.*}} ins(%[[CC]], %[[BT]] : tensor<16x8xf32>, tensor<8x16xf32>)
// The heads inside: each reads its x and log_a rows and its state's slice.
// CHECK:             %[[HEADS:.*]]:2 = scf.for %[[HI:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[YH:.*]] = %[[YC]], %[[SH:.*]] = %[[SC]])
// CHECK:               %[[ST:.*]] = tensor.extract_slice %[[SH]][%[[HI]], 0, 0] [1, 8, 4] [1, 1, 1] : tensor<2x8x4xf32> to tensor<8x4xf32>
// CHECK:               tensor.extract_slice %[[X]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 16, 1, 4]
// CHECK:               tensor.extract_slice %[[LA]][%[[BI]], %[[T0]], %[[HI]]] [1, 16, 1]
// CHECK-NOT:           linalg.transpose
// The head's decayed scores read the shared G.
// CHECK:               %[[M:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[G]] : tensor<16xf64>, tensor<16xf64>, tensor<16x16xf32>)
// CHECK:                 math.exp
// CHECK:               %[[YI:.*]] = tensor.insert_slice %{{.*}} into %[[YH]][%[[BI]], %[[T0]], %[[HI]], 0] [1, 16, 1, 4]
// CHECK:               %[[SI:.*]] = tensor.insert_slice %{{.*}} into %[[SH]][%[[HI]], 0, 0] [1, 8, 4] [1, 1, 1]
// CHECK:               scf.yield %[[YI]], %[[SI]]
// CHECK:             scf.yield %[[HEADS]]#0, %[[HEADS]]#1
// Then per head its tail tokens [32, 40), and each head's final state.
// CHECK:           %[[TAILS:.*]]:2 = scf.for %[[TH:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%{{.*}} = %[[CHUNKS]]#0, %[[TS:.*]] = %[[CHUNKS]]#1)
// CHECK:             tensor.extract_slice %[[TS]][%[[TH]], 0, 0] [1, 8, 4]
// CHECK:             scf.for %{{.*}} = %[[C32]] to %[[C40]] step %[[C1]]
// CHECK:           %[[F0:.*]] = tensor.extract_slice %[[TAILS]]#1[%[[C0]], 0, 0] [1, 8, 4]
// CHECK:           %[[F0T:.*]] = linalg.transpose ins(%[[F0]] : tensor<8x4xf32>)
// CHECK:           %[[S1:.*]] = tensor.insert_slice %[[F0T]] into %[[SB]][%[[BI]], %[[C0]], 0, 0] [1, 1, 4, 8]
// CHECK:           %[[F1:.*]] = tensor.extract_slice %[[TAILS]]#1[%[[C1]], 0, 0] [1, 8, 4]
// CHECK:           %[[F1T:.*]] = linalg.transpose ins(%[[F1]] : tensor<8x4xf32>)
// CHECK:           %[[S2:.*]] = tensor.insert_slice %[[F1T]] into %[[S1]][%[[BI]], %[[C1]], 0, 0] [1, 1, 4, 8]
// CHECK:           scf.yield %[[TAILS]]#0, %[[S2]]
func.func @ssd_heads_inner(%x: tensor<1x40x2x4xf32>, %la: tensor<1x40x2xf32>, %b: tensor<1x40x1x8xf32>, %c: tensor<1x40x1x8xf32>, %y0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x4x8xf32>) -> (tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<1x40x2x4xf32>, tensor<1x40x2xf32>, tensor<1x40x1x8xf32>, tensor<1x40x1x8xf32>) outs(%y0, %s0 : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>
}

// -----

// Heads of two groups share nothing: the heads stay outside the chunk loop.

// CHECK-LABEL: func.func @ssd_two_groups_heads_outer
// CHECK:         scf.for %[[BI:[^ ]*]] =
// CHECK-NEXT:      scf.for %[[HI:[^ ]*]] =
// CHECK:             scf.for
// Head h reads group h (H / G = 1) and transposes its own b.
// CHECK:               tensor.extract_slice %{{.*}}[%[[BI]], %{{.*}}, %[[HI]], 0] [1, 16, 1, 8]
// CHECK:               linalg.transpose
func.func @ssd_two_groups_heads_outer(%x: tensor<1x40x2x4xf32>, %la: tensor<1x40x2xf32>, %b: tensor<1x40x2x8xf32>, %c: tensor<1x40x2x8xf32>, %y0: tensor<1x40x2x4xf32>, %s0: tensor<1x2x4x8xf32>) -> (tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<1x40x2x4xf32>, tensor<1x40x2xf32>, tensor<1x40x2x8xf32>, tensor<1x40x2x8xf32>) outs(%y0, %s0 : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>
  return %y, %s : tensor<1x40x2x4xf32>, tensor<1x2x4x8xf32>
}

// -----

// More heads than the target's block (here 8 > 4, untiled): one at a time.

// CHECK-LABEL: func.func @ssd_more_heads_than_the_block
// CHECK:         scf.for %{{.*}} =
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[C8:.*]] step
// CHECK-NOT:       tensor<8x8x4xf32>
func.func @ssd_more_heads_than_the_block(%x: tensor<1x40x8x4xf32>, %la: tensor<1x40x8xf32>, %b: tensor<1x40x1x8xf32>, %c: tensor<1x40x1x8xf32>, %y0: tensor<1x40x8x4xf32>, %s0: tensor<1x8x4x8xf32>) -> (tensor<1x40x8x4xf32>, tensor<1x8x4x8xf32>) {
  %y, %s = mixer.ssd chunk_size(16) ins(%x, %la, %b, %c : tensor<1x40x8x4xf32>, tensor<1x40x8xf32>, tensor<1x40x1x8xf32>, tensor<1x40x1x8xf32>) outs(%y0, %s0 : tensor<1x40x8x4xf32>, tensor<1x8x4x8xf32>) -> tensor<1x40x8x4xf32>, tensor<1x8x4x8xf32>
  return %y, %s : tensor<1x40x8x4xf32>, tensor<1x8x4x8xf32>
}
