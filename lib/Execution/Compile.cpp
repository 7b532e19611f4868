//===- Compile.cpp - lower a module on tensors to the LLVM dialect --------===//

#include "mixer/Execution/Compile.h"

#include "mixer/Dialect/Mixer/IR/MixerDialect.h"
#include "mixer/Execution/Signature.h"
#include "mixer/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

using namespace mlir;
using namespace mlir::mixer;

void mlir::mixer::registerCompilerDialects(DialectRegistry &registry) {
  registry.insert<MixerDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

namespace {
/// The first pass that failed and what it ran on, to name them in the error.
struct FailedPass {
  std::string pass, op;
  std::optional<Location> loc;
};

struct FailedPassRecorder : public PassInstrumentation {
  FailedPass *failed;
  explicit FailedPassRecorder(FailedPass *failed) : failed(failed) {}
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    if (!failed->pass.empty())
      return;
    failed->pass = pass->getArgument().empty() ? pass->getName().str()
                                               : pass->getArgument().str();
    failed->op = op->getName().getStringRef().str();
    if (auto name =
            op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      failed->op += " @" + name.str();
    failed->loc = op->getLoc();
  }
};
} // namespace

LogicalResult mlir::mixer::compileToLLVM(ModuleOp module,
                                         const CpuPipelineOptions &options) {
  if (failed(verify(module)))
    return module.emitError() << "the input module fails to verify";
  if (failed(getPublicFunctionSignatures(module)))
    return failure();

  std::string pipeline;
  {
    llvm::raw_string_ostream os(pipeline);
    os << "mixer-lower-to-cpu-pipeline";
    options.print(os);
  }
  PassManager pm(module->getName());
  buildLowerToCpuPipeline(pm, options);
  FailedPass failedPass;
  pm.addInstrumentation(std::make_unique<FailedPassRecorder>(&failedPass));
  if (failed(pm.run(module))) {
    if (failedPass.pass.empty())
      return module.emitError() << pipeline << " failed";
    return emitError(failedPass.loc.value_or(module.getLoc()))
           << pipeline << " failed in pass '" << failedPass.pass << "' on "
           << failedPass.op;
  }

  // Anything left outside the LLVM and OpenMP dialects would fail the
  // translation with a less helpful message.
  WalkResult leftover = module.walk([&](Operation *op) {
    if (op == module.getOperation() ||
        isa<LLVM::LLVMDialect, omp::OpenMPDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError() << "operation '" << op->getName()
                    << "' was not lowered to the LLVM dialect by " << pipeline;
    return WalkResult::interrupt();
  });
  if (leftover.wasInterrupted())
    return failure();

  // Only the C wrappers are the interface. The functions they wrap become
  // internal, so that an object's symbols cannot clash with an
  // application's (a kernel named `add`), and LLVM inlines them.
  SymbolTable symbols(module);
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getSymName();
    if (!name.consume_front("_mlir_ciface_"))
      continue;
    auto wrapped = symbols.lookup<LLVM::LLVMFuncOp>(name);
    if (wrapped && !wrapped.isExternal())
      wrapped.setLinkage(LLVM::Linkage::Internal);
  }
  return success();
}
