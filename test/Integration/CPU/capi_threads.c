// The C API on several threads at once: four threads call one compiled
// module on their own arrays and check every result; between calls each
// makes a failing call and checks that mixerGetLastError is its own message,
// after all four have failed (a barrier), so that a message shared between
// threads would show. Meanwhile a fifth thread compiles and destroys other
// modules in the same context and compiles in a second context.
//
// RUN: %clang -O1 -Wall -Werror %sanitize_flags -pthread -I%mixer_include_dir %s -L%mixer_lib_dir -lMixerCAPI -Wl,-rpath,%mixer_lib_dir -lm -o %t
// RUN: %t "num-threads=2" 2>&1 | FileCheck %s
// RUN: %t "num-threads=1" 2>&1 | FileCheck %s

#include "mixer-c/Mixer.h"

#include "Inputs/capi_memref.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 4, kIterations = 100, M = 64, K = 48, N = 32 };

static const char *kMatmul =
    "func.func @matmul(%a: tensor<64x48xf32>, %b: tensor<48x32xf32>,\n"
    "                  %c: tensor<64x32xf32> {bufferization.writable = true})\n"
    "    -> tensor<64x32xf32> {\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x32xf32>) -> "
    "tensor<64x32xf32>\n"
    "  %r = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x32xf32>)\n"
    "                     outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>\n"
    "  return %r : tensor<64x32xf32>\n"
    "}\n";

static const char *kNegate =
    "func.func @negate(%x: tensor<?xf32>,\n"
    "                  %y: tensor<?xf32> {bufferization.writable = true})\n"
    "    -> tensor<?xf32> {\n"
    "  %r = linalg.negf ins(%x : tensor<?xf32>) outs(%y : tensor<?xf32>)\n"
    "      -> tensor<?xf32>\n"
    "  return %r : tensor<?xf32>\n"
    "}\n";

static const char *options;
static mixer_context_t ctx;
static mixer_module_t module;
static pthread_barrier_t barrier;

typedef struct {
  int id;
  int failedCalls;   // good calls that failed or left a message
  int wrongMessages; // failing calls whose message was not this thread's
  double maxRelativeError;
} Caller;

static unsigned next(unsigned *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

static void *callerMain(void *arg) {
  Caller *self = arg;
  float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
  float *c = malloc(sizeof(float) * M * N);
  memref2d da = make2d(a, M, K), db = make2d(b, K, N), dc = make2d(c, M, N);
  void *args[] = {&da, &db, &dc};
  // A shape only this thread passes, so its message is its own.
  memref2d wrong = make2d(c, M, N + 1 + self->id);
  void *wrongArgs[] = {&da, &db, &wrong};
  char expected[256];
  snprintf(expected, sizeof(expected),
           "argument #2 ('c') of 'matmul' has sizes [%d, %d], expected "
           "[%d, %d] (dim 1 is %d)",
           M, N + 1 + self->id, M, N, N + 1 + self->id);
  unsigned seed = 1234u + 77u * self->id;

  for (int it = 0; it < kIterations; ++it) {
    for (int i = 0; i < M * K; ++i)
      a[i] = (float)(next(&seed) % 2001) / 1000.0f - 1.0f;
    for (int i = 0; i < K * N; ++i)
      b[i] = (float)(next(&seed) % 2001) / 1000.0f - 1.0f;
    if (mixerModuleCall(module, "matmul", args, 3) != MIXER_SUCCESS ||
        mixerGetLastError(ctx)[0] != '\0')
      ++self->failedCalls;
    double maxError = 0, maxRef = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double ref = 0;
        for (int k = 0; k < K; ++k)
          ref += (double)a[i * K + k] * b[k * N + j];
        maxError = fmax(maxError, fabs(c[i * N + j] - ref));
        maxRef = fmax(maxRef, fabs(ref));
      }
    self->maxRelativeError = fmax(self->maxRelativeError, maxError / maxRef);

    mixer_status_t status = mixerModuleCall(module, "matmul", wrongArgs, 3);
    pthread_barrier_wait(&barrier); // every thread has failed by now
    if (status != MIXER_ERROR_ARGUMENTS ||
        strcmp(mixerGetLastError(ctx), expected) != 0) {
      if (self->wrongMessages++ == 0)
        fprintf(stderr, "thread %d: expected '%s', got '%s'\n", self->id,
                expected, mixerGetLastError(ctx));
    }
    pthread_barrier_wait(&barrier); // no thread calls again before all read
  }
  free(a);
  free(b);
  free(c);
  return NULL;
}

/// Compiles `kNegate` in `context`, calls it once and checks the result.
static int compileAndCall(mixer_context_t context, mixer_module_t *out) {
  if (mixerModuleCompile(context, kNegate, options, out) != MIXER_SUCCESS) {
    fprintf(stderr, "compile: %s\n", mixerGetLastError(context));
    return 0;
  }
  float x[100], y[100];
  for (int i = 0; i < 100; ++i)
    x[i] = (float)i;
  struct {
    float *allocated, *aligned;
    int64_t offset, sizes[1], strides[1];
  } dx = {x, x, 0, {100}, {1}}, dy = {y, y, 0, {100}, {1}};
  void *args[] = {&dx, &dy};
  if (mixerModuleCall(*out, "negate", args, 2) != MIXER_SUCCESS)
    return 0;
  for (int i = 0; i < 100; ++i)
    if (y[i] != -x[i])
      return 0;
  return 1;
}

static void *compilerMain(void *arg) {
  int *ok = arg;
  *ok = 1;
  for (int round = 0; round < 2; ++round) {
    mixer_module_t other = NULL;
    *ok &= compileAndCall(ctx, &other);
    mixerModuleDestroy(other);
  }
  mixer_context_t second = mixerContextCreate();
  mixer_module_t inSecond = NULL;
  *ok &= compileAndCall(second, &inSecond);
  mixerContextDestroy(second);
  return NULL;
}

int main(int argc, char **argv) {
  options = argc > 1 ? argv[1] : "";
  ctx = mixerContextCreate();
  if (mixerModuleCompile(ctx, kMatmul, options, &module) != MIXER_SUCCESS) {
    printf("compile: %s\n", mixerGetLastError(ctx));
    return 1;
  }
  pthread_barrier_init(&barrier, NULL, kThreads);
  Caller callers[kThreads] = {{0}};
  pthread_t threads[kThreads], compiler;
  int compilerOk = 0;
  pthread_create(&compiler, NULL, compilerMain, &compilerOk);
  for (int t = 0; t < kThreads; ++t) {
    callers[t].id = t;
    pthread_create(&threads[t], NULL, callerMain, &callers[t]);
  }
  for (int t = 0; t < kThreads; ++t)
    pthread_join(threads[t], NULL);
  pthread_join(compiler, NULL);
  pthread_barrier_destroy(&barrier);

  int allOk = compilerOk;
  for (int t = 0; t < kThreads; ++t) {
    const Caller *c = &callers[t];
    int ok = c->failedCalls == 0 && c->wrongMessages == 0 &&
             c->maxRelativeError < 1e-5;
    allOk &= ok;
    printf("thread %d: %d calls, %d failed, max relative error %.3g, "
           "%d/%d own messages %s\n",
           t, kIterations, c->failedCalls, c->maxRelativeError,
           kIterations - c->wrongMessages, kIterations, ok ? "PASS" : "FAIL");
  }
  // CHECK: thread 0: 100 calls, 0 failed, max relative error {{.*}}, 100/100 own messages PASS
  // CHECK: thread 1: 100 calls, 0 failed, max relative error {{.*}}, 100/100 own messages PASS
  // CHECK: thread 2: 100 calls, 0 failed, max relative error {{.*}}, 100/100 own messages PASS
  // CHECK: thread 3: 100 calls, 0 failed, max relative error {{.*}}, 100/100 own messages PASS
  printf("compiling beside the calls: %s\n", compilerOk ? "PASS" : "FAIL");
  // CHECK: compiling beside the calls: PASS
  mixerModuleDestroy(module);
  mixerContextDestroy(ctx);
  printf("%s\n", allOk ? "ALL PASS" : "FAIL");
  // CHECK: ALL PASS
  return allOk ? 0 : 1;
}
