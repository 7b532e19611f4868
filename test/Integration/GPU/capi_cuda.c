// The C API with target=cuda: compiling needs no GPU; without one, every
// call is MIXER_ERROR_NO_DEVICE with a message saying what is missing; on
// a GPU, the call runs and matches the fp64 loop below. Bad targets and
// chips are rejected by name. Run with and without the stub driver.
//
// REQUIRES: cuda-runtime
// RUN: %clang -O1 -Wall -Werror %sanitize_flags -I%mixer_include_dir %s -L%mixer_lib_dir -lMixerCAPI -Wl,-rpath,%mixer_lib_dir -lm -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: %cuda_env %t 2>&1 | FileCheck %s

#include "mixer-c/Mixer.h"

#include <math.h>
#include <stdio.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} memref2d;

static const char *kModule =
    "func.func @scale(%x: tensor<64x32xf32>,\n"
    "                 %out: tensor<64x32xf32> {bufferization.writable = "
    "true})\n"
    "    -> tensor<64x32xf32> {\n"
    "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,\n"
    "                                        affine_map<(i, j) -> (i, j)>],\n"
    "                       iterator_types = [\"parallel\", \"parallel\"]}\n"
    "      ins(%x : tensor<64x32xf32>) outs(%out : tensor<64x32xf32>) {\n"
    "  ^bb0(%a: f32, %o: f32):\n"
    "    %e = math.exp %a : f32\n"
    "    linalg.yield %e : f32\n"
    "  } -> tensor<64x32xf32>\n"
    "  return %r : tensor<64x32xf32>\n"
    "}\n";

int main(void) {
  mixer_context_t context = mixerContextCreate();
  mixer_module_t module = 0;

  // CHECK: bad target: 1 {{.*}}unknown target 'rocm' (known: cpu, cuda)
  mixer_status_t status =
      mixerModuleCompile(context, kModule, "target=rocm", &module);
  printf("bad target: %d %s\n", status, mixerGetLastError(context));
  // CHECK: bad chip: 1 {{.*}}unknown chip 'sm_75' (supported: sm_80,{{.*}}sm_90a)
  status =
      mixerModuleCompile(context, kModule, "target=cuda chip=sm_75", &module);
  printf("bad chip: %d %s\n", status, mixerGetLastError(context));
  // CHECK: chip without cuda: 1 {{.*}}chip= needs target=cuda
  status = mixerModuleCompile(context, kModule, "chip=sm_80", &module);
  printf("chip without cuda: %d %s\n", status, mixerGetLastError(context));

  // CHECK: compile: 0
  status =
      mixerModuleCompile(context, kModule, "target=cuda chip=sm_80", &module);
  printf("compile: %d %s\n", status, mixerGetLastError(context));
  if (status != MIXER_SUCCESS)
    return 1;

  static float x[64 * 32], out[64 * 32];
  for (int i = 0; i < 64 * 32; ++i)
    x[i] = (float)((i % 97) - 48) / 24.0f;
  memref2d xm = {x, x, 0, {64, 32}, {32, 1}};
  memref2d om = {out, out, 0, {64, 32}, {32, 1}};
  void *args[] = {&xm, &om};
  status = mixerModuleCall(module, "scale", args, 2);
  if (status == MIXER_ERROR_NO_DEVICE) {
    // No driver: the runtime library does not load; the stub driver: its
    // calls fail. Either way the message names it.
    const char *message = mixerGetLastError(context);
    printf("call: no device: %s\n", message);
  } else {
    double maxError = 0, maxRef = 0;
    for (int i = 0; i < 64 * 32; ++i) {
      double ref = exp((double)x[i]);
      maxError = fmax(maxError, fabs(out[i] - ref));
      maxRef = fmax(maxRef, fabs(ref));
    }
    printf("call: status %d, relative error %.3g\n", status, maxError / maxRef);
    printf("call: no device: %s\n",
           status == MIXER_SUCCESS && maxError / maxRef < 1e-5
               ? "no CUDA device: none needed, the GPU ran it"
               : mixerGetLastError(context));
  }
  // CHECK: call: no device: {{.*}}no CUDA device: {{.*(libcuda|stub|none)}}
  mixerModuleDestroy(module);
  mixerContextDestroy(context);
  return 0;
}
