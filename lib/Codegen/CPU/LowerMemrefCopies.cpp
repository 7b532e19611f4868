//===- LowerMemrefCopies.cpp - memref.copy without the runtime library ----===//

#include "mixer/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERLOWERMEMREFCOPIESPASS
#include "mixer/Codegen/CPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

/// Copies a static-shape memref one innermost row at a time: a loop nest
/// over the outer dims around a 1-D vector read and write. (A single n-D
/// vector of the whole tile would spill: a 64x64 f32 tile is 256 registers.)
static bool copyByRows(RewriterBase &rewriter, memref::CopyOp copy) {
  auto type = cast<MemRefType>(copy.getSource().getType());
  if (!type.hasStaticShape() || type.getRank() == 0)
    return false;
  Location loc = copy.getLoc();
  ArrayRef<int64_t> shape = type.getShape();
  auto rowType = VectorType::get({shape.back()}, type.getElementType());
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t size : shape.drop_back()) {
    lbs.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
    ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, size));
    steps.push_back(arith::ConstantIndexOp::create(rewriter, loc, 1));
  }
  scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        SmallVector<Value> indices(ivs);
        indices.push_back(arith::ConstantIndexOp::create(b, l, 0));
        Value padding = ub::PoisonOp::create(b, l, type.getElementType());
        Value row = vector::TransferReadOp::create(
            b, l, rowType, copy.getSource(), indices, padding,
            ArrayRef<bool>{true});
        vector::TransferWriteOp::create(b, l, row, copy.getTarget(), indices,
                                        ArrayRef<bool>{true});
      });
  rewriter.eraseOp(copy);
  return true;
}

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
      if (copyByRows(rewriter, copy))
        continue;
      linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      rewriter.eraseOp(copy);
    }
  }
};
} // namespace
