// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="target-cpu=znver3" --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZNVER3-PIPE
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="target-cpu=skylake-avx512" --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SKX-PIPE
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="target-cpu=znver3 vector-width=4" --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WIDTH-PIPE
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="target-cpu=znver3" | FileCheck %s --check-prefix=AVX2
// RUN: mixer-opt %s --mixer-lower-to-cpu-pipeline="target-cpu=znver5" | FileCheck %s --check-prefix=AVX512
// RUN: mixer-opt %s --mixer-set-target="cpu=znver3" --mixer-lower-to-cpu-pipeline | FileCheck %s --check-prefix=AVX2

// A named target CPU: the pipeline attaches its description first and
// spells out the tiles it chose; the rest of the pipeline is the same.

// ZNVER3-PIPE:      builtin.module(
// ZNVER3-PIPE-NEXT:   mixer-set-target{chip= cpu=znver3 features= overrides= threads-per-block=0},
// ZNVER3-PIPE-NEXT:   mixer-insert-runtime-checks,
// ZNVER3-PIPE:          mixer-tile-parallel-dims{row-block=64},
// ZNVER3-PIPE:          mixer-vectorize-cpu{block-accumulators=12 row-tile=6 vector-width=8},

// SKX-PIPE:      mixer-set-target{chip= cpu=skylake-avx512 features= overrides= threads-per-block=0},
// SKX-PIPE:      mixer-vectorize-cpu{block-accumulators=24 row-tile=8 vector-width=16},

// An explicit vector width wins over the target's.
// WIDTH-PIPE:    mixer-vectorize-cpu{block-accumulators=12 row-tile=6 vector-width=4},

// The register blocks of the contractions follow the vector registers: rows
// of 2 x 8 lanes with AVX2 (Zen 3), 2 x 16 with AVX-512 (Zen 5), whether the
// target is named by the pipeline or attached to the module before it (P =
// 32: the products into y and the state are 32 columns wide). The tail's
// token step multiplies one row, c_t St, which takes all 32 columns in one
// block (4 vectors of 8 with AVX2, 2 of 16 with AVX-512: as many
// accumulators as a block of rows). (The outer-product FMAs are fmuladd;
// the fma of exp's polynomial is on whole rows of 32.)

// AVX2:       llvm.func @ssd(
// AVX2-NOT:     llvm.intr.fmuladd({{.*}}) : (vector<64xf32>
// AVX2:         llvm.intr.fmuladd({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// AVX2-NOT:     llvm.intr.fmuladd({{.*}}) : (vector<64xf32>
// AVX2:       llvm.func @_mlir_ciface_ssd(

// (With AVX-512 the causal products' first column block of 16, up to the
// diagonal, takes one vector per row: no AVX2-sized rows of 8.)
// AVX512:     llvm.func @ssd(
// AVX512-NOT:   llvm.intr.fmuladd({{.*}}) : (vector<8xf32>
// AVX512:       llvm.intr.fmuladd({{.*}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
// AVX512-NOT:   llvm.intr.fmuladd({{.*}}) : (vector<8xf32>
// AVX512:     llvm.func @_mlir_ciface_ssd(
func.func @ssd(%x: tensor<1x100x2x32xf32>, %la: tensor<1x100x2xf32>,
               %b: tensor<1x100x1x8xf32>, %c: tensor<1x100x1x8xf32>,
               %h: tensor<1x2x32x8xf32>,
               %y0: tensor<1x100x2x32xf32> {bufferization.writable = true},
               %s0: tensor<1x2x32x8xf32> {bufferization.writable = true})
    -> (tensor<1x100x2x32xf32>, tensor<1x2x32x8xf32>) {
  %y, %s = mixer.ssd chunk_size(32)
      ins(%x, %la, %b, %c : tensor<1x100x2x32xf32>, tensor<1x100x2xf32>,
                            tensor<1x100x1x8xf32>, tensor<1x100x1x8xf32>)
      init(%h : tensor<1x2x32x8xf32>)
      outs(%y0, %s0 : tensor<1x100x2x32xf32>, tensor<1x2x32x8xf32>)
      -> tensor<1x100x2x32xf32>, tensor<1x2x32x8xf32>
  return %y, %s : tensor<1x100x2x32xf32>, tensor<1x2x32x8xf32>
}
