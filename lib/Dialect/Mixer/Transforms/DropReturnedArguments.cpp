//===- DropReturnedArguments.cpp - results written into outs arguments ----===//

#include "mixer/Dialect/Mixer/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERDROPRETURNEDARGUMENTSPASS
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

/// The function argument `value` is, looking through casts.
static BlockArgument asArgument(Value value, func::FuncOp func) {
  while (auto cast = value.getDefiningOp<memref::CastOp>())
    value = cast.getSource();
  auto arg = dyn_cast<BlockArgument>(value);
  if (arg && arg.getOwner() == &func.getBody().front())
    return arg;
  return {};
}

namespace {
struct MixerDropReturnedArgumentsPass
    : public mixer::impl::MixerDropReturnedArgumentsPassBase<
          MixerDropReturnedArgumentsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic() || func.getNumResults() == 0)
        continue;
      if (!func.getBody().hasOneBlock()) {
        func.emitError() << "expected a single-block function body";
        return signalPassFailure();
      }
      auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
      for (auto [i, operand] : llvm::enumerate(ret.getOperands())) {
        if (!isa<BaseMemRefType>(operand.getType()) ||
            !asArgument(operand, func)) {
          func.emitError() << "result #" << i
                           << " is not computed in place into an argument; "
                              "pass its destination as an argument marked "
                              "bufferization.writable";
          return signalPassFailure();
        }
      }
      ret->setOperands({});
      func.setType(FunctionType::get(&getContext(), func.getArgumentTypes(),
                                     {}));
      func.removeResAttrsAttr();
    }
  }
};
} // namespace
