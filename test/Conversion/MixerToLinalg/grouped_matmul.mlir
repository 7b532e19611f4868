// RUN: mixer-opt %s --convert-mixer-to-linalg | FileCheck %s
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" --convert-mixer-to-linalg | FileCheck %s --check-prefix=AVX2
// RUN: mixer-opt %s --mixer-set-target="cpu=skylake-avx512" --convert-mixer-to-linalg | FileCheck %s --check-prefix=AVX512

// mixer.grouped_matmul on the CPU: a loop over the experts carrying the
// output, the packed weights and the running row offset (prefix sum of the
// run-time group sizes). Each expert's [K, N] weight is first packed: its
// columns in panels as wide as the register tile (2 x 16 lanes on the
// default target, AVX-512), each copied into its contiguous [K, 32] slot of
// the [panels, K, 32] buffer. Then the group's rows are covered by static
// slabs of the micro-kernel's 14 rows (14 x 2 accumulators, 2 panel vectors
// and 2 broadcasts in 32 registers), then one slab of the remainder's own
// height (1 to 13 rows, one register block each), chosen by a binary
// search over the heights in scf.if: each panel is then streamed once for
// the remainder, not once per power of two of it. A panel
// this small stays in L1, so each is swept by every slab (@grouped_matmul_large_panels
// below has panels too large for that). Each product accumulates in place
// in its zeroed tile of the output and asks mixer-vectorize-cpu for
// register blocks of 14 rows. Rows past the sum are zeroed in the same slabs.

// CHECK-DAG:   #[[$IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$KPW:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[$PKW:.*]] = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-LABEL: func.func @grouped_matmul
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<?x32xf32>, %[[RHS:[^:]*]]: tensor<4x32x64xf32>, %[[GS:[^:]*]]: tensor<4xi32>, %[[O:[^:]*]]: tensor<?x64xf32>)
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:   %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG:   %[[C14:.+]] = arith.constant 14 : index
// CHECK-DAG:   %[[C32:.+]] = arith.constant 32 : index
// The packed buffer: allocated once, reused by every expert.
// CHECK:       %[[BUF0:.+]] = bufferization.alloc_tensor() : tensor<2x32x32xf32>
// CHECK:       %[[T:.+]] = tensor.dim %[[LHS]], %[[C0]] : tensor<?x32xf32>
// CHECK:       %[[G:.+]]:3 = scf.for %[[E:.+]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[OE:.+]] = %[[O]], %[[BUFE:.+]] = %[[BUF0]], %[[OFF:.+]] = %[[C0]]) -> (tensor<?x64xf32>, tensor<2x32x32xf32>, index)
// CHECK:         %[[SZ:.+]] = tensor.extract %[[GS]][%[[E]]] : tensor<4xi32>
// CHECK:         %[[RAW:.+]] = arith.index_cast %[[SZ]] : i32 to index
// Sizes are clamped to [0, rows left]: never out of bounds.
// CHECK:         %[[NONNEG:.+]] = arith.maxsi %[[RAW]], %{{.+}} : index
// CHECK:         %[[SIZE:.+]] = arith.minsi %[[NONNEG]], %{{.+}} : index
// Pack the two panels of 32 columns, in one pass over the weight's rows:
// [K, N] as [K, panels, 32], copied over (k, p, w) into [panels, K, 32].
// CHECK:         %[[W:.+]] = tensor.extract_slice %[[RHS]][%[[E]], 0, 0] [1, 32, 64] [1, 1, 1] : tensor<4x32x64xf32> to tensor<32x64xf32>
// CHECK:         %[[WROWS:.+]] = tensor.expand_shape %[[W]] {{\[}}[0], [1, 2]] output_shape [32, 2, 32] : tensor<32x64xf32> into tensor<32x2x32xf32>
// CHECK:         %[[PACKED:.+]] = linalg.generic {indexing_maps = [#[[$KPW]], #[[$PKW]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[WROWS]] : tensor<32x2x32xf32>) outs(%[[BUFE]] : tensor<2x32x32xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// Every panel (4 KiB here, K = 32: it stays in L1), in slabs of the
// group's rows.
// CHECK:         %[[OP:.+]] = scf.for %[[P:.+]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[OPI:.+]] = %[[OE]]) -> (tensor<?x64xf32>)
// CHECK:           %[[PCOL:.+]] = arith.muli %[[P]], %[[C32]] : index
// CHECK:           %[[NFULL:.+]] = arith.divui %[[SIZE]], %[[C14]] : index
// CHECK:           %[[O14:.+]] = scf.for %[[I:.+]] = %[[C0]] to %[[NFULL]] step %[[C1]] iter_args(%[[OS:.+]] = %[[OPI]]) -> (tensor<?x64xf32>)
// CHECK:             %[[D:.+]] = arith.muli %[[I]], %[[C14]] : index
// CHECK:             %[[R0:.+]] = arith.addi %[[OFF]], %[[D]] : index
// CHECK:             %[[A:.+]] = tensor.extract_slice %[[LHS]][%[[R0]], 0] [14, 32] [1, 1] : tensor<?x32xf32> to tensor<14x32xf32>
// CHECK:             %[[PANEL:.+]] = tensor.extract_slice %[[PACKED]][%[[P]], 0, 0] [1, 32, 32] [1, 1, 1] : tensor<2x32x32xf32> to tensor<32x32xf32>
// CHECK:             %[[DEST:.+]] = tensor.extract_slice %[[OS]][%[[R0]], %[[PCOL]]] [14, 32] [1, 1] : tensor<?x64xf32> to tensor<14x32xf32>
// CHECK:             %[[ACC:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[DEST]] : tensor<14x32xf32>)
// CHECK:             %[[MM:.+]] = linalg.generic {indexing_maps = [#[[$IK]], #[[$KJ]], #[[$IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[PANEL]] : tensor<14x32xf32>, tensor<32x32xf32>) outs(%[[ACC]] : tensor<14x32xf32>) attrs = {mixer.register_tile_rows = 14 : i64}
// CHECK:               arith.mulf
// CHECK:               arith.addf
// CHECK:             %[[INS:.+]] = tensor.insert_slice %[[MM]] into %[[OS]][%[[R0]], %[[PCOL]]] [14, 32] [1, 1] : tensor<14x32xf32> into tensor<?x64xf32>
// CHECK:             scf.yield %[[INS]]
// The remainder (< 14): one slab of its own height, the heights' cases in
// order 1 to 13 (none for 0).
// CHECK:           %[[DONE:.+]] = arith.muli %[[NFULL]], %[[C14]] : index
// CHECK:           %[[POS:.+]] = arith.addi %[[OFF]], %[[DONE]] : index
// CHECK:           %[[REST:.+]] = arith.subi %[[SIZE]], %[[DONE]] : index
// CHECK:           %[[LOW:.+]] = arith.cmpi ule, %[[REST]], %[[C6]] : index
// CHECK:           %[[ORES:.+]] = scf.if %[[LOW]] -> (tensor<?x64xf32>) {
// CHECK:             arith.cmpi ule, %[[REST]], %[[C0]] : index
// CHECK:               scf.yield %[[O14]] : tensor<?x64xf32>
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [1, 32] [1, 1] : tensor<?x32xf32> to tensor<1x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<1x32xf32>) attrs = {mixer.register_tile_rows = 1 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [2, 32] [1, 1] : tensor<?x32xf32> to tensor<2x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<2x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<2x32xf32>) attrs = {mixer.register_tile_rows = 2 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [3, 32] [1, 1] : tensor<?x32xf32> to tensor<3x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<3x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<3x32xf32>) attrs = {mixer.register_tile_rows = 3 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [4, 32] [1, 1] : tensor<?x32xf32> to tensor<4x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<4x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<4x32xf32>) attrs = {mixer.register_tile_rows = 4 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [5, 32] [1, 1] : tensor<?x32xf32> to tensor<5x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<5x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<5x32xf32>) attrs = {mixer.register_tile_rows = 5 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [6, 32] [1, 1] : tensor<?x32xf32> to tensor<6x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<6x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<6x32xf32>) attrs = {mixer.register_tile_rows = 6 : i64}
// CHECK:           } else {
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [7, 32] [1, 1] : tensor<?x32xf32> to tensor<7x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<7x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<7x32xf32>) attrs = {mixer.register_tile_rows = 7 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [8, 32] [1, 1] : tensor<?x32xf32> to tensor<8x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<8x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<8x32xf32>) attrs = {mixer.register_tile_rows = 8 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [9, 32] [1, 1] : tensor<?x32xf32> to tensor<9x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<9x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<9x32xf32>) attrs = {mixer.register_tile_rows = 9 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [10, 32] [1, 1] : tensor<?x32xf32> to tensor<10x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<10x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<10x32xf32>) attrs = {mixer.register_tile_rows = 10 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [11, 32] [1, 1] : tensor<?x32xf32> to tensor<11x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<11x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<11x32xf32>) attrs = {mixer.register_tile_rows = 11 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [12, 32] [1, 1] : tensor<?x32xf32> to tensor<12x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<12x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<12x32xf32>) attrs = {mixer.register_tile_rows = 12 : i64}
// CHECK:               tensor.extract_slice %[[LHS]][%[[POS]], 0] [13, 32] [1, 1] : tensor<?x32xf32> to tensor<13x32xf32>
// CHECK:               linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<13x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<13x32xf32>) attrs = {mixer.register_tile_rows = 13 : i64}
// CHECK:           scf.yield %[[ORES]] : tensor<?x64xf32>
// CHECK:         %[[NEXT:.+]] = arith.addi %[[OFF]], %[[SIZE]] : index
// CHECK:         scf.yield %[[OP]], %[[PACKED]], %[[NEXT]] : tensor<?x64xf32>, tensor<2x32x32xf32>, index
// Rows past the sum: zero-filled in place, in the same slabs.
// CHECK:       %[[PAST:.+]] = arith.subi %[[T]], %[[G]]#2 : index
// CHECK:       %[[NZ:.+]] = arith.divui %[[PAST]], %[[C14]] : index
// CHECK:       scf.for %{{.+}} = %[[C0]] to %[[NZ]] step %[[C1]] iter_args(%[[OZ:.+]] = %[[G]]#0)
// CHECK:         %[[ZS:.+]] = tensor.extract_slice %[[OZ]][%{{.+}}, 0] [14, 64] [1, 1] : tensor<?x64xf32> to tensor<14x64xf32>
// CHECK:         %[[ZF:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ZS]] : tensor<14x64xf32>)
// CHECK:         tensor.insert_slice %[[ZF]] into %[[OZ]]
// CHECK:       linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<1x64xf32>)
// CHECK-NOT:   mixer.grouped_matmul

// The target decides the tiles. Zen 3 (AVX2, 16 registers of 8 lanes):
// panels of 16 columns, micro-kernels of 6 rows (6 x 2 accumulators, 2
// panel vectors and 2 broadcasts in 16 registers), remainders of 1 to 5
// rows. Skylake-X (AVX-512): panels of 32, micro-kernels of 14 rows,
// remainders of 1 to 13.

// AVX2-LABEL:  func.func @grouped_matmul(
// AVX2:          bufferization.alloc_tensor() : tensor<4x32x16xf32>
// AVX2:          linalg.generic {{.*}} ins(%{{.+}} : tensor<32x4x16xf32>) outs(%{{.+}} : tensor<4x32x16xf32>)
// AVX2:          linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<6x32xf32>, tensor<32x16xf32>) outs(%{{.+}} : tensor<6x16xf32>) attrs = {mixer.register_tile_rows = 6 : i64}
// AVX2:          linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<4x32xf32>, tensor<32x16xf32>) outs(%{{.+}} : tensor<4x16xf32>) attrs = {mixer.register_tile_rows = 4 : i64}
// AVX2:          linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<5x32xf32>, tensor<32x16xf32>) outs(%{{.+}} : tensor<5x16xf32>) attrs = {mixer.register_tile_rows = 5 : i64}
// AVX2-NOT:      tensor<8x32xf32>

// AVX512-LABEL: func.func @grouped_matmul(
// AVX512:         bufferization.alloc_tensor() : tensor<2x32x32xf32>
// AVX512:         linalg.generic {{.*}} ins(%{{.+}} : tensor<32x2x32xf32>) outs(%{{.+}} : tensor<2x32x32xf32>)
// AVX512:         linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<14x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<14x32xf32>) attrs = {mixer.register_tile_rows = 14 : i64}
// AVX512:         linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<13x32xf32>, tensor<32x32xf32>) outs(%{{.+}} : tensor<13x32xf32>) attrs = {mixer.register_tile_rows = 13 : i64}
func.func @grouped_matmul(%lhs: tensor<?x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x32xf32>, tensor<4x32x64xf32>, tensor<4xi32>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}

// N = 40: one full panel of 32 columns, then the last 8 columns packed into
// the leading columns of the second slot of the buffer.

// CHECK-LABEL: func.func @grouped_matmul_narrow_panel
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<?x24xf32>, %[[RHS:[^:]*]]: tensor<3x24x40xf32>
// CHECK:       bufferization.alloc_tensor() : tensor<2x24x32xf32>
// CHECK:       scf.for
// CHECK:         scf.for {{.*}} -> (tensor<2x24x32xf32>)
// CHECK:           linalg.copy ins(%{{.+}} : tensor<24x32xf32>)
// CHECK:         %[[TAILSRC:.+]] = tensor.extract_slice %[[RHS]][%{{.+}}, 0, 32] [1, 24, 8] [1, 1, 1] : tensor<3x24x40xf32> to tensor<24x8xf32>
// CHECK:         %[[TAILSLOT:.+]] = tensor.extract_slice %{{.+}}[1, 0, 0] [1, 24, 8] [1, 1, 1] : tensor<2x24x32xf32> to tensor<24x8xf32>
// CHECK:         %[[TAIL:.+]] = linalg.copy ins(%[[TAILSRC]] : tensor<24x8xf32>) outs(%[[TAILSLOT]] : tensor<24x8xf32>)
// CHECK:         tensor.insert_slice %[[TAIL]] into %{{.+}}[1, 0, 0] [1, 24, 8] [1, 1, 1] : tensor<24x8xf32> into tensor<2x24x32xf32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<14x24xf32>, tensor<24x32xf32>) outs(%{{.+}} : tensor<14x32xf32>)
// The last panel, read where it was packed.
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[TAIL]] : tensor<14x24xf32>, tensor<24x8xf32>) outs(%{{.+}} : tensor<14x8xf32>)
// CHECK:             tensor.insert_slice %{{.+}} into %{{.+}}[%{{.+}}, 32] [14, 8] [1, 1] : tensor<14x8xf32> into tensor<?x40xf32>
func.func @grouped_matmul_narrow_panel(%lhs: tensor<?x24xf32>, %rhs: tensor<3x24x40xf32>, %gs: tensor<3xi64>, %o: tensor<?x40xf32>) -> tensor<?x40xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x24xf32>, tensor<3x24x40xf32>, tensor<3xi64>) outs(%o : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %out : tensor<?x40xf32>
}

// Few rows per expert (T = 64 over E = 4: 16 on average, fewer than the 8
// slabs of 14 rows that repay packing): no packed buffer and no copy; each
// slab's product reads its panel in place, columns [p * 32, p * 32 + 32) of
// rhs[e] ([K, 32] of the [K, N] weight), and, as a panel read in place
// does not stay in L1 (its rows are N floats apart), asks for its own rows
// 16 ahead to be prefetched into L1 (mixer-prefetch-rows); nothing of the
// next expert's weights, whose rows lie as far apart. The target's tiles
// still apply: AVX2 panels of 16 columns, 6-row micro-kernels.

// CHECK-LABEL: func.func @grouped_matmul_few_rows
// CHECK-SAME:    (%[[LHS:[^:]*]]: tensor<64x32xf32>, %[[RHS:[^:]*]]: tensor<4x32x64xf32>
// CHECK-NOT:     bufferization.alloc_tensor
// CHECK-NOT:     linalg.copy
// CHECK:         scf.for %[[E:.+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<64x64xf32>, index)
// CHECK:             scf.for %[[P:.+]] = %{{.*}} to %c2 step
// CHECK:             %[[COL:.+]] = arith.muli %[[P]], %{{.*}} : index
// CHECK:             %[[PANEL:.+]] = tensor.extract_slice %[[RHS]][%[[E]], 0, %[[COL]]] [1, 32, 32] [1, 1, 1] : tensor<4x32x64xf32> to tensor<32x32xf32>
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %[[PANEL]] : tensor<14x32xf32>, tensor<32x32xf32>) {{.*}} attrs = {mixer.prefetch_panel_rows = 16 : i64, mixer.register_tile_rows = 14 : i64}
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %[[PANEL]] : tensor<1x32xf32>, tensor<32x32xf32>) {{.*}} attrs = {mixer.prefetch_panel_rows = 16 : i64, mixer.register_tile_rows = 1 : i64}
// CHECK-NOT:     linalg.copy
// CHECK:         return

// AVX2-LABEL:  func.func @grouped_matmul_few_rows(
// AVX2-NOT:      linalg.copy
// AVX2:          linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<6x32xf32>, tensor<32x16xf32>) outs(%{{.+}} : tensor<6x16xf32>) attrs = {mixer.prefetch_panel_rows = 16 : i64, mixer.register_tile_rows = 6 : i64}
func.func @grouped_matmul_few_rows(%lhs: tensor<64x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi32>, %o: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x32xf32>, tensor<4x32x64xf32>, tensor<4xi32>) outs(%o : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %out : tensor<64x64xf32>
}

// Many rows per expert (T = 1344 over E = 4: 336, 24 slabs of 14): packed
// as with a dynamic T, and no prefetch: the packed panels (4 KiB) stay in
// L1 while every slab sweeps them.

// CHECK-LABEL: func.func @grouped_matmul_many_rows
// CHECK:         bufferization.alloc_tensor() : tensor<2x32x32xf32>
// CHECK:         tensor.expand_shape {{.*}} into tensor<32x2x32xf32>
// CHECK-NOT:     mixer.prefetch_rows_ahead
// CHECK-NOT:     mixer.prefetch_panel_rows
// CHECK:         return
func.func @grouped_matmul_many_rows(%lhs: tensor<1344x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi32>, %o: tensor<1344x64xf32>) -> tensor<1344x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<1344x32xf32>, tensor<4x32x64xf32>, tensor<4xi32>) outs(%o : tensor<1344x64xf32>) -> tensor<1344x64xf32>
  return %out : tensor<1344x64xf32>
}

// 256 rows per expert (T = 1024 over E = 4): with AVX-512, 18 slabs of 14
// rows, fewer than the 24 that repay packing: the weights are read in
// place (and the next expert's not prefetched); with AVX2, 42 slabs of 6:
// packed.

// AVX2-LABEL:  func.func @grouped_matmul_rows_between_targets
// AVX2:          tensor.expand_shape {{.*}} into tensor<32x4x16xf32>
// AVX2-NOT:      mixer.prefetch_rows_ahead
// AVX2:          return
// AVX512-LABEL: func.func @grouped_matmul_rows_between_targets
// AVX512-NOT:     tensor.expand_shape
// AVX512-NOT:     mixer.prefetch_rows_ahead
// AVX512:         mixer.prefetch_panel_rows
// AVX512-NOT:     tensor.expand_shape
// AVX512-NOT:     mixer.prefetch_rows_ahead
// AVX512:         return
func.func @grouped_matmul_rows_between_targets(%lhs: tensor<1024x32xf32>, %rhs: tensor<4x32x64xf32>, %gs: tensor<4xi32>, %o: tensor<1024x64xf32>) -> tensor<1024x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<1024x32xf32>, tensor<4x32x64xf32>, tensor<4xi32>) outs(%o : tensor<1024x64xf32>) -> tensor<1024x64xf32>
  return %out : tensor<1024x64xf32>
}

// K = 512: a panel is 64 KiB, more than half of L1 (48 KiB on the default
// target). Each slab of 14 rows (28 KiB) stays in L1 instead and sweeps
// both panels, which stream past it from L2: the panel loop inside the
// slab loop.
// CHECK-LABEL: func.func @grouped_matmul_large_panels
// CHECK:         scf.for %{{.+}} iter_args({{.*}}) -> (tensor<?x64xf32>, tensor<2x512x32xf32>, index)
// CHECK:           tensor.expand_shape {{.*}} into tensor<512x2x32xf32>
// CHECK:           linalg.generic {{.*}} ins(%{{.+}} : tensor<512x2x32xf32>) outs(%{{.+}} : tensor<2x512x32xf32>)
// CHECK:           scf.for %[[I:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>)
// CHECK:             %[[A:.+]] = tensor.extract_slice %{{.+}}[%{{.+}}, 0] [14, 512] [1, 1]
// CHECK:             scf.for %[[Q:[^ ]+]] = {{.*}} -> (tensor<?x64xf32>)
// CHECK:               %[[PANEL:.+]] = tensor.extract_slice %{{.+}}[%[[Q]], 0, 0] [1, 512, 32] [1, 1, 1]
// CHECK:               linalg.generic {{.*}} ins(%[[A]], %[[PANEL]] : tensor<14x512xf32>, tensor<512x32xf32>)
func.func @grouped_matmul_large_panels(%lhs: tensor<?x512xf32>, %rhs: tensor<4x512x64xf32>, %gs: tensor<4xi32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x512xf32>, tensor<4x512x64xf32>, tensor<4xi32>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}
