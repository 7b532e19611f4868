// RUN: mixer-compile %s -o - --emit=mlir | FileCheck %s --check-prefix=MLIR
// RUN: mixer-compile %s -o - --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: mixer-compile %s -o %t.avx2.o --mcpu=x86-64-v3 && llvm-objdump -d %t.avx2.o | FileCheck %s --check-prefix=AVX2
// RUN: mixer-compile %s -o %t.o && llvm-nm %t.o | FileCheck %s --check-prefix=OBJ

// The wrapped function becomes internal: only the C wrapper is exported.
// MLIR: llvm.func internal @add(
// MLIR: llvm.func @_mlir_ciface_add(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)

// LLVM: define void @_mlir_ciface_add(ptr {{.*}}, ptr {{.*}}, ptr {{.*}})
// LLVM-NOT: define {{.*}} @add(

// --mcpu reaches code generation: AVX2 registers only, no AVX-512.
// AVX2: <_mlir_ciface_add>:
// AVX2: ymm
// AVX2-NOT: zmm

// OBJ-NOT: {{ T add$}}
// OBJ: T _mlir_ciface_add
// OBJ-NOT: {{ T add$}}

func.func @add(%x: tensor<256xf32>, %y: tensor<256xf32>,
               %out: tensor<256xf32> {bufferization.writable = true}) -> tensor<256xf32> {
  %r = linalg.add ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%out : tensor<256xf32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
