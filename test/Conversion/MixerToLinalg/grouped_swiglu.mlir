// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s

// mixer.grouped_swiglu: the packed panels and slabs of grouped_matmul with
// two weights. Per expert and column panel (2 x 16 lanes on the default
// target), both weights' panels are copied into their contiguous [K, 32]
// slots; per slab of 14 rows (the micro-kernel's), two contractions (gate
// and up) into local buffers of the slab's tile, then silu(gate) * up
// written straight into the tile of the output. No [T, F] intermediate. silu(g) = g * sigmoid(g), the
// sigmoid from exp(-|g|) (never overflows).

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @grouped_swiglu
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?x32xf32>, %[[WG:[^:]*]]: tensor<4x32x64xf32>, %[[WU:[^:]*]]: tensor<4x32x64xf32>, %[[GS:[^:]*]]: tensor<4xi64>, %[[O:[^:]*]]: tensor<?x64xf32>)
// CHECK-DAG:   %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C14:.+]] = arith.constant 14 : index
// CHECK-DAG:   %[[C32:.+]] = arith.constant 32 : index
// CHECK:       %[[GBUF0:.+]] = bufferization.alloc_tensor() : tensor<2x32x32xf32>
// CHECK:       %[[UBUF0:.+]] = bufferization.alloc_tensor() : tensor<2x32x32xf32>
// CHECK:       scf.for %[[E:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[OE:.+]] = %[[O]], %[[GBE:.+]] = %[[GBUF0]], %[[UBE:.+]] = %[[UBUF0]], %[[OFF:.+]] = %[[C0]]) -> (tensor<?x64xf32>, tensor<2x32x32xf32>, tensor<2x32x32xf32>, index)
// CHECK:         %[[SZ:.+]] = tensor.extract %[[GS]][%[[E]]] : tensor<4xi64>
// CHECK:         %[[RAW:.+]] = arith.index_cast %[[SZ]] : i64 to index
// Sizes are clamped to [0, rows left]: never out of bounds.
// CHECK:         %[[NONNEG:.+]] = arith.maxsi %[[RAW]], %{{.+}} : index
// CHECK:         %[[SIZE:.+]] = arith.minsi %[[NONNEG]], %{{.+}} : index
// Both weights packed, each in one pass over its rows.
// CHECK:         %[[GSRC:.+]] = tensor.extract_slice %[[WG]][%[[E]], 0, 0] [1, 32, 64] [1, 1, 1] : tensor<4x32x64xf32> to tensor<32x64xf32>
// CHECK:         %[[GROWS:.+]] = tensor.expand_shape %[[GSRC]] {{\[}}[0], [1, 2]] output_shape [32, 2, 32]
// CHECK:         %[[GPANELS:.+]] = linalg.generic {{.*}} ins(%[[GROWS]] : tensor<32x2x32xf32>) outs(%[[GBE]] : tensor<2x32x32xf32>)
// CHECK:         %[[USRC:.+]] = tensor.extract_slice %[[WU]][%[[E]], 0, 0] [1, 32, 64] [1, 1, 1] : tensor<4x32x64xf32> to tensor<32x64xf32>
// CHECK:         %[[UROWS:.+]] = tensor.expand_shape %[[USRC]] {{\[}}[0], [1, 2]] output_shape [32, 2, 32]
// CHECK:         %[[UPANELS:.+]] = linalg.generic {{.*}} ins(%[[UROWS]] : tensor<32x2x32xf32>) outs(%[[UBE]] : tensor<2x32x32xf32>)
// Every panel (K = 32: both stay in L1), in slabs of 14 rows.
// CHECK:           scf.for %[[P:[^ ]+]] = %[[C0]] to %[[C2]] step %[[C1]]
// CHECK:             %[[PCOL:.+]] = arith.muli %[[P]], %[[C32]] : index
// CHECK:             scf.for %[[I:[^ ]+]] = %[[C0]] to %{{.+}} step %[[C1]] iter_args(%[[OS:.+]] = %{{.+}}) -> (tensor<?x64xf32>)
// CHECK:               %[[R0:.+]] = arith.addi %[[OFF]], %{{.+}} : index
// CHECK:               %[[A:.+]] = tensor.extract_slice %[[X]][%[[R0]], 0] [14, 32] [1, 1] : tensor<?x32xf32> to tensor<14x32xf32>
// CHECK:               %[[G:.+]] = tensor.extract_slice %[[GPANELS]][%[[P]], 0, 0] [1, 32, 32] [1, 1, 1] : tensor<2x32x32xf32> to tensor<32x32xf32>
// CHECK:               %[[U:.+]] = tensor.extract_slice %[[UPANELS]][%[[P]], 0, 0] [1, 32, 32] [1, 1, 1] : tensor<2x32x32xf32> to tensor<32x32xf32>
// CHECK:               %[[DEST:.+]] = tensor.extract_slice %[[OS]][%[[R0]], %[[PCOL]]] [14, 32] [1, 1] : tensor<?x64xf32> to tensor<14x32xf32>
// CHECK:               %[[GTILE:.+]] = bufferization.alloc_tensor() : tensor<14x32xf32>
// CHECK:               %[[GACC:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[GTILE]] : tensor<14x32xf32>)
// CHECK:               %[[GATE:.+]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[G]] : tensor<14x32xf32>, tensor<32x32xf32>) outs(%[[GACC]] : tensor<14x32xf32>) attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:               %[[UTILE:.+]] = bufferization.alloc_tensor() : tensor<14x32xf32>
// CHECK:               %[[UACC:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[UTILE]] : tensor<14x32xf32>)
// CHECK:               %[[UP:.+]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[U]] : tensor<14x32xf32>, tensor<32x32xf32>) outs(%[[UACC]] : tensor<14x32xf32>) attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:               %[[H:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[GATE]], %[[UP]] : tensor<14x32xf32>, tensor<14x32xf32>) outs(%[[DEST]] : tensor<14x32xf32>)
// CHECK-NEXT:        ^bb0(%[[GV:.+]]: f32, %[[UV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:          %[[ABS:.+]] = math.absf %[[GV]] : f32
// CHECK-NEXT:          %[[NABS:.+]] = arith.negf %[[ABS]] : f32
// CHECK-NEXT:          %[[EXP:.+]] = math.exp %[[NABS]] : f32
// CHECK-NEXT:          %[[POS:.+]] = arith.cmpf oge, %[[GV]], %[[ZERO]] : f32
// CHECK-NEXT:          %[[NUM:.+]] = arith.select %[[POS]], %[[ONE]], %[[EXP]] : f32
// CHECK-NEXT:          %[[DEN:.+]] = arith.addf %[[EXP]], %[[ONE]] : f32
// CHECK-NEXT:          %[[SIG:.+]] = arith.divf %[[NUM]], %[[DEN]] : f32
// CHECK-NEXT:          %[[SILU:.+]] = arith.mulf %[[GV]], %[[SIG]] : f32
// CHECK-NEXT:          %[[PROD:.+]] = arith.mulf %[[SILU]], %[[UV]] : f32
// CHECK-NEXT:          linalg.yield %[[PROD]] : f32
// CHECK:               tensor.insert_slice %[[H]] into %[[OS]][%[[R0]], %[[PCOL]]] [14, 32] [1, 1] : tensor<14x32xf32> into tensor<?x64xf32>
// The remainder: one slab of its own height (cases of 1 to 13 rows), the
// same two contractions.
// CHECK:             %[[G1:.+]] = tensor.extract_slice %[[GPANELS]]
// CHECK:             %[[U1:.+]] = tensor.extract_slice %[[UPANELS]]
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[G1]] : tensor<1x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<1x32xf32>)
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[U1]] : tensor<1x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<1x32xf32>)
// CHECK:             %[[G13:.+]] = tensor.extract_slice %[[GPANELS]]
// CHECK:             %[[U13:.+]] = tensor.extract_slice %[[UPANELS]]
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[G13]] : tensor<13x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<13x32xf32>) attrs = {mixer.register_tile_rows = 13 : i64}
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[U13]] : tensor<13x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<13x32xf32>) attrs = {mixer.register_tile_rows = 13 : i64}
// Rows past the sum.
// CHECK:       linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<14x64xf32>)
// CHECK-NOT:   tensor<?x64xf32> to tensor<?x64xf32>
// CHECK-NOT:   mixer.grouped_swiglu
func.func @grouped_swiglu(%x: tensor<?x32xf32>, %wg: tensor<4x32x64xf32>, %wu: tensor<4x32x64xf32>, %gs: tensor<4xi64>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_swiglu ins(%x, %wg, %wu, %gs : tensor<?x32xf32>, tensor<4x32x64xf32>, tensor<4x32x64xf32>, tensor<4xi64>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}
