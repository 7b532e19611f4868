// The memref descriptors of f32 arrays that the C API tests pass to compiled
// functions (the layout of MLIR's ranked memref descriptor), over
// caller-owned contiguous data.

#ifndef MIXER_TEST_INTEGRATION_CPU_CAPI_MEMREF_H
#define MIXER_TEST_INTEGRATION_CPU_CAPI_MEMREF_H

#include <stdint.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} memref2d;

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} memref1d;

static inline memref2d make2d(float *data, int64_t rows, int64_t cols) {
  memref2d m = {data, data, 0, {rows, cols}, {cols, 1}};
  return m;
}

static inline memref1d make1d(float *data, int64_t size) {
  memref1d m = {data, data, 0, {size}, {1}};
  return m;
}

#endif // MIXER_TEST_INTEGRATION_CPU_CAPI_MEMREF_H
