//===- VectorizeCpu.cpp - register tiling and vectorization for the CPU ---===//

#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERVECTORIZECPUPASS
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

LogicalResult mlir::mixer::vectorizeForCpu(Operation *root,
                                           int64_t vectorWidth,
                                           int64_t rowTile) {
  (void)root;
  (void)vectorWidth;
  (void)rowTile;
  return success();
}

namespace {
struct MixerVectorizeCpuPass
    : public mixer::impl::MixerVectorizeCpuPassBase<MixerVectorizeCpuPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(mixer::vectorizeForCpu(getOperation(), vectorWidth, rowTile)))
      return signalPassFailure();
  }
};
} // namespace
