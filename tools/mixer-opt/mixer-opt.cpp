//===- mixer-opt.cpp - mlir-opt with the mixer dialect and passes ---------===//

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Codegen/Common/Passes.h"
#include "mixer/Codegen/GPU/Passes.h"
#include "mixer/Conversion/Passes.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Pipelines/Pipelines.h"
#include "mixer/Target/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

/// Hides from --help the options registered before main runs: those of
/// LLVM's code generators (amdgpu, x86, polly, ...) that libLLVM defines
/// statically. MLIR's options, the passes and the pipelines are registered
/// by MlirOptMain afterwards and stay listed; --help-hidden shows all.
static void hideStaticLLVMOptions() {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    bool isGeneric = llvm::any_of(option->Categories, [](auto *category) {
      return llvm::StringRef(category->getName()) == "Generic Options";
    });
    if (!isGeneric && option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

int main(int argc, char **argv) {
  hideStaticLLVMOptions();
  mlir::registerAllPasses();
  mlir::mixer::registerMixerPasses();
  mlir::mixer::registerMixerConversionPasses();
  mlir::mixer::registerMixerCommonCodegenPasses();
  mlir::mixer::registerMixerCpuCodegenPasses();
  mlir::mixer::registerMixerGpuCodegenPasses();
  mlir::mixer::registerMixerTargetPasses();
  mlir::mixer::registerPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::mixer::MixerDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates the kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mixer optimizer driver\n", registry));
}
