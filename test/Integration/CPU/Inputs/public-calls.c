/* Calls the callee of public-calls.mlir directly, then its two public
 * callers, on random inputs, and checks each caller against the callee's
 * result in double precision: max|out - ref| / max|ref| must be below 1e-5.
 * Exits with 1 if any check fails. */
#include "public-calls.h"

#include <math.h>
#include <stdio.h>

enum { M = 70, K = 64, N = 48 };
static float a[M * K], b[K * N], c[M * N], out[M * N];
static double ref[M * N];
static int failures = 0;

/* Deterministic values in [-1, 1). */
static void fill(float *data, int n, unsigned state) {
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    data[i] = (float)(state >> 8) / (float)(1u << 23) - 1.0f;
  }
}

static void report(const char *name) {
  double maxError = 0, maxRef = 0;
  for (int i = 0; i < M * N; ++i) {
    maxError = fmax(maxError, fabs(out[i] - ref[i]));
    maxRef = fmax(maxRef, fabs(ref[i]));
  }
  double relative = maxRef > 0 ? maxError / maxRef : INFINITY;
  int pass = relative < 1e-5;
  failures += !pass;
  printf("%-17s max relative error %.3g %s\n", name, relative,
         pass ? "PASS" : "FAIL");
}

int main(void) {
  fill(a, M * K, 1);
  fill(b, K * N, 2);
  mixer_memref_f32_2d da = mixer_memref_f32_2d_make(a, M, K);
  mixer_memref_f32_2d db = mixer_memref_f32_2d_make(b, K, N);
  mixer_memref_f32_2d dc = mixer_memref_f32_2d_make(c, M, N);
  mixer_memref_f32_2d dout = mixer_memref_f32_2d_make(out, M, N);
  _mlir_ciface_matmul(&da, &db, &dc);

  /* NaN in the destination: a caller that read it would fail. */
  for (int i = 0; i < M * N; ++i)
    out[i] = NAN;
  _mlir_ciface_matmul_relu(&da, &db, &dout);
  for (int i = 0; i < M * N; ++i)
    ref[i] = fmax(c[i], 0.0);
  report("matmul_relu");

  for (int i = 0; i < M * N; ++i)
    out[i] = NAN;
  _mlir_ciface_matmul_plus_relu(&da, &db, &dout);
  for (int i = 0; i < M * N; ++i)
    ref[i] = c[i] + fmax(c[i], 0.0);
  report("matmul_plus_relu");

  /* The inputs are unchanged: a call writes only its destination. */
  float a2[M * K], b2[K * N];
  fill(a2, M * K, 1);
  fill(b2, K * N, 2);
  int same = 1;
  for (int i = 0; i < M * K; ++i)
    same &= a[i] == a2[i];
  for (int i = 0; i < K * N; ++i)
    same &= b[i] == b2[i];
  failures += !same;
  printf("inputs unchanged %s\n", same ? "PASS" : "FAIL");
  printf(failures ? "FAILED\n" : "ALL PASS\n");
  return failures != 0;
}
