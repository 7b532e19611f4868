//===- EmitCInterface.cpp - C wrappers for every public function ----------===//

#include "mixer/Codegen/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXEREMITCINTERFACEPASS
#include "mixer/Codegen/Common/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

namespace {
struct MixerEmitCInterfacePass
    : public mixer::impl::MixerEmitCInterfacePassBase<MixerEmitCInterfacePass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      UnitAttr::get(&getContext()));
  }
};
} // namespace
