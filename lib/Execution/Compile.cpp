//===- Compile.cpp - lower a module on tensors to the LLVM dialect --------===//

#include "mixer/Execution/Compile.h"

#include "mixer/Dialect/Mixer/IR/MixerDialect.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Execution/CHeader.h"
#include "mixer/Execution/Signature.h"
#include "mixer/Pipelines/Pipelines.h"
#include "mixer/Target/CpuTarget.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::mixer;

void mlir::mixer::registerCompilerDialects(DialectRegistry &registry) {
  registry.insert<MixerDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

LogicalResult mlir::mixer::parsePipelineOptions(StringRef text,
                                                CpuPipelineOptions &options,
                                                std::string &error) {
  // The option parser reports bad values on stderr, so each option is
  // checked here first, against the names and defaults that print() lists:
  // "{naive=false num-threads=0 ...}".
  std::string defaults;
  {
    llvm::raw_string_ostream os(defaults);
    CpuPipelineOptions().print(os);
  }
  // The kind of each option, from its default: a bool, an integer, or a
  // string (empty by default, the target's CPU and features).
  enum class Kind { Bool, Integer, String };
  llvm::StringMap<Kind> kinds;
  SmallVector<StringRef> entries;
  StringRef(defaults).trim("{}").split(entries, ' ', -1, false);
  for (StringRef entry : entries) {
    auto [key, value] = entry.split('=');
    kinds[key] = value == "true" || value == "false" ? Kind::Bool
                 : value.empty()                     ? Kind::String
                                                     : Kind::Integer;
  }
  auto listOptions = [&] {
    std::string names;
    for (StringRef entry : entries)
      names += (names.empty() ? "" : ", ") + entry.split('=').first.str();
    return names;
  };

  SmallVector<StringRef> tokens;
  text.split(tokens, ' ', -1, false);
  for (StringRef token : tokens) {
    auto [key, value] = token.split('=');
    auto it = kinds.find(key);
    if (it == kinds.end()) {
      error = "unknown option '" + key.str() + "'; the options are " +
              listOptions();
      return failure();
    }
    int64_t number;
    if (it->second == Kind::String)
      continue;
    bool isBool = it->second == Kind::Bool;
    bool valid = isBool
                     ? llvm::is_contained({"true", "false", "1", "0", "TRUE",
                                           "FALSE", "True", "False", ""},
                                          value)
                     : !value.getAsInteger(10, number);
    if (!valid) {
      error = "option '" + key.str() + "' takes " +
              (isBool ? "true or false" : "an integer") + ", got '" +
              value.str() + "'";
      return failure();
    }
  }
  llvm::raw_string_ostream os(error);
  return options.parseFromString(text, os);
}

OwningOpRef<ModuleOp> mlir::mixer::parseModule(
    llvm::SourceMgr &sourceMgr, MLIRContext *context,
    llvm::StringMap<SmallVector<std::string>> *argumentNames) {
  Block block;
  AsmParserState state;
  ParserConfig config(context, /*verifyAfterParse=*/false);
  if (failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
    return nullptr;
  OwningOpRef<ModuleOp> module;
  if (llvm::hasSingleElement(block) && isa<ModuleOp>(block.front())) {
    module = cast<ModuleOp>(block.front());
    module.get()->remove();
  } else {
    auto buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
    module = ModuleOp::create(
        FileLineColLoc::get(context, buffer->getBufferIdentifier(), 1, 1));
    module->getBody()->getOperations().splice(module->getBody()->begin(),
                                              block.getOperations());
  }
  if (argumentNames)
    *argumentNames = getSourceArgumentNames(*module, state);
  return module;
}

LogicalResult mlir::mixer::generateVjpFunctions(
    ModuleOp module, llvm::StringMap<SmallVector<std::string>> *argumentNames) {
  PassManager pm(module->getName());
  pm.addPass(createMixerGenerateVjpPass());
  if (failed(pm.run(module)))
    return failure();
  if (!argumentNames)
    return success();
  SymbolTable symbols(module);
  for (auto vjp : module.getOps<func::FuncOp>()) {
    StringRef name = vjp.getSymName();
    if (argumentNames->count(name) || !name.consume_back("_vjp"))
      continue;
    auto f = symbols.lookup<func::FuncOp>(name);
    auto names = argumentNames->find(name);
    if (!f || names == argumentNames->end() ||
        names->second.size() != f.getNumArguments())
      continue;
    // @f(inputs..., outs...) -> @f_vjp(inputs..., d_outs..., d_inputs...).
    unsigned numResults = f.getNumResults();
    unsigned numInputs = f.getNumArguments();
    while (numInputs > 0 && f.getArgAttr(numInputs - 1, "bufferization.writable"))
      --numInputs;
    ArrayRef<std::string> fNames = names->second;
    SmallVector<std::string> list(fNames.take_front(numInputs));
    for (unsigned i = 0; i < numResults; ++i)
      list.push_back(numInputs + i < fNames.size() &&
                             numInputs + i < f.getNumArguments()
                         ? "d_" + fNames[numInputs + i]
                         : "d_" + std::to_string(i));
    for (unsigned i = 0; i < numInputs; ++i) {
      auto tensor = dyn_cast<RankedTensorType>(f.getArgumentTypes()[i]);
      if (tensor && isa<FloatType>(tensor.getElementType()))
        list.push_back("d_" + fNames[i]);
    }
    if (list.size() == vjp.getNumArguments())
      (*argumentNames)[vjp.getSymName()] = std::move(list);
  }
  return success();
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

LogicalResult mlir::mixer::runPipeline(ModuleOp module, PassManager &pm,
                                       StringRef pipeline) {
  FailedPass failedPass;
  pm.addInstrumentation(std::make_unique<FailedPassRecorder>(&failedPass));
  if (succeeded(pm.run(module)))
    return success();
  if (failedPass.pass.empty())
    return module.emitError() << pipeline << " failed";
  return emitError(failedPass.loc.value_or(module.getLoc()))
         << pipeline << " failed in pass '" << failedPass.pass << "' on "
         << failedPass.op;
}

LogicalResult mlir::mixer::compileToLLVM(ModuleOp module,
                                         const CpuPipelineOptions &options) {
  if (failed(verify(module)))
    return module.emitError() << "the input module fails to verify";
  if (failed(getPublicFunctionSignatures(module)))
    return failure();

  // Code for this machine unless the options or the module name a target.
  if (options.targetCpu.empty() && options.targetFeatures.empty() &&
      !module->hasAttr(kTargetAttrName))
    setTargetDescription(module, getHostCpuTargetDescription());

  std::string pipeline;
  {
    llvm::raw_string_ostream os(pipeline);
    os << "mixer-lower-to-cpu-pipeline";
    options.print(os);
  }
  PassManager pm(module->getName());
  buildLowerToCpuPipeline(pm, options);
  if (failed(runPipeline(module, pm, pipeline)))
    return failure();

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
