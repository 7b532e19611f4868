//===- LowerMemrefCopies.cpp - memref.copy without the runtime library ----===//

#include "mixer/Dialect/Mixer/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERLOWERMEMREFCOPIESPASS
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

namespace {
struct MixerLowerMemrefCopiesPass
    : public mixer::impl::MixerLowerMemrefCopiesPassBase<
          MixerLowerMemrefCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      if (copy.getSource() == copy.getTarget()) {
        rewriter.eraseOp(copy);
        continue;
      }
      if (succeeded(linalg::vectorizeCopy(rewriter, copy)))
        continue;
      linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      rewriter.eraseOp(copy);
    }
  }
};
} // namespace
