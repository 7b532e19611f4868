/*===- CudaRuntime.h - what lowered GPU host code calls ---------*- C -*-===*/
/*
 * Code lowered by mixer-lower-to-nvvm-pipeline (the upstream gpu-to-llvm
 * conversion) calls `mgpu*` functions to load its kernels, allocate device
 * memory, copy, launch and synchronize. libMixerCudaRuntime implements them
 * over the CUDA driver API; it is plain C and links only libcuda.so.1 (the
 * driver's stub at build time, the driver's library at run time).
 *
 * The `mgpu*` functions cannot return an error: the lowered code ignores
 * their results. A failed driver call records its message as the failure of
 * the calling thread (the first one since the last clear is kept) and the
 * function returns a null handle; later calls given a null handle record
 * that the handle is missing and do nothing. A caller clears the record
 * before a call into compiled code and reads it after, beside the run-time
 * checks' record (RuntimeChecks.h). Kernels load in a global constructor,
 * before main: a failure there is also kept for the whole process and
 * repeated by the first launch of one of its kernels on any thread.
 */

#ifndef MIXER_RUNTIME_CUDARUNTIME_H
#define MIXER_RUNTIME_CUDARUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The first CUDA failure on this thread since the last clear, or null.
 * Valid until the next clear. */
const char *mixerCudaGetFailure(void);

/* Forgets the failure recorded on this thread. */
void mixerCudaClearFailure(void);

/* Null when the default device can run kernels, else why not (no device,
 * the driver's stub library, a driver too old, ...). Initializes the driver
 * and the device's primary context on first use; records nothing. */
const char *mixerCudaGetDeviceError(void);

/* The device later calls use (mgpuSetDefaultDevice sets it; 0 at first). */
int32_t mixerCudaGetDefaultDevice(void);

/* What mixer-bench reports about the device and derives its peaks from. */
typedef struct {
  char name[256];
  int computeMajor, computeMinor;
  int multiprocessors;
  int clockKHz;       /* the SM clock (boost) */
  int memoryClockKHz; /* 0 where the driver does not say */
  int memoryBusBits;  /* 0 where the driver does not say */
  uint64_t totalMemoryBytes;
  int driverVersion; /* 13000 for CUDA 13.0 */
} MixerCudaDeviceInfo;

/* Fills *info for the default device; returns 0, or -1 after recording a
 * failure. */
int mixerCudaGetDeviceInfo(MixerCudaDeviceInfo *info);

/* Events that time (mgpuEventCreate's do not), for benchmarks: record one
 * with mgpuEventRecord (a null stream is the default stream), then
 * mixerCudaEventElapsedMs waits for the later one. Negative on failure. */
void *mixerCudaEventCreateTimed(void);
float mixerCudaEventElapsedMs(void *start, void *end);

/* Waits for all work of the default device's context. */
void mixerCudaSynchronize(void);

/* The ABI of the lowered host code (gpu-to-llvm, LLVM 22). Handles are the
 * driver's: CUmodule, CUfunction, CUstream, CUevent, as opaque pointers. */
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **extra, size_t paramCount);
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t sharedMemoryBytes, void *stream,
                             void **params, void **extra, size_t paramCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *pointer, void *stream);
void mgpuMemcpy(void *destination, void *source, size_t bytes, void *stream);
void mgpuMemset32(void *destination, uint32_t value, size_t count,
                  void *stream);
void mgpuMemset16(void *destination, uint16_t value, size_t count,
                  void *stream);
void mgpuMemHostRegister(void *pointer, uint64_t bytes);
void mgpuMemHostUnregister(void *pointer);
/* `descriptor` is a memref descriptor of rank `rank`: allocated and
 * aligned pointers, offset, sizes[rank], strides[rank]. */
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementBytes);
void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
}
#endif

#endif /* MIXER_RUNTIME_CUDARUNTIME_H */
