//===- ObjectFile.cpp - LLVM IR and object files for the host -------------===//

#include "mixer/Execution/ObjectFile.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

using namespace mlir;
using namespace mlir::mixer;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::mixer::createHostTargetMachine(const ObjectFileOptions &options) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("no LLVM target for " + triple.str() + ": " + error);

  std::string cpu =
      options.cpu.empty() ? llvm::sys::getHostCPUName().str() : options.cpu;
  std::string features = options.features;
  if (options.cpu.empty() && features.empty()) {
    llvm::SubtargetFeatures hostFeatures;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      hostFeatures.AddFeature(feature.first(), feature.second);
    features = hostFeatures.getString();
  }
  llvm::CodeGenOptLevel level =
      options.optLevel >= 3
          ? llvm::CodeGenOptLevel::Aggressive
          : static_cast<llvm::CodeGenOptLevel>(options.optLevel);
  std::unique_ptr<llvm::TargetMachine> tm(
      target->createTargetMachine(triple, cpu, features, llvm::TargetOptions(),
                                  llvm::Reloc::PIC_, std::nullopt, level));
  if (!tm)
    return makeError("cannot create a target machine for " + triple.str() +
                     " (cpu " + cpu + ")");
  return tm;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
mlir::mixer::translateAndOptimize(ModuleOp module,
                                  llvm::LLVMContext &llvmContext,
                                  llvm::TargetMachine &tm, unsigned optLevel) {
  // Diagnostics of the translation go to the module's context.
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return makeError("cannot translate the module to LLVM IR");
  llvmModule->setTargetTriple(tm.getTargetTriple());
  llvmModule->setDataLayout(tm.createDataLayout());
  auto optimize = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, &tm);
  if (llvm::Error error = optimize(llvmModule.get()))
    return std::move(error);
  return llvmModule;
}

/// Translates `module` to LLVM IR optimized for the host and hands it, with
/// the host's target machine, to `emit`.
static llvm::Error withHostModule(
    ModuleOp module, const ObjectFileOptions &options,
    llvm::function_ref<llvm::Error(llvm::Module &, llvm::TargetMachine &)>
        emit) {
  auto tm = createHostTargetMachine(options);
  if (!tm)
    return tm.takeError();
  llvm::LLVMContext llvmContext;
  auto llvmModule =
      translateAndOptimize(module, llvmContext, **tm, options.optLevel);
  if (!llvmModule)
    return llvmModule.takeError();
  return emit(**llvmModule, **tm);
}

llvm::Error mlir::mixer::emitLLVMIR(ModuleOp module, llvm::raw_ostream &os,
                                    const ObjectFileOptions &options) {
  return withHostModule(
      module, options,
      [&](llvm::Module &llvmModule, llvm::TargetMachine &) -> llvm::Error {
        llvmModule.print(os, nullptr);
        return llvm::Error::success();
      });
}

llvm::Error mlir::mixer::emitObjectFile(ModuleOp module, StringRef path,
                                        const ObjectFileOptions &options) {
  return withHostModule(
      module, options,
      [&](llvm::Module &llvmModule, llvm::TargetMachine &tm) -> llvm::Error {
        std::error_code ec;
        llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
        if (ec)
          return makeError("cannot open '" + path +
                           "' for writing: " + ec.message());
        llvm::legacy::PassManager codegen;
        if (tm.addPassesToEmitFile(codegen, out.os(), nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
          return makeError("the target cannot emit object files");
        codegen.run(llvmModule);
        out.os().flush();
        if (out.os().has_error()) {
          out.os().clear_error();
          return makeError("cannot write '" + path + "'");
        }
        out.keep();
        return llvm::Error::success();
      });
}
