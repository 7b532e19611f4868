// The C API's vector-Jacobian products: compiled with "generate-vjp=1", a
// module has f_vjp beside every public function f, found, introspected and
// called like f; a function that cannot be differentiated is a compile
// error naming the op.
//
// RUN: %clang -O1 -Wall -Werror %sanitize_flags -I%mixer_include_dir %s -L%mixer_lib_dir -lMixerCAPI -Wl,-rpath,%mixer_lib_dir -lm -o %t
// RUN: %t 2>&1 | FileCheck %s

#include "mixer-c/Mixer.h"

#include "Inputs/capi_memref.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// out[i, j] = y[i, j] * tanh(z[i, j] + bias[j]): bias is broadcast over the
// rows, so its gradient sums over them.
static const char *kModule =
    "func.func @gate(%y: tensor<?x8xf32>, %z: tensor<?x8xf32>, %bias: "
    "tensor<8xf32>,\n"
    "                %out: tensor<?x8xf32> {bufferization.writable = true})\n"
    "    -> tensor<?x8xf32> {\n"
    "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,\n"
    "      affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,\n"
    "      affine_map<(i, j) -> (i, j)>],\n"
    "      iterator_types = [\"parallel\", \"parallel\"]}\n"
    "      ins(%y, %z, %bias : tensor<?x8xf32>, tensor<?x8xf32>, "
    "tensor<8xf32>)\n"
    "      outs(%out : tensor<?x8xf32>) {\n"
    "  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):\n"
    "    %s = arith.addf %b, %c : f32\n"
    "    %t = math.tanh %s : f32\n"
    "    %m = arith.mulf %a, %t : f32\n"
    "    linalg.yield %m : f32\n"
    "  } -> tensor<?x8xf32>\n"
    "  return %r : tensor<?x8xf32>\n"
    "}\n";

static const char *kSine =
    "func.func @sine(%x: tensor<8xf32>, %out: tensor<8xf32> "
    "{bufferization.writable = true}) -> tensor<8xf32> {\n"
    "  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, "
    "affine_map<(i) -> (i)>],\n"
    "      iterator_types = [\"parallel\"]} ins(%x : tensor<8xf32>) "
    "outs(%out : tensor<8xf32>) {\n"
    "  ^bb0(%a: f32, %o: f32):\n"
    "    %s = math.sin %a : f32\n"
    "    linalg.yield %s : f32\n"
    "  } -> tensor<8xf32>\n"
    "  return %r : tensor<8xf32>\n"
    "}\n";

enum { kRows = 5, kCols = 8 };

int main(void) {
  mixer_context_t ctx = mixerContextCreate();
  mixer_module_t module = NULL;
  mixer_status_t status =
      mixerModuleCompile(ctx, kModule, "generate-vjp=1 num-threads=2", &module);
  printf("compile: status %d\n", (int)status);
  // CHECK: compile: status 0
  if (status != MIXER_SUCCESS) {
    printf("%s\n", mixerGetLastError(ctx));
    return 1;
  }

  int numArgs = 0, numResults = 0;
  status = mixerModuleGetFunction(module, "gate_vjp", &numArgs, &numResults);
  printf("functions: %d; gate_vjp: status %d, %d arguments, %d results\n",
         mixerModuleGetNumFunctions(module), (int)status, numArgs, numResults);
  // CHECK: functions: 2; gate_vjp: status 0, 7 arguments, 3 results
  for (int i = 0; i < numArgs; ++i) {
    mixer_argument_info_t info;
    mixerModuleGetArgument(module, "gate_vjp", i, &info);
    printf("  %s: output %d rank %d\n", info.name, info.isOutput, info.rank);
  }
  // CHECK-NEXT: y: output 0 rank 2
  // CHECK-NEXT: z: output 0 rank 2
  // CHECK-NEXT: bias: output 0 rank 1
  // CHECK-NEXT: d_out: output 0 rank 2
  // CHECK-NEXT: d_y: output 1 rank 2
  // CHECK-NEXT: d_z: output 1 rank 2
  // CHECK-NEXT: d_bias: output 1 rank 1

  float y[kRows * kCols], z[kRows * kCols], bias[kCols], dout[kRows * kCols];
  float dy[kRows * kCols], dz[kRows * kCols], dbias[kCols];
  for (int i = 0; i < kRows * kCols; ++i) {
    y[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    z[i] = (float)((i * 5) % 11) / 5.0f - 1.0f;
    dout[i] = (float)((i * 3) % 7) / 7.0f - 0.3f;
  }
  for (int j = 0; j < kCols; ++j)
    bias[j] = 0.1f * j - 0.4f;
  memref2d my = make2d(y, kRows, kCols), mz = make2d(z, kRows, kCols),
           mdout = make2d(dout, kRows, kCols), mdy = make2d(dy, kRows, kCols),
           mdz = make2d(dz, kRows, kCols);
  memref1d mbias = make1d(bias, kCols), mdbias = make1d(dbias, kCols);
  void *args[] = {&my, &mz, &mbias, &mdout, &mdy, &mdz, &mdbias};
  status = mixerModuleCall(module, "gate_vjp", args, 7);

  // The gradients by hand, in double.
  double maxError = 0, maxRef = 0, refBias[kCols] = {0};
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j) {
      int k = i * kCols + j;
      double t = tanh((double)z[k] + bias[j]);
      double refY = dout[k] * t, refZ = dout[k] * y[k] * (1 - t * t);
      refBias[j] += refZ;
      maxError = fmax(maxError, fmax(fabs(dy[k] - refY), fabs(dz[k] - refZ)));
      maxRef = fmax(maxRef, fmax(fabs(refY), fabs(refZ)));
    }
  for (int j = 0; j < kCols; ++j) {
    maxError = fmax(maxError, fabs(dbias[j] - refBias[j]));
    maxRef = fmax(maxRef, fabs(refBias[j]));
  }
  printf("gate_vjp: status %d, max relative error %.3g %s\n", (int)status,
         maxError / maxRef, maxError / maxRef < 1e-5 ? "PASS" : "FAIL");
  // CHECK: gate_vjp: status 0, max relative error {{.*}} PASS

  // Without the option there is no gate_vjp.
  mixer_module_t plain = NULL;
  mixerModuleCompile(ctx, kModule, "", &plain);
  status = mixerModuleGetFunction(plain, "gate_vjp", NULL, NULL);
  printf("plain: status %d: %s\n", (int)status, mixerGetLastError(ctx));
  // CHECK: plain: status 6: no public function named 'gate_vjp'

  mixer_module_t sine = NULL;
  status = mixerModuleCompile(ctx, kSine, "generate-vjp=1", &sine);
  const char *message = mixerGetLastError(ctx);
  printf("sine: status %d, names the op: %s\n", (int)status,
         strstr(message, "cannot differentiate 'math.sin'") ? "yes" : "no");
  // CHECK: sine: status 4, names the op: yes

  mixerModuleDestroy(plain);
  mixerModuleDestroy(module);
  mixerContextDestroy(ctx);
  return 0;
}
