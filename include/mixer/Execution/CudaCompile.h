//===- CudaCompile.h - a module on tensors to PTX and host code -*- C++ -*-===//
//
// The CUDA side of mixer-compile, the C API and mixer-bench: the module runs
// through mixer-lower-to-nvvm-pipeline; every public function NAME then has
// two entry points with the C ABI of Signature.h:
//   NAME         takes host arrays: copies every tensor argument to the
//                device, runs NAME_device, copies the outputs back;
//   NAME_device  takes device pointers (memory from mgpuMemAlloc or
//                cuMemAlloc) and runs the kernels on them.
// Both return once the kernels are done. They call the mgpu* functions of
// libMixerCudaRuntime (mixer/Runtime/CudaRuntime.h).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_EXECUTION_CUDACOMPILE_H
#define MIXER_EXECUTION_CUDACOMPILE_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::mixer {

/// The suffix of the entry points that take device pointers.
inline constexpr llvm::StringLiteral kDeviceEntrySuffix = "_device";

struct CudaCompileOptions {
  /// sm_80, sm_90 or sm_90a.
  std::string chip = "sm_90";
  /// More options of mixer-lower-to-nvvm-pipeline, space separated
  /// ("key=value ..."), e.g. tile sizes.
  std::string pipelineOptions;
};

/// The chips the GPU pipeline compiles for, for messages: "sm_80, sm_90,
/// sm_90a".
std::string getSupportedCudaChips();
/// Whether `chip` is one of them.
bool isSupportedCudaChip(llvm::StringRef chip);

/// Lowers `module` in place to the LLVM dialect with its kernels embedded
/// as a fatbin (gpu.binary), with both entry points of every public
/// function (see above) and `_mlir_ciface_` wrappers for them. Verifies the
/// input, checks the C ABI, names the pass that failed; every problem is
/// emitted as a diagnostic and returns failure.
LogicalResult compileToLLVMForCuda(ModuleOp module,
                                   const CudaCompileOptions &options);

/// Lowers a copy of `module` with the GPU pipeline and returns the PTX of
/// every kernel, one PTX module (several kernel modules merged into one).
FailureOr<std::string> compileToPtx(ModuleOp module,
                                    const CudaCompileOptions &options);

/// Adds, for every public function NAME of `module` (on tensors), a public
/// copy NAME_device with the same signature: what a C header of the CUDA
/// entry points declares.
void addDeviceEntryDeclarations(ModuleOp module);

} // namespace mlir::mixer

#endif // MIXER_EXECUTION_CUDACOMPILE_H
