/*===- main.c - calls the kernels compiled by mixer-compile ---------------===*/
/*
 * Builds descriptors over its own arrays with the helpers of kernels.h,
 * calls each kernel, and checks the result against a plain C computation in
 * double precision: max|out - ref| / max|ref| must be below 1e-5.
 * Prints one line per check and exits with 1 if any fails.
 */

#include "kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

/* Deterministic values in [-1, 1). */
static void fill(float *data, int64_t n, unsigned seed) {
  unsigned state = seed * 2654435761u + 1;
  for (int64_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    data[i] = (float)(state >> 8) / (float)(1u << 23) - 1.0f;
  }
}

static void report(const char *name, const float *out, const double *ref,
                   int64_t n) {
  double maxError = 0, maxRef = 0;
  for (int64_t i = 0; i < n; ++i) {
    maxError = fmax(maxError, fabs(out[i] - ref[i]));
    maxRef = fmax(maxRef, fabs(ref[i]));
  }
  double relative = maxRef > 0 ? maxError / maxRef : maxError;
  int pass = relative < 1e-5;
  failures += !pass;
  printf("%-22s max relative error %.3g %s\n", name, relative,
         pass ? "PASS" : "FAIL");
}

static void checkMatmul(void) {
  enum { M = 96, K = 256, N = 80 };
  float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
  float *c = malloc(sizeof(float) * M * N);
  double *ref = malloc(sizeof(double) * M * N);
  fill(a, M * K, 1);
  fill(b, K * N, 2);
  fill(c, M * N, 3); /* overwritten: the kernel starts from zero */

  mixer_memref_f32_2d da = mixer_memref_f32_2d_make(a, M, K);
  mixer_memref_f32_2d db = mixer_memref_f32_2d_make(b, K, N);
  mixer_memref_f32_2d dc = mixer_memref_f32_2d_make(c, M, N);
  _mlir_ciface_matmul(&da, &db, &dc);

  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double sum = 0;
      for (int k = 0; k < K; ++k)
        sum += (double)a[i * K + k] * b[k * N + j];
      ref[i * N + j] = sum;
    }
  report("matmul 96x256x80", c, ref, M * N);
  free(a), free(b), free(c), free(ref);
}

static void checkBiasRelu(int64_t rows) {
  enum { D = 64 };
  float *x = malloc(sizeof(float) * rows * D), *bias = malloc(sizeof(float) * D);
  float *out = malloc(sizeof(float) * rows * D);
  double *ref = malloc(sizeof(double) * rows * D);
  fill(x, rows * D, 4);
  fill(bias, D, 5);

  /* The row count is a `?` in the IR: any value works. */
  mixer_memref_f32_2d dx = mixer_memref_f32_2d_make(x, rows, D);
  mixer_memref_f32_1d dbias = mixer_memref_f32_1d_make(bias, D);
  mixer_memref_f32_2d dout = mixer_memref_f32_2d_make(out, rows, D);
  _mlir_ciface_bias_relu(&dx, &dbias, &dout);

  for (int64_t i = 0; i < rows; ++i)
    for (int j = 0; j < D; ++j)
      ref[i * D + j] = fmax((double)x[i * D + j] + bias[j], 0.0);
  char name[64];
  snprintf(name, sizeof(name), "bias_relu %lldx64", (long long)rows);
  report(name, out, ref, rows * D);
  free(x), free(bias), free(out), free(ref);
}

int main(void) {
  checkMatmul();
  checkBiasRelu(1);
  checkBiasRelu(1000);
  printf("%s\n", failures ? "FAIL" : "ALL PASS");
  return failures ? 1 : 0;
}
