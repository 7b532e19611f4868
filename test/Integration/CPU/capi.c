// The C API end to end: compile a module from text, introspect it, call it
// on caller-owned arrays, and get a status and a message for every kind of
// bad input without an abort.
//
// RUN: %clang -O1 -Wall -Werror %sanitize_flags -I%mixer_include_dir %s -L%mixer_lib_dir -lMixerCAPI -Wl,-rpath,%mixer_lib_dir -lm -o %t
// RUN: %t 2>&1 | FileCheck %s

#include "mixer-c/Mixer.h"

#include "Inputs/capi_memref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *kModule =
    "func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>,\n"
    "                  %c: tensor<8x4xf32> {bufferization.writable = true})\n"
    "    -> tensor<8x4xf32> {\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<8x4xf32>) -> "
    "tensor<8x4xf32>\n"
    "  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>)\n"
    "                     outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>\n"
    "  return %r : tensor<8x4xf32>\n"
    "}\n"
    "func.func @scale(%x: tensor<?x4xf32>, %s: f32,\n"
    "                 %out: tensor<?x4xf32> {bufferization.writable = true})\n"
    "    -> tensor<?x4xf32> {\n"
    "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,\n"
    "                                        affine_map<(i, j) -> (i, j)>],\n"
    "                       iterator_types = [\"parallel\", \"parallel\"]}\n"
    "      ins(%x : tensor<?x4xf32>) outs(%out : tensor<?x4xf32>) {\n"
    "  ^bb0(%v: f32, %o: f32):\n"
    "    %m = arith.mulf %v, %s : f32\n"
    "    linalg.yield %m : f32\n"
    "  } -> tensor<?x4xf32>\n"
    "  return %r : tensor<?x4xf32>\n"
    "}\n";

static void expectError(mixer_context_t ctx, const char *what,
                        mixer_status_t status) {
  printf("%s: status %d: %s\n", what, (int)status, mixerGetLastError(ctx));
}

int main(void) {
  mixer_context_t ctx = mixerContextCreate();
  mixer_module_t module = NULL;
  mixer_status_t status =
      mixerModuleCompile(ctx, kModule, "num-threads=2 naive=0", &module);
  printf("compile: status %d\n", (int)status);
  // CHECK: compile: status 0
  if (status != MIXER_SUCCESS) {
    printf("%s\n", mixerGetLastError(ctx));
    return 1;
  }

  // Introspection.
  int numArgs = 0, numResults = 0;
  mixerModuleGetFunction(module, "scale", &numArgs, &numResults);
  printf("functions: %d (%s, %s); scale: %d arguments, %d results\n",
         mixerModuleGetNumFunctions(module),
         mixerModuleGetFunctionName(module, 0),
         mixerModuleGetFunctionName(module, 1), numArgs, numResults);
  // CHECK: functions: 2 (matmul, scale); scale: 3 arguments, 1 results
  for (int i = 0; i < numArgs; ++i) {
    mixer_argument_info_t info;
    mixerModuleGetArgument(module, "scale", i, &info);
    printf("  %s: type %d tensor %d output %d rank %d", info.name,
           (int)info.elementType, info.isTensor, info.isOutput, info.rank);
    for (int d = 0; d < info.rank; ++d)
      printf(" %lld", (long long)info.shape[d]);
    printf("\n");
  }
  // CHECK-NEXT: x: type 0 tensor 1 output 0 rank 2 -1 4
  // CHECK-NEXT: s: type 0 tensor 0 output 0 rank 0
  // CHECK-NEXT: out: type 0 tensor 1 output 1 rank 2 -1 4

  // A call, checked against C.
  float a[8 * 16], b[16 * 4], c[8 * 4];
  for (int i = 0; i < 8 * 16; ++i)
    a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (int i = 0; i < 16 * 4; ++i)
    b[i] = (float)((i * 11) % 17) / 17.0f - 0.5f;
  memref2d da = make2d(a, 8, 16), db = make2d(b, 16, 4), dc = make2d(c, 8, 4);
  void *args[] = {&da, &db, &dc};
  status = mixerModuleCall(module, "matmul", args, 3);
  double maxError = 0, maxRef = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) {
      double ref = 0;
      for (int k = 0; k < 16; ++k)
        ref += (double)a[i * 16 + k] * b[k * 4 + j];
      maxError = fmax(maxError, fabs(c[i * 4 + j] - ref));
      maxRef = fmax(maxRef, fabs(ref));
    }
  printf("matmul: status %d, max relative error %.3g %s\n", (int)status,
         maxError / maxRef, maxError / maxRef < 1e-5 ? "PASS" : "FAIL");
  // CHECK: matmul: status 0, max relative error {{.*}} PASS

  // A scalar argument is passed by the address of its value; `?` takes any
  // size.
  float x[3 * 4], out[3 * 4], s = 2.5f;
  for (int i = 0; i < 12; ++i)
    x[i] = (float)i;
  memref2d dx = make2d(x, 3, 4), dout = make2d(out, 3, 4);
  void *scaleArgs[] = {&dx, &s, &dout};
  status = mixerModuleCall(module, "scale", scaleArgs, 3);
  int scaleOk = 1;
  for (int i = 0; i < 12; ++i)
    scaleOk &= out[i] == 2.5f * i;
  printf("scale: status %d %s\n", (int)status, scaleOk ? "PASS" : "FAIL");
  // CHECK: scale: status 0 PASS

  // Bad calls: nothing runs, the message names the argument.
  expectError(ctx, "unknown function", mixerModuleCall(module, "nope", args, 3));
  // CHECK: unknown function: status 6: no public function named 'nope'; the module has 'matmul', 'scale'
  expectError(ctx, "argument count", mixerModuleCall(module, "matmul", args, 2));
  // CHECK: argument count: status 7: 'matmul' takes 3 arguments, got 2
  memref2d wrong = make2d(c, 8, 5);
  void *wrongArgs[] = {&da, &db, &wrong};
  expectError(ctx, "shape", mixerModuleCall(module, "matmul", wrongArgs, 3));
  // CHECK: shape: status 7: argument #2 ('c') of 'matmul' has sizes [8, 5], expected [8, 4] (dim 1 is 5)
  memref2d strided = make2d(a, 8, 16);
  strided.strides[0] = 32;
  void *stridedArgs[] = {&strided, &db, &dc};
  expectError(ctx, "strides", mixerModuleCall(module, "matmul", stridedArgs, 3));
  // CHECK: strides: status 7: argument #0 ('a') of 'matmul' has strides [32, 1]; tensors must be dense and row-major (dim 0 must have stride 16)
  memref2d shifted = make2d(b, 16, 4);
  shifted.offset = 4;
  void *shiftedArgs[] = {&da, &shifted, &dc};
  expectError(ctx, "offset", mixerModuleCall(module, "matmul", shiftedArgs, 3));
  // CHECK: offset: status 7: argument #1 ('b') of 'matmul' has offset 4; pass the address of its first element as 'aligned' with offset 0
  void *nullArgs[] = {&da, NULL, &dc};
  expectError(ctx, "null", mixerModuleCall(module, "matmul", nullArgs, 3));
  // CHECK: null: status 7: argument #1 ('b') of 'matmul' is null
  memref2d negative = make2d(x, -1, 4);
  void *negativeArgs[] = {&negative, &s, &dout};
  expectError(ctx, "negative", mixerModuleCall(module, "scale", negativeArgs, 3));
  // CHECK: negative: status 7: argument #0 ('x') of 'scale' has sizes [-1, 4], expected [?, 4] (dim 0 is -1)

  // An output may not share a byte with another argument.
  memref2d intoA = make2d(a + 4, 8, 4);
  void *intoAArgs[] = {&da, &db, &intoA};
  expectError(ctx, "alias", mixerModuleCall(module, "matmul", intoAArgs, 3));
  // CHECK: alias: status 7: argument #2 ('c') of 'matmul' overlaps argument #0 ('a'); outputs must not alias other arguments
  float buffer[2 * 12];
  for (int i = 0; i < 24; ++i)
    buffer[i] = (float)i;
  memref2d first = make2d(buffer, 3, 4), lastByOne = make2d(buffer + 11, 3, 4);
  void *lastByOneArgs[] = {&first, &s, &lastByOne};
  expectError(ctx, "one element",
              mixerModuleCall(module, "scale", lastByOneArgs, 3));
  // CHECK: one element: status 7: argument #2 ('out') of 'scale' overlaps argument #0 ('x'); outputs must not alias other arguments
  memref2d next = make2d(buffer + 12, 3, 4);
  void *adjacentArgs[] = {&first, &s, &next};
  status = mixerModuleCall(module, "scale", adjacentArgs, 3);
  printf("adjacent: status %d, out[1] %g\n", (int)status, buffer[13]);
  // CHECK: adjacent: status 0, out[1] 2.5
  memref2d empty = make2d(buffer, 0, 4);
  void *emptyArgs[] = {&empty, &s, &empty};
  printf("empty: status %d\n",
         (int)mixerModuleCall(module, "scale", emptyArgs, 3));
  // CHECK: empty: status 0

  // Bad modules.
  mixer_module_t bad = NULL;
  expectError(ctx, "options",
              mixerModuleCompile(ctx, kModule, "num-threads=two", &bad));
  // CHECK: options: status 1: invalid options 'num-threads=two': option 'num-threads' takes an integer, got 'two'
  expectError(ctx, "parse",
              mixerModuleCompile(ctx, "func.func @f(%x: tensor<4xf32>) {\n"
                                      "  linalg.nonexistent\n}\n",
                                 NULL, &bad));
  // CHECK: parse: status 2: cannot parse the module:
  // CHECK-NEXT: <source>:2:3: error: custom op 'linalg.nonexistent' is unknown
  expectError(
      ctx, "verify",
      mixerModuleCompile(
          ctx,
          "func.func @f(%x: tensor<4xf32>, %y: tensor<5xf32>) {\n"
          "  %r = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) "
          "outs(%y : tensor<5xf32>) -> tensor<5xf32>\n"
          "  return\n}\n",
          NULL, &bad));
  // CHECK: verify: status 3: the module fails to verify:
  // CHECK-NEXT: <source>:2:8: error: 'linalg.add' op
  expectError(ctx, "abi",
              mixerModuleCompile(ctx,
                                 "func.func @f(%x: tensor<4xf32>) -> "
                                 "tensor<4xf32> {\n  return %x : "
                                 "tensor<4xf32>\n}\n",
                                 NULL, &bad));
  // CHECK: abi: status 4: cannot compile the module:
  // CHECK-NEXT: <source>:1:1: error: public function @f has 1 results but 0 arguments marked {bufferization.writable = true}
  expectError(ctx, "null source", mixerModuleCompile(ctx, NULL, NULL, &bad));
  // CHECK: null source: status 1: 'mlirSource' is null
  printf("bad module is null: %d\n", bad == NULL);
  // CHECK: bad module is null: 1

  // The module still works after all that.
  status = mixerModuleCall(module, "matmul", args, 3);
  printf("again: status %d, last error '%s'\n", (int)status,
         mixerGetLastError(ctx));
  // CHECK: again: status 0, last error ''

  mixerModuleDestroy(module);
  mixerContextDestroy(ctx);
  printf("done\n");
  // CHECK: done
  return 0;
}
