// RUN: mixer-compile %s -o - --emit=mlir --mcpu=znver3 | FileCheck %s --check-prefix=AVX2
// RUN: mixer-compile %s -o - --emit=mlir --mcpu=znver5 --mattr=-avx512f | FileCheck %s --check-prefix=AVX2
// RUN: mixer-compile %s -o - --emit=mlir --mcpu=znver5 | FileCheck %s --check-prefix=AVX512
// RUN: mixer-compile %s -o - --emit=mlir --mcpu=skylake-avx512 | FileCheck %s --check-prefix=AVX512
// RUN: mixer-compile %s -o - --emit=mlir --mcpu=sapphirerapids | FileCheck %s --check-prefix=AVX512
// RUN: mixer-compile %s -o - --emit=mlir --mcpu=znver3 --pipeline-options="target-overrides=register_tile_rows=2" | FileCheck %s --check-prefix=OVERRIDE

// The module is compiled for the CPU of --mcpu/--mattr: its TargetMachine's
// features decide the target description the lowerings read (and the
// description stays on the module).

// AVX2:   mixer.target = {{{.*}}register_tile_rows = 6 : i64{{.*}}vector_registers = 16 : i64, vector_width = 8 : i64}
// AVX2:   llvm.func @_mlir_ciface_add(

// AVX512: mixer.target = {{{.*}}register_tile_rows = 8 : i64{{.*}}vector_registers = 32 : i64, vector_width = 16 : i64}
// AVX512: llvm.func @_mlir_ciface_add(

// Target overrides change the description of that CPU, not that of the
// compiling machine.
// OVERRIDE: mixer.target = {{{.*}}register_tile_rows = 2 : i64{{.*}}vector_registers = 16 : i64, vector_width = 8 : i64}

func.func @add(%x: tensor<256xf32>, %y: tensor<256xf32>,
               %out: tensor<256xf32> {bufferization.writable = true}) -> tensor<256xf32> {
  %r = linalg.add ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%out : tensor<256xf32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
