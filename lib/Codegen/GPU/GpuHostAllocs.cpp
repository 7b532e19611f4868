//===- GpuHostAllocs.cpp - host buffers in device memory ------------------===//

#include "mixer/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERGPUHOSTALLOCSPASS
#include "mixer/Codegen/GPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

namespace {
struct MixerGpuHostAllocsPass
    : public mixer::impl::MixerGpuHostAllocsPassBase<MixerGpuHostAllocsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    auto onHost = [](Operation *op) {
      return !op->getParentOfType<gpu::LaunchOp>();
    };
    getOperation().walk([&](Operation *op) {
      if (!onHost(op))
        return;
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        rewriter.setInsertionPoint(alloc);
        rewriter.replaceOpWithNewOp<gpu::AllocOp>(
            alloc, alloc.getType(), /*asyncToken=*/Type(),
            /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
            alloc.getSymbolOperands(), /*hostShared=*/UnitAttr());
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        rewriter.setInsertionPoint(dealloc);
        rewriter.replaceOpWithNewOp<gpu::DeallocOp>(
            dealloc, /*asyncToken=*/Type(), ValueRange(), dealloc.getMemref());
      }
    });
  }
};
} // namespace
