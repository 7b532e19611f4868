/*===- CudaRuntime.c - the mgpu* functions over the CUDA driver API -------===*/
/*
 * See include/mixer/Runtime/CudaRuntime.h for the contract: every failure is
 * recorded in the calling thread's record, nothing aborts, and a null
 * handle left by an earlier failure makes later calls do nothing.
 */

#include "mixer/Runtime/CudaRuntime.h"

#include <cuda.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/*===----------------------------------------------------------------------===*/
/* Failures                                                                   */
/*===----------------------------------------------------------------------===*/

/* The driver explains its codes only once it is loaded and initialized; the
 * codes that mean "it is not" are named here. */
static const char *describeResult(CUresult result) {
  const char *text = NULL;
  if (cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
    return text;
  switch (result) {
  case CUDA_ERROR_STUB_LIBRARY:
    return "the CUDA driver library is the toolkit's stub: no NVIDIA driver "
           "is installed";
  case CUDA_ERROR_NO_DEVICE:
    return "no CUDA-capable device is detected";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "the CUDA driver is not initialized";
  case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER:
    return "the installed NVIDIA driver is older than the CUDA toolkit";
  default:
    return "unknown CUDA error";
  }
}

/* The first failure of each thread since its last clear. */
static _Thread_local char firstFailure[512];
static _Thread_local int hasFailure;
/* The latest failure of each thread, kept even when it is not the first. */
static _Thread_local char lastFailure[512];

static void recordFailure(const char *message) {
  snprintf(lastFailure, sizeof(lastFailure), "%s", message);
  if (hasFailure)
    return;
  hasFailure = 1;
  snprintf(firstFailure, sizeof(firstFailure), "%s", message);
}

const char *mixerCudaGetFailure(void) {
  return hasFailure ? firstFailure : NULL;
}

void mixerCudaClearFailure(void) { hasFailure = 0; }

static void recordResult(CUresult result, const char *call, const char *doing) {
  char message[512];
  snprintf(message, sizeof(message), "CUDA error %d (%s) in %s while %s",
           (int)result, describeResult(result), call, doing);
  recordFailure(message);
}

/* Evaluates a driver call; on failure records it and yields false. */
#define CHECK(call, doing) checkResult((call), #call, doing)
static int checkResult(CUresult result, const char *call, const char *doing) {
  if (result == CUDA_SUCCESS)
    return 1;
  recordResult(result, call, doing);
  return 0;
}

/* The first failure to load a kernel module. Modules load in global
 * constructors, on the main thread, before the caller of compiled code
 * could read its per-thread record; a launch of one of its kernels repeats
 * it. Written once, under loadFailureLock. */
static char loadFailure[512];
static pthread_mutex_t loadFailureLock = PTHREAD_MUTEX_INITIALIZER;

static void keepLoadFailure(const char *message) {
  pthread_mutex_lock(&loadFailureLock);
  if (!loadFailure[0])
    snprintf(loadFailure, sizeof(loadFailure), "%s", message);
  pthread_mutex_unlock(&loadFailureLock);
}

static void recordMissingHandle(const char *what, const char *doing) {
  char message[768];
  pthread_mutex_lock(&loadFailureLock);
  if (loadFailure[0])
    snprintf(message, sizeof(message), "%s is null while %s: %s", what, doing,
             loadFailure);
  else
    snprintf(message, sizeof(message),
             "%s is null while %s (an earlier CUDA call failed)", what, doing);
  pthread_mutex_unlock(&loadFailureLock);
  recordFailure(message);
}

/*===----------------------------------------------------------------------===*/
/* Device and context                                                         */
/*===----------------------------------------------------------------------===*/

enum { MaxDevices = 64 };

/* The primary context of each device, retained on first use. */
static CUcontext contexts[MaxDevices];
static char contextFailures[MaxDevices][512];
static pthread_mutex_t contextLock = PTHREAD_MUTEX_INITIALIZER;
static int32_t defaultDevice = 0;

/* The default device's context, or null with its failure in `failure`. */
static CUcontext getContext(const char **failure) {
  int32_t device = __atomic_load_n(&defaultDevice, __ATOMIC_RELAXED);
  *failure = NULL;
  pthread_mutex_lock(&contextLock);
  if (!contexts[device] && !contextFailures[device][0]) {
    CUresult result = cuInit(0);
    const char *call = "cuInit";
    CUdevice handle = 0;
    if (result == CUDA_SUCCESS) {
      result = cuDeviceGet(&handle, device);
      call = "cuDeviceGet";
    }
    if (result == CUDA_SUCCESS) {
      result = cuDevicePrimaryCtxRetain(&contexts[device], handle);
      call = "cuDevicePrimaryCtxRetain";
    }
    if (result != CUDA_SUCCESS) {
      contexts[device] = NULL;
      snprintf(contextFailures[device], sizeof(contextFailures[device]),
               "CUDA error %d (%s) in %s for device %d", (int)result,
               describeResult(result), call, (int)device);
    }
  }
  CUcontext context = contexts[device];
  if (!context)
    *failure = contextFailures[device];
  pthread_mutex_unlock(&contextLock);
  return context;
}

/* Makes the default device's context current for one call; records why not
 * and returns false when there is none. */
static int enterContext(const char *doing) {
  const char *failure = NULL;
  CUcontext context = getContext(&failure);
  if (!context) {
    char message[768];
    snprintf(message, sizeof(message), "%s while %s", failure, doing);
    recordFailure(message);
    return 0;
  }
  return CHECK(cuCtxPushCurrent(context), doing);
}

static void leaveContext(void) {
  CUcontext previous = NULL;
  cuCtxPopCurrent(&previous);
}

/* Enters the context for `doing` if the handles it needs are `present`;
 * one left null by an earlier failure is recorded as `what` being null. */
static int enterWith(int present, const char *what, const char *doing) {
  if (present)
    return enterContext(doing);
  recordMissingHandle(what, doing);
  return 0;
}

/* Leaves the context entered for a call and passes on whether it
 * succeeded. */
static int leaveAfter(int succeeded) {
  leaveContext();
  return succeeded;
}

/* One checked driver call in the context entered for it, which it leaves;
 * yields whether it succeeded. */
#define CALL_AND_LEAVE(call, doing) leaveAfter(CHECK(call, doing))

/* An event with `flags`, or null with the failure recorded. */
static void *createEvent(unsigned flags, const char *doing) {
  CUevent event = NULL;
  if (!enterContext(doing) ||
      !CALL_AND_LEAVE(cuEventCreate(&event, flags), doing))
    return NULL;
  return event;
}

const char *mixerCudaGetDeviceError(void) {
  const char *failure = NULL;
  return getContext(&failure) ? NULL : failure;
}

int32_t mixerCudaGetDefaultDevice(void) {
  return __atomic_load_n(&defaultDevice, __ATOMIC_RELAXED);
}

int mixerCudaGetDeviceInfo(MixerCudaDeviceInfo *info) {
  const char *doing = "reading the device's properties";
  if (!info || !enterContext(doing))
    return -1;
  memset(info, 0, sizeof(*info));
  CUdevice device = 0;
  int ok =
      CHECK(cuCtxGetDevice(&device), doing) &&
      CHECK(cuDeviceGetName(info->name, sizeof(info->name), device), doing) &&
      CHECK(cuDeviceGetAttribute(&info->computeMajor,
                                 CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                 device),
            doing) &&
      CHECK(cuDeviceGetAttribute(&info->computeMinor,
                                 CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                 device),
            doing) &&
      CHECK(cuDeviceGetAttribute(&info->multiprocessors,
                                 CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                 device),
            doing) &&
      CHECK(cuDeviceGetAttribute(&info->clockKHz,
                                 CU_DEVICE_ATTRIBUTE_CLOCK_RATE, device),
            doing) &&
      CHECK(cuDeviceTotalMem(&info->totalMemoryBytes, device), doing) &&
      CHECK(cuDriverGetVersion(&info->driverVersion), doing);
  /* Deprecated attributes, absent from some drivers: 0 when not given. */
  if (cuDeviceGetAttribute(&info->memoryClockKHz,
                           CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                           device) != CUDA_SUCCESS)
    info->memoryClockKHz = 0;
  if (cuDeviceGetAttribute(&info->memoryBusBits,
                           CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                           device) != CUDA_SUCCESS)
    info->memoryBusBits = 0;
  leaveContext();
  return ok ? 0 : -1;
}

void *mixerCudaEventCreateTimed(void) {
  return createEvent(CU_EVENT_DEFAULT, "creating a timing event");
}

float mixerCudaEventElapsedMs(void *start, void *end) {
  const char *doing = "reading the time between two events";
  if (!enterWith(start && end, start ? "the end event" : "the start event",
                 doing))
    return -1.0f;
  float ms = -1.0f;
  if (!CHECK(cuEventSynchronize((CUevent)end), doing) ||
      !CHECK(cuEventElapsedTime(&ms, (CUevent)start, (CUevent)end), doing))
    ms = -1.0f;
  leaveContext();
  return ms;
}

void mixerCudaSynchronize(void) {
  const char *doing = "waiting for all work of the device";
  if (enterContext(doing))
    CALL_AND_LEAVE(cuCtxSynchronize(), doing);
}

void mgpuSetDefaultDevice(int32_t device) {
  if (device < 0 || device >= MaxDevices) {
    char message[128];
    snprintf(message, sizeof(message),
             "device %d is out of range [0, %d) in mgpuSetDefaultDevice",
             (int)device, MaxDevices);
    recordFailure(message);
    return;
  }
  __atomic_store_n(&defaultDevice, device, __ATOMIC_RELAXED);
}

/*===----------------------------------------------------------------------===*/
/* Modules and launches                                                       */
/*===----------------------------------------------------------------------===*/

void *mgpuModuleLoad(void *data, size_t size) {
  (void)size;
  const char *doing = "loading a kernel module (cubin or fatbin)";
  if (!enterContext(doing)) {
    keepLoadFailure(lastFailure);
    return NULL;
  }
  CUmodule module = NULL;
  if (!CHECK(cuModuleLoadData(&module, data), doing)) {
    module = NULL;
    keepLoadFailure(lastFailure);
  }
  leaveContext();
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  const char *doing = "compiling a kernel module from PTX";
  if (!enterContext(doing)) {
    keepLoadFailure(lastFailure);
    return NULL;
  }
  char log[4096] = "";
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {(void *)(intptr_t)optLevel, log,
                    (void *)(intptr_t)sizeof(log)};
  CUmodule module = NULL;
  CUresult result = cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS) {
    char message[512];
    snprintf(message, sizeof(message), "%s (ptxas: %.300s)", doing,
             log[0] ? log : "no log");
    recordResult(result, "cuModuleLoadDataEx", message);
    keepLoadFailure(lastFailure);
    module = NULL;
  }
  leaveContext();
  return module;
}

void mgpuModuleUnload(void *module) {
  const char *doing = "unloading a kernel module";
  if (module && enterContext(doing))
    CALL_AND_LEAVE(cuModuleUnload((CUmodule)module), doing);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  char doing[256];
  snprintf(doing, sizeof(doing), "looking up kernel '%s'", name);
  CUfunction function = NULL;
  if (!enterWith(module != NULL, "the kernels' module", doing) ||
      !CALL_AND_LEAVE(cuModuleGetFunction(&function, (CUmodule)module, name),
                      doing))
    return NULL;
  return function;
}

/* Kernels with more than 48 KiB of dynamic shared memory must opt in. */
static int allowSharedMemory(CUfunction function, int32_t bytes,
                             const char *doing) {
  if (bytes <= 48 * 1024)
    return 1;
  return CHECK(
      cuFuncSetAttribute(
          function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes),
      doing);
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **extra, size_t paramCount) {
  (void)paramCount;
  const char *doing = "launching a kernel";
  if (!enterWith(function != NULL, "the kernel", doing))
    return;
  CUfunction f = (CUfunction)function;
  if (allowSharedMemory(f, sharedMemoryBytes, doing))
    CHECK(cuLaunchKernel(f, (unsigned)gridX, (unsigned)gridY, (unsigned)gridZ,
                         (unsigned)blockX, (unsigned)blockY, (unsigned)blockZ,
                         (unsigned)sharedMemoryBytes, (CUstream)stream, params,
                         extra),
          doing);
  leaveContext();
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t sharedMemoryBytes, void *stream,
                             void **params, void **extra, size_t paramCount) {
  (void)paramCount;
  const char *doing = "launching a kernel with thread-block clusters";
  if (!enterWith(function != NULL, "the kernel", doing))
    return;
  CUfunction f = (CUfunction)function;
  CUlaunchAttribute cluster;
  memset(&cluster, 0, sizeof(cluster));
  cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  cluster.value.clusterDim.x = (unsigned)clusterX;
  cluster.value.clusterDim.y = (unsigned)clusterY;
  cluster.value.clusterDim.z = (unsigned)clusterZ;
  CUlaunchConfig config;
  memset(&config, 0, sizeof(config));
  config.gridDimX = (unsigned)gridX;
  config.gridDimY = (unsigned)gridY;
  config.gridDimZ = (unsigned)gridZ;
  config.blockDimX = (unsigned)blockX;
  config.blockDimY = (unsigned)blockY;
  config.blockDimZ = (unsigned)blockZ;
  config.sharedMemBytes = (unsigned)sharedMemoryBytes;
  config.hStream = (CUstream)stream;
  config.attrs = &cluster;
  config.numAttrs = 1;
  if (allowSharedMemory(f, sharedMemoryBytes, doing) &&
      CHECK(cuFuncSetAttribute(
                f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
            doing))
    CHECK(cuLaunchKernelEx(&config, f, params, extra), doing);
  leaveContext();
}

/*===----------------------------------------------------------------------===*/
/* Streams and events                                                         */
/*===----------------------------------------------------------------------===*/

void *mgpuStreamCreate(void) {
  const char *doing = "creating a stream";
  CUstream stream = NULL;
  if (!enterContext(doing) ||
      !CALL_AND_LEAVE(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), doing))
    return NULL;
  return stream;
}

/* Kernels fail asynchronously: their errors surface here. */
void mgpuStreamSynchronize(void *stream) {
  const char *doing = "waiting for the work of a stream (copies and kernels)";
  if (enterWith(stream != NULL, "the stream", doing))
    CALL_AND_LEAVE(cuStreamSynchronize((CUstream)stream), doing);
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  const char *doing = "making a stream wait for an event";
  if (enterWith(stream && event, stream ? "the event" : "the stream", doing))
    CALL_AND_LEAVE(cuStreamWaitEvent((CUstream)stream, (CUevent)event, 0),
                   doing);
}

void mgpuStreamDestroy(void *stream) {
  const char *doing = "destroying a stream";
  if (stream && enterContext(doing))
    CALL_AND_LEAVE(cuStreamDestroy((CUstream)stream), doing);
}

void *mgpuEventCreate(void) {
  return createEvent(CU_EVENT_DISABLE_TIMING, "creating an event");
}

void mgpuEventRecord(void *event, void *stream) {
  /* A null stream is the default stream. */
  const char *doing = "recording an event";
  if (enterWith(event != NULL, "the event", doing))
    CALL_AND_LEAVE(cuEventRecord((CUevent)event, (CUstream)stream), doing);
}

void mgpuEventSynchronize(void *event) {
  const char *doing = "waiting for an event";
  if (enterWith(event != NULL, "the event", doing))
    CALL_AND_LEAVE(cuEventSynchronize((CUevent)event), doing);
}

void mgpuEventDestroy(void *event) {
  const char *doing = "destroying an event";
  if (event && enterContext(doing))
    CALL_AND_LEAVE(cuEventDestroy((CUevent)event), doing);
}

/*===----------------------------------------------------------------------===*/
/* Memory                                                                     */
/*===----------------------------------------------------------------------===*/

/* Device memory comes from the stream-ordered pool, so that repeated calls
 * of compiled code do not pay cuMemAlloc each time; memory shared with the
 * host is managed memory. */
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared) {
  if (bytes == 0)
    return NULL;
  char doing[128];
  snprintf(doing, sizeof(doing), "allocating %llu bytes of %s memory",
           (unsigned long long)bytes, hostShared ? "managed" : "device");
  if (!enterContext(doing))
    return NULL;
  CUdeviceptr pointer = 0;
  int ok =
      hostShared
          ? CHECK(cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL),
                  doing)
          : CHECK(cuMemAllocAsync(&pointer, bytes, (CUstream)stream), doing);
  leaveContext();
  return ok ? (void *)pointer : NULL;
}

void mgpuMemFree(void *pointer, void *stream) {
  if (!pointer)
    return;
  const char *doing = "freeing device memory";
  if (!enterContext(doing))
    return;
  unsigned managed = 0;
  CUresult query = cuPointerGetAttribute(
      &managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, (CUdeviceptr)pointer);
  if (query == CUDA_SUCCESS && managed) {
    /* cuMemFree does not wait for the stream's kernels. */
    if (!stream || CHECK(cuStreamSynchronize((CUstream)stream), doing))
      CHECK(cuMemFree((CUdeviceptr)pointer), doing);
  } else {
    CHECK(cuMemFreeAsync((CUdeviceptr)pointer, (CUstream)stream), doing);
  }
  leaveContext();
}

void mgpuMemcpy(void *destination, void *source, size_t bytes, void *stream) {
  const char *doing = "copying between host and device";
  if (bytes && enterWith(destination && source,
                         destination ? "the source" : "the destination", doing))
    CALL_AND_LEAVE(cuMemcpyAsync((CUdeviceptr)destination, (CUdeviceptr)source,
                                 bytes, (CUstream)stream),
                   doing);
}

/* Fills `count` elements of `elementBytes` (2 or 4) bytes with `value`. */
static void fill(void *destination, uint32_t value, int elementBytes,
                 size_t count, void *stream) {
  const char *doing = "filling device memory";
  if (!count || !enterWith(destination != NULL, "the destination", doing))
    return;
  CUdeviceptr begin = (CUdeviceptr)destination;
  if (elementBytes == 4)
    CHECK(cuMemsetD32Async(begin, value, count, (CUstream)stream), doing);
  else
    CHECK(
        cuMemsetD16Async(begin, (unsigned short)value, count, (CUstream)stream),
        doing);
  leaveContext();
}

void mgpuMemset32(void *destination, uint32_t value, size_t count,
                  void *stream) {
  fill(destination, value, 4, count, stream);
}

void mgpuMemset16(void *destination, uint16_t value, size_t count,
                  void *stream) {
  fill(destination, value, 2, count, stream);
}

void mgpuMemHostRegister(void *pointer, uint64_t bytes) {
  const char *doing = "registering host memory with the device";
  if (pointer && bytes && enterContext(doing))
    CALL_AND_LEAVE(
        cuMemHostRegister(pointer, bytes, CU_MEMHOSTREGISTER_PORTABLE), doing);
}

void mgpuMemHostUnregister(void *pointer) {
  const char *doing = "unregistering host memory";
  if (pointer && enterContext(doing))
    CALL_AND_LEAVE(cuMemHostUnregister(pointer), doing);
}

/* The first byte and the byte span of a strided memref. */
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
};

static void getMemRefSpan(int64_t rank, void *descriptor, int64_t elementBytes,
                          char **begin, uint64_t *bytes) {
  const struct MemRefDescriptor *memref = descriptor;
  *begin = memref->aligned + memref->offset * elementBytes;
  int64_t lastElement = 0;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = memref->sizesAndStrides[d];
    int64_t stride = memref->sizesAndStrides[rank + d];
    if (size == 0) {
      *bytes = 0;
      return;
    }
    lastElement += (size - 1) * stride;
  }
  *bytes = (uint64_t)(lastElement + 1) * (uint64_t)elementBytes;
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementBytes) {
  char *begin = NULL;
  uint64_t bytes = 0;
  getMemRefSpan(rank, descriptor, elementBytes, &begin, &bytes);
  mgpuMemHostRegister(begin, bytes);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementBytes) {
  char *begin = NULL;
  uint64_t bytes = 0;
  getMemRefSpan(rank, descriptor, elementBytes, &begin, &bytes);
  if (bytes)
    mgpuMemHostUnregister(begin);
}
