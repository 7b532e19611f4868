//===- ContractFloatOps.cpp - multiplies and adds LLVM may fuse -----------===//
//
// LLVM fuses an fmul into the fadd or fsub that consumes it (one FMA, one
// rounding) only where both carry the `contract` fast-math flag, or where
// the whole target is compiled with fusion allowed. The lowerings build
// their element-wise maps from arith.mulf and arith.addf without flags, so
// each multiply-add in them stays two instructions; this pass adds the flag
// to every such op of the module instead of to each place that builds one.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERCONTRACTFLOATOPSPASS
#include "mixer/Codegen/Common/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

namespace {

/// Adds `contract` to the fast-math flags of `op`.
template <typename OpTy> void allowContraction(OpTy op) {
  op.setFastmath(op.getFastmath() | arith::FastMathFlags::contract);
}

struct MixerContractFloatOpsPass
    : public mixer::impl::MixerContractFloatOpsPassBase<
          MixerContractFloatOpsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto mul = dyn_cast<arith::MulFOp>(op))
        allowContraction(mul);
      else if (auto add = dyn_cast<arith::AddFOp>(op))
        allowContraction(add);
      else if (auto sub = dyn_cast<arith::SubFOp>(op))
        allowContraction(sub);
    });
  }
};

} // namespace
