/*===- Mixer.h - the C API of mixer: compile once, call many ---*- C -*-===*/
/*
 * Compiles the text of an MLIR module of functions on tensors (mixer ops,
 * linalg, ...) with the CPU pipeline into machine code in this process, and
 * calls its public functions on caller-owned memory. The library is
 * libMixerCAPI.so; the Python package python/mixer is built on it.
 *
 * Threads:
 *  - mixerModuleCall may run on any number of threads at once, on the same
 *    module or on different ones. Concurrent calls may share inputs; an
 *    output written by one call must not be read or written by another
 *    running at the same time (that race is in the caller's memory).
 *  - mixerModuleCompile calls on one context are serialized by a mutex of
 *    the context (its MLIRContext is used by one thread at a time); they
 *    may run while other threads call modules of that context. Calls on
 *    different contexts run at once.
 *  - mixerModuleDestroy takes the same mutex, so it may run while another
 *    thread compiles in that context. The introspection functions and
 *    mixerGetLastError may run on any thread.
 *  - It is the caller's job that mixerModuleDestroy of a module does not
 *    run while, or before, another thread uses that module, and that
 *    mixerContextDestroy does not run while, or before, another thread uses
 *    the context or any of its modules.
 *  - Error messages are kept per thread: mixerGetLastError(context) is the
 *    message of the last failing call made by the calling thread on that
 *    context or its modules.
 */

#ifndef MIXER_C_MIXER_H
#define MIXER_C_MIXER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MIXER_CAPI_EXPORT __attribute__((visibility("default")))

/* A compiler context. Owns the modules compiled in it and, per thread, the
 * message of the last error. See "Threads" above. */
typedef struct MixerContext *mixer_context_t;
/* A compiled module: its public functions, ready to call. */
typedef struct MixerModule *mixer_module_t;

/* Every function that can fail returns one of these; on failure
 * mixerGetLastError tells why. No input makes the library abort. */
typedef enum {
  MIXER_SUCCESS = 0,
  MIXER_ERROR_INVALID_ARGUMENT = 1, /* a null pointer, a bad options string */
  MIXER_ERROR_PARSE = 2,            /* the source is not valid MLIR */
  MIXER_ERROR_VERIFY = 3,           /* an op rejects its operands */
  MIXER_ERROR_COMPILE = 4,          /* unsupported ABI, the pipeline failed */
  MIXER_ERROR_JIT = 5,              /* LLVM could not compile the result */
  MIXER_ERROR_NOT_FOUND = 6,        /* no public function of that name */
  MIXER_ERROR_ARGUMENTS = 7,        /* argument count, shape or layout */
  MIXER_ERROR_NO_DEVICE = 8, /* target=cuda: no NVIDIA driver or GPU here */
  MIXER_ERROR_DEVICE = 9     /* target=cuda: a CUDA call failed */
} mixer_status_t;

/* Element types of arguments, as in mlir::mixer::ElementKind. */
typedef enum {
  MIXER_F32 = 0,
  MIXER_F64 = 1,
  MIXER_F16 = 2,
  MIXER_BF16 = 3,
  MIXER_I8 = 4,
  MIXER_I16 = 5,
  MIXER_I32 = 6,
  MIXER_I64 = 7,
  MIXER_INDEX = 8
} mixer_element_type_t;

/* One argument of a public function, as compiled. */
typedef struct {
  const char *name; /* its SSA name in the source, or "" */
  mixer_element_type_t elementType;
  int isTensor;         /* 1: a memref descriptor; 0: a scalar */
  int isOutput;         /* 1: marked {bufferization.writable = true} */
  int rank;             /* 0 for scalars */
  const int64_t *shape; /* rank sizes; -1 where the IR has `?` */
} mixer_argument_info_t;

/*===----------------------------------------------------------------------===*
 * Contexts
 *===----------------------------------------------------------------------===*/

/* Creates a context; null only when out of memory. */
MIXER_CAPI_EXPORT mixer_context_t mixerContextCreate(void);
/* Destroys a context and every module still alive in it. No other thread
 * may be using the context or its modules. */
MIXER_CAPI_EXPORT void mixerContextDestroy(mixer_context_t context);
/* The message of the last error of this thread's calls on `context` or on
 * one of its modules ("" after a success): other threads' failures do not
 * change it. Valid until this thread's next call on the context or one of
 * its modules. */
MIXER_CAPI_EXPORT const char *mixerGetLastError(mixer_context_t context);

/*===----------------------------------------------------------------------===*
 * Modules
 *===----------------------------------------------------------------------===*/

/* Parses, verifies and compiles `mlirSource` for this CPU. `options` are
 * those of mixer-lower-to-cpu-pipeline, space separated, e.g.
 * "num-threads=2 naive=0" (null or "" for the defaults).
 *
 * With "target=cuda" (and "chip=sm_80|sm_90|sm_90a", sm_90 by default;
 * the other options are then those of mixer-lower-to-nvvm-pipeline) the
 * functions run on an NVIDIA GPU: mixerModuleCall takes host memory as
 * for the CPU, copies it to the GPU and the outputs back. Compiling needs
 * no GPU; where the NVIDIA driver or a GPU is missing, the module is still
 * returned and every call fails with MIXER_ERROR_NO_DEVICE saying which. A
 * CUDA failure during a call is MIXER_ERROR_DEVICE. Every public
 * function must follow the ABI of mixer-compile's headers: inputs, then one
 * output per result marked {bufferization.writable = true}. With the
 * option "generate-vjp=1", every public function f also gets f_vjp, its
 * vector-Jacobian product, callable like the others: its arguments are f's
 * inputs, one cotangent per result of f (of the result's type), then one
 * output per float tensor input of f receiving that input's gradient
 * (docs/Backward.md). On success
 * stores the module in *out. Errors carry the diagnostics, with source
 * lines. */
MIXER_CAPI_EXPORT mixer_status_t mixerModuleCompile(mixer_context_t context,
                                                    const char *mlirSource,
                                                    const char *options,
                                                    mixer_module_t *out);

/* Calls the public function `funcName`. `args` holds one pointer per
 * argument, in order: for a tensor, a pointer to its memref descriptor
 * ({T *allocated, *aligned; int64_t offset, sizes[R], strides[R]}, dense
 * row-major, offset 0); for a scalar, a pointer to its value. Before the
 * call, checks the number of arguments and every descriptor against the
 * compiled signature (static sizes, row-major strides), and that no output
 * shares a byte with another tensor argument (input or output; empty
 * tensors share nothing); a mismatch is MIXER_ERROR_ARGUMENTS with a
 * message naming the argument(s), and nothing runs. Outputs are written in
 * place. Thread-safe: see "Threads" above. */
MIXER_CAPI_EXPORT mixer_status_t mixerModuleCall(mixer_module_t module,
                                                 const char *funcName,
                                                 void **args, int numArgs);

/* Destroys a module (null is ignored). No other thread may be using it. */
MIXER_CAPI_EXPORT void mixerModuleDestroy(mixer_module_t module);

/* Introspection of the compiled signatures. */
MIXER_CAPI_EXPORT int mixerModuleGetNumFunctions(mixer_module_t module);
/* The name of function `index` (in module order), or null. */
MIXER_CAPI_EXPORT const char *mixerModuleGetFunctionName(mixer_module_t module,
                                                         int index);
/* Stores the number of arguments and of results of `funcName`. */
MIXER_CAPI_EXPORT mixer_status_t mixerModuleGetFunction(mixer_module_t module,
                                                        const char *funcName,
                                                        int *numArgs,
                                                        int *numResults);
/* Describes argument `index` of `funcName`; the pointers in *info stay
 * valid while the module lives. */
MIXER_CAPI_EXPORT mixer_status_t
mixerModuleGetArgument(mixer_module_t module, const char *funcName, int index,
                       mixer_argument_info_t *info);

#ifdef __cplusplus
}
#endif

#endif /* MIXER_C_MIXER_H */
