// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" --convert-mixer-to-linalg --mixer-vectorize-cpu | FileCheck %s --check-prefix=AVX2
// RUN: mixer-opt %s --mixer-set-target="cpu=skylake-avx512" --convert-mixer-to-linalg --mixer-vectorize-cpu | FileCheck %s --check-prefix=AVX512

// The micro-kernel of mixer.grouped_matmul follows the target's registers:
// the contraction of a slab with a packed panel asks for register blocks of
// its rows (mixer.register_tile_rows), and mixer-vectorize-cpu holds that
// block of accumulators in registers across the whole K loop (K = 128: one
// loop of 128 steps, each a row of FMAs per accumulator row). Zen 3 (AVX2,
// 16 registers of 8 lanes): 6 x 16 (12 ymm accumulators). Skylake-X
// (AVX-512, 32 of 16): 14 x 32 (28 zmm accumulators). The panels are
// packed first, along each row of the weight, a panel's width at a time. The output's zero fill
// goes into each block: its accumulators start as zeros in registers, not
// as a read of zeros written before.

// AVX2-LABEL:  func.func @grouped_matmul
// AVX2:          %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<6x16xf32>
// AVX2:          tensor.extract_slice {{.*}} [1, 1, 16] [1, 1, 1] : tensor<128x4x16xf32> to tensor<1x1x16xf32>
// AVX2:          tensor.insert_slice {{.*}} [1, 1, 16] [1, 1, 1] : tensor<1x1x16xf32> into tensor<4x128x16xf32>
// AVX2:          %[[ACC:.+]]:{{[0-9]}} = scf.for %{{.+}} = %{{.+}} to %c128 step %c1 iter_args({{.*}}, %{{.+}} = %[[ZERO]]) -> ({{.*}}, vector<6x16xf32>)
// AVX2-COUNT-6:    vector.fma {{.*}} : vector<16xf32>
// AVX2-NOT:        vector.fma
// AVX2:            scf.yield {{.*}} : {{.*}}, vector<6x16xf32>
// AVX2:          vector.transfer_write %[[ACC]]#{{[0-9]}}, {{.*}} : vector<6x16xf32>, tensor<6x16xf32>

// AVX512-LABEL: func.func @grouped_matmul
// AVX512:         %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<14x32xf32>
// AVX512:         tensor.extract_slice {{.*}} [1, 1, 32] [1, 1, 1] : tensor<128x2x32xf32> to tensor<1x1x32xf32>
// AVX512:         tensor.insert_slice {{.*}} [1, 1, 32] [1, 1, 1] : tensor<1x1x32xf32> into tensor<2x128x32xf32>
// AVX512:         %[[ACC:.+]]:{{[0-9]}} = scf.for %{{.+}} = %{{.+}} to %c128 step %c1 iter_args({{.*}}, %{{.+}} = %[[ZERO]]) -> ({{.*}}, vector<14x32xf32>)
// AVX512-COUNT-14:  vector.fma {{.*}} : vector<32xf32>
// AVX512-NOT:       vector.fma
// AVX512:           scf.yield {{.*}} : {{.*}}, vector<14x32xf32>
// AVX512:         vector.transfer_write %[[ACC]]#{{[0-9]}}, {{.*}} : vector<14x32xf32>, tensor<14x32xf32>
// A group's last rows are one slab of their own height, each one register
// block of that many rows (13 rows: 13 x 2 accumulators), not blocks of a
// row each.
// AVX512:         scf.if
// AVX512:           scf.for %{{.+}} = %{{.+}} to %c128 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<1x32xf32>)
// AVX512:           scf.for %{{.+}} = %{{.+}} to %c128 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<7x32xf32>)
// AVX512-COUNT-7:     vector.fma {{.*}} : vector<32xf32>
// AVX512-NOT:         vector.fma
// AVX512:             scf.yield {{.*}} : {{.*}}, vector<7x32xf32>
// AVX512:           scf.for %{{.+}} = %{{.+}} to %c128 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<13x32xf32>)
// AVX512-COUNT-13:    vector.fma {{.*}} : vector<32xf32>
// AVX512-NOT:         vector.fma
// AVX512:             scf.yield {{.*}} : {{.*}}, vector<13x32xf32>
func.func @grouped_matmul(%lhs: tensor<?x128xf32>, %rhs: tensor<4x128x64xf32>, %gs: tensor<4xi64>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x128xf32>, tensor<4x128x64xf32>, tensor<4xi64>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}

// A deep contraction (K = 512, more than the cache blocks of 256 or 128 of
// a general contraction) keeps one K loop: the lowering already blocked the
// rows and panels for the caches, so the accumulators stay in registers
// from the first step to the last, with no store and reload between blocks.
// Its panels (32 KiB with AVX2, 64 KiB with AVX-512) stream from L2 past
// each slab, and the panel's prefetch into L1 goes to that K loop too.
// AVX2-LABEL:  func.func @grouped_matmul_deep
// AVX2:          scf.for %{{.+}} = %{{.+}} to %c512 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<6x16xf32>)
// AVX2-COUNT-6:    vector.fma {{.*}} : vector<16xf32>
// AVX2:          } {mixer.prefetch_panel_rows = 16 : i64}
// AVX2-NOT:      scf.for %{{.+}} = %{{.+}} to %c128 step %c1
// AVX512-LABEL: func.func @grouped_matmul_deep
// AVX512:         scf.for %{{.+}} = %{{.+}} to %c512 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<14x32xf32>)
// AVX512-COUNT-14:  vector.fma {{.*}} : vector<32xf32>
// AVX512:         } {mixer.prefetch_panel_rows = 16 : i64}
// AVX512-NOT:     scf.for %{{.+}} = %{{.+}} to %c256 step %c1
func.func @grouped_matmul_deep(%lhs: tensor<?x512xf32>, %rhs: tensor<4x512x64xf32>, %gs: tensor<4xi64>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x512xf32>, tensor<4x512x64xf32>, tensor<4xi64>) outs(%o : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %out : tensor<?x64xf32>
}

// Few rows per expert (T = 64 over E = 4): the panels are read in place
// and each product asks to prefetch its own rows 16 ahead into L1; the
// attribute goes to the micro-kernel's K loop, the loop that carries the
// accumulators, for mixer-prefetch-rows.
// AVX2-LABEL:  func.func @grouped_matmul_prefetch
// AVX2:          scf.for %{{.+}} = %{{.+}} to %c128 step %c1 iter_args({{.*}}) -> ({{.*}}vector<6x16xf32>)
// AVX2-COUNT-6:    vector.fma {{.*}} : vector<16xf32>
// AVX2:          } {mixer.prefetch_panel_rows = 16 : i64}
// AVX512-LABEL: func.func @grouped_matmul_prefetch
// AVX512:         scf.for %{{.+}} = %{{.+}} to %c128 step %c1 iter_args({{.*}}) -> ({{.*}}vector<14x32xf32>)
// AVX512-COUNT-14:  vector.fma {{.*}} : vector<32xf32>
// AVX512:         } {mixer.prefetch_panel_rows = 16 : i64}
func.func @grouped_matmul_prefetch(%lhs: tensor<64x128xf32>, %rhs: tensor<4x128x64xf32>, %gs: tensor<4xi64>, %o: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x128xf32>, tensor<4x128x64xf32>, tensor<4xi64>) outs(%o : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %out : tensor<64x64xf32>
}

// The same over weights packed beforehand in panels of 16 ([E, P, K, 16]):
// each product also asks to prefetch the same panel of the next expert,
// P * K = 512 rows of the panels' buffer further, from its K loop; the
// packed panels (8 KiB) stay in L1 and get no L1 prefetch.
// AVX2-LABEL:  func.func @grouped_matmul_packed_prefetch
// AVX2:          scf.for %{{.+}} = %{{.+}} to %c128 step %c1 iter_args({{.*}}) -> ({{.*}}vector<6x16xf32>)
// AVX2-COUNT-6:    vector.fma {{.*}} : vector<16xf32>
// AVX2:          } {mixer.prefetch_rows_ahead = 512 : i64}
// AVX512-LABEL: func.func @grouped_matmul_packed_prefetch
// AVX512:         scf.for %{{.+}} = %{{.+}} to %c128 step %c1 iter_args({{.*}}) -> ({{.*}}vector<14x16xf32>)
// AVX512-COUNT-14:  vector.fma {{.*}} : vector<16xf32>
// AVX512:         } {mixer.prefetch_rows_ahead = 512 : i64}
func.func @grouped_matmul_packed_prefetch(%lhs: tensor<64x128xf32>, %rhs: tensor<4x4x128x16xf32>, %gs: tensor<4xi64>, %o: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %out = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<64x128xf32>, tensor<4x4x128x16xf32>, tensor<4xi64>) outs(%o : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %out : tensor<64x64xf32>
}
