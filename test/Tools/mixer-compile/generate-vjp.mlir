// RUN: mixer-compile %s -o %t.o --header %t.h --generate-vjp
// RUN: FileCheck %s < %t.h
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
// RUN: mixer-compile %s -o %t.plain.o --header %t.plain.h
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.h
// RUN: mixer-compile %s -o %t.opt.o --header %t.opt.h --pipeline-options=generate-vjp=1
// RUN: FileCheck %s < %t.opt.h
// RUN: not mixer-compile %S/Inputs/not-differentiable.mlir -o %t.bad.o --generate-vjp 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERROR

// With --generate-vjp the header declares @gate_vjp beside @gate, its
// arguments named after @gate's.
// CHECK-LABEL: /* @gate
// CHECK: void _mlir_ciface_gate(mixer_memref_f32_2d *y, mixer_memref_f32_2d *z, mixer_memref_f32_2d *out);
// CHECK-LABEL: /* @gate_vjp
// CHECK-NEXT:  *   y      f32 [?, 8]  input
// CHECK-NEXT:  *   z      f32 [?, 8]  input
// CHECK-NEXT:  *   d_out  f32 [?, 8]  input
// CHECK-NEXT:  *   d_y    f32 [?, 8]  output, written in place
// CHECK-NEXT:  *   d_z    f32 [?, 8]  output, written in place
// CHECK-NEXT:  */
// CHECK-NEXT: void _mlir_ciface_gate_vjp(mixer_memref_f32_2d *y, mixer_memref_f32_2d *z, mixer_memref_f32_2d *d_out, mixer_memref_f32_2d *d_y, mixer_memref_f32_2d *d_z);

// OBJ: T _mlir_ciface_gate
// OBJ: T _mlir_ciface_gate_vjp

// PLAIN-NOT: gate_vjp

// ERROR: not-differentiable.mlir:{{[0-9]+}}:{{[0-9]+}}: error: mixer-generate-vjp cannot differentiate 'math.sin' in the body of a linalg.generic
// ERROR: mixer-compile: error: cannot differentiate the functions of '{{.*}}not-differentiable.mlir'

func.func @gate(%y: tensor<?x8xf32>, %z: tensor<?x8xf32>,
                %out: tensor<?x8xf32> {bufferization.writable = true}) -> tensor<?x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y, %z : tensor<?x8xf32>, tensor<?x8xf32>) outs(%out : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = math.tanh %b : f32
    %m = arith.mulf %a, %t : f32
    linalg.yield %m : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
