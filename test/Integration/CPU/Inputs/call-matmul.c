/* Calls matmul of examples/host-c/kernels.mlir on all-ones matrices: every
 * entry of c is K = 256. */
#include "unchecked.h"

#include <stdio.h>

static float a[96 * 256], b[256 * 80], c[96 * 80];

int main(void) {
  for (int i = 0; i < 96 * 256; ++i)
    a[i] = 1.0f;
  for (int i = 0; i < 256 * 80; ++i)
    b[i] = 1.0f;
  mixer_memref_f32_2d da = mixer_memref_f32_2d_make(a, 96, 256);
  mixer_memref_f32_2d db = mixer_memref_f32_2d_make(b, 256, 80);
  mixer_memref_f32_2d dc = mixer_memref_f32_2d_make(c, 96, 80);
  _mlir_ciface_matmul(&da, &db, &dc);
  printf("c[0][0] = %g c[95][79] = %g\n", c[0], c[96 * 80 - 1]);
  return 0;
}
