/*===- main.c - calls the kernels compiled by mixer-compile ---------------===*/
/*
 * Builds descriptors over its own arrays with the helpers of kernels.h,
 * calls each kernel, and checks the result against a plain C computation in
 * double precision: max|out - ref| / max|ref| must be below 1e-5 (1e-4 for
 * the scan), and that a bad input is rejected by the run-time checks.
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
                   int64_t n, double tolerance) {
  double maxError = 0, maxRef = 0;
  for (int64_t i = 0; i < n; ++i) {
    maxError = fmax(maxError, fabs(out[i] - ref[i]));
    maxRef = fmax(maxRef, fabs(ref[i]));
  }
  double relative = maxRef > 0 ? maxError / maxRef : maxError;
  int pass = relative < tolerance;
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
  report("matmul 96x256x80", c, ref, M * N, 1e-5);
  free(a), free(b), free(c), free(ref);
}

static void checkBiasRelu(int64_t rows) {
  enum { D = 64 };
  float *x = malloc(sizeof(float) * rows * D),
        *bias = malloc(sizeof(float) * D);
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
  report(name, out, ref, rows * D, 1e-5);
  free(x), free(bias), free(out), free(ref);
}

/* S_t = exp(log_a_t) S_{t-1} + x_t b_t^T, y_t = S_t c_t per (batch, head),
 * head h reading group h / (H / G), token by token in double. */
static void checkSsd(void) {
  enum { B = 2, L = 200, H = 4, P = 16, G = 2, N = 32 };
  float *x = malloc(sizeof(float) * B * L * H * P);
  float *logA = malloc(sizeof(float) * B * L * H);
  float *b = malloc(sizeof(float) * B * L * G * N);
  float *c = malloc(sizeof(float) * B * L * G * N);
  float *init = malloc(sizeof(float) * B * H * P * N);
  float *y = malloc(sizeof(float) * B * L * H * P);
  float *state = malloc(sizeof(float) * B * H * P * N);
  double *yRef = malloc(sizeof(double) * B * L * H * P);
  double *stateRef = malloc(sizeof(double) * B * H * P * N);
  fill(x, B * L * H * P, 6);
  fill(logA, B * L * H, 7);
  for (int i = 0; i < B * L * H; ++i)
    logA[i] = -0.5f * (logA[i] + 1.0f); /* decays in (-1, 0] */
  fill(b, B * L * G * N, 8);
  fill(c, B * L * G * N, 9);
  fill(init, B * H * P * N, 10);

  mixer_memref_f32_4d dx = mixer_memref_f32_4d_make(x, B, L, H, P);
  mixer_memref_f32_3d dlogA = mixer_memref_f32_3d_make(logA, B, L, H);
  mixer_memref_f32_4d db = mixer_memref_f32_4d_make(b, B, L, G, N);
  mixer_memref_f32_4d dc = mixer_memref_f32_4d_make(c, B, L, G, N);
  mixer_memref_f32_4d dinit = mixer_memref_f32_4d_make(init, B, H, P, N);
  mixer_memref_f32_4d dy = mixer_memref_f32_4d_make(y, B, L, H, P);
  mixer_memref_f32_4d dstate = mixer_memref_f32_4d_make(state, B, H, P, N);
  mixerRuntimeClearCheckFailure();
  _mlir_ciface_ssd(&dx, &dlogA, &db, &dc, &dinit, &dy, &dstate);
  const char *failure = mixerRuntimeGetCheckFailure();
  failures += failure != NULL;
  printf("ssd run-time checks    %s\n", failure ? failure : "PASS");

  for (int i = 0; i < B * H * P * N; ++i)
    stateRef[i] = init[i];
  for (int bi = 0; bi < B; ++bi)
    for (int t = 0; t < L; ++t)
      for (int h = 0; h < H; ++h) {
        int g = h / (H / G);
        double decay = exp((double)logA[(bi * L + t) * H + h]);
        const float *xt = x + ((bi * L + t) * H + h) * P;
        const float *bt = b + ((bi * L + t) * G + g) * N;
        const float *ct = c + ((bi * L + t) * G + g) * N;
        for (int p = 0; p < P; ++p) {
          double *s = stateRef + ((bi * H + h) * P + p) * N;
          double sum = 0;
          for (int n = 0; n < N; ++n) {
            s[n] = decay * s[n] + (double)xt[p] * bt[n];
            sum += s[n] * ct[n];
          }
          yRef[((bi * L + t) * H + h) * P + p] = sum;
        }
      }
  report("ssd y 2x200x4x16", y, yRef, B * L * H * P, 1e-4);
  report("ssd final state", state, stateRef, B * H * P * N, 1e-4);

  /* A positive log-decay (A = exp(A_log) instead of -exp(A_log)) is
   * rejected: the op does not run and y keeps what it held. */
  logA[B * L * H / 2] = 0.25f;
  y[0] = 12345.0f;
  mixerRuntimeClearCheckFailure();
  _mlir_ciface_ssd(&dx, &dlogA, &db, &dc, &dinit, &dy, &dstate);
  failure = mixerRuntimeGetCheckFailure();
  int rejected = failure != NULL && y[0] == 12345.0f;
  failures += !rejected;
  printf("ssd positive log_a     %s: %s\n", rejected ? "REJECTED" : "FAIL",
         failure ? failure : "no failure recorded");
  free(x), free(logA), free(b), free(c), free(init), free(y), free(state);
  free(yRef), free(stateRef);
}

int main(void) {
  checkMatmul();
  checkBiasRelu(1);
  checkBiasRelu(1000);
  checkSsd();
  printf("%s\n", failures ? "FAIL" : "ALL PASS");
  return failures ? 1 : 0;
}
