//===- JitModule.cpp - run a lowered module in this process ---------------===//

#include "mixer/Execution/JitModule.h"
#include "mixer/Runtime/RuntimeChecks.h"
#include "mixer/Target/CpuTarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::mixer;

static constexpr llvm::StringLiteral kWrapperPrefix = "_mlir_ciface_";

/// The path in `variable` when set, else the one found at build time: a
/// machine without LLVM 22 (scripts/gpu-bundle.sh) brings its own copies.
static const char *libraryPath(const char *variable, const char *builtIn) {
  const char *path = std::getenv(variable);
  return path && *path ? path : builtIn;
}

std::vector<std::string> JitOptions::getDefaultSharedLibraries() {
  std::vector<std::string> libs;
  for (const char *path :
       {libraryPath("MIXER_OMP_LIBRARY", MIXER_OMP_LIBRARY),
        libraryPath("MIXER_C_RUNNER_UTILS_LIBRARY",
                    MIXER_C_RUNNER_UTILS_LIBRARY)})
    if (llvm::sys::fs::exists(path))
      libs.push_back(path);
  return libs;
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static llvm::CodeGenOptLevel getCodeGenOptLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

/// The host CPU with all its features (detectHost fills in both), or the
/// CPU the options name, provided its code runs here.
static llvm::Expected<llvm::orc::JITTargetMachineBuilder>
createTargetMachineBuilder(const JitOptions &options) {
  if (options.cpu.empty()) {
    if (!options.features.empty())
      return makeError("JIT features '" + options.features +
                       "' given without a CPU");
    return llvm::orc::JITTargetMachineBuilder::detectHost();
  }
  std::string error;
  FailureOr<SmallVector<std::string>> missing =
      getFeaturesMissingHere(options.cpu, options.features, error);
  if (failed(missing))
    return makeError(error);
  if (!missing->empty())
    return makeError("cannot run code for CPU '" + options.cpu + "'" +
                     (options.features.empty() ? ""
                                               : " (" + options.features + ")") +
                     " here: this machine lacks " + llvm::join(*missing, ", "));
  llvm::Triple triple(llvm::sys::getProcessTriple());
  llvm::orc::JITTargetMachineBuilder builder(triple);
  builder.setCPU(options.cpu);
  if (!options.features.empty()) {
    SmallVector<StringRef> features;
    StringRef(options.features).split(features, ',', -1, false);
    builder.addFeatures(
        std::vector<std::string>(features.begin(), features.end()));
  }
  return builder;
}

JitModule::~JitModule() = default;

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::create(ModuleOp module, const JitOptions &options) {
  // Once per process, even when modules are created on several threads.
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;

  std::unique_ptr<JitModule> jit(new JitModule());
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getSymName();
    if (func.isExternal() || !name.consume_front(kWrapperPrefix))
      continue;
    Wrapper &wrapper = jit->wrappers[name];
    for (Type type : func.getFunctionType().getParams())
      wrapper.byPointer.push_back(isa<LLVM::LLVMPointerType>(type));
  }

  for (const std::string &path : options.sharedLibPaths)
    if (!llvm::sys::fs::exists(path))
      return makeError("shared library '" + path + "' not found");
  SmallVector<StringRef> libs(options.sharedLibPaths.begin(),
                              options.sharedLibPaths.end());

  auto builder = createTargetMachineBuilder(options);
  if (!builder)
    return builder.takeError();
  // ExecutionEngine compiles with the target machine it is given, so the
  // code generation level is set here rather than in its options.
  builder->setCodeGenOptLevel(getCodeGenOptLevel(options.optLevel));
  auto tm = builder->createTargetMachine();
  if (!tm)
    return tm.takeError();

  // The transformer option is a function_ref: the function must outlive
  // ExecutionEngine::create, which runs it.
  auto optimize =
      makeOptimizingTransformer(options.optLevel, /*sizeLevel=*/0, tm->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = optimize;
  engineOptions.jitCodeGenOptLevel = getCodeGenOptLevel(options.optLevel);
  engineOptions.sharedLibPaths = libs;
  engineOptions.enablePerfNotificationListener = options.enablePerfProfiling;
  engineOptions.enableObjectDump = options.enableObjectDump;
  auto engine = ExecutionEngine::create(module, engineOptions, std::move(*tm));
  if (!engine)
    return engine.takeError();
  jit->engine = std::move(*engine);
  // The code reports failed run-time checks to the runtime linked into this
  // library, whose per-thread record the callers read.
  jit->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("mixerRuntimeCheckFailed")] = {
        llvm::orc::ExecutorAddr::fromPtr(&mixerRuntimeCheckFailed),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  // Runs global constructors once, before any call.
  jit->engine->initialize();
  // Every wrapper now, so that calls from several threads only read.
  for (auto &entry : jit->wrappers) {
    auto packed =
        jit->engine->lookupPacked((kWrapperPrefix + entry.getKey()).str());
    if (!packed)
      return packed.takeError();
    entry.getValue().packed = *packed;
  }
  return jit;
}

void JitModule::dumpToObjectFile(StringRef path) {
  // create() looked up the wrappers, which compiled the module. The engine's
  // own lookups would ask for packed forms of the functions made internal,
  // which do not exist.
  engine->dumpToObjectFile(path);
}

llvm::Error JitModule::call(StringRef name, ArrayRef<void *> args) const {
  auto it = wrappers.find(name);
  if (it == wrappers.end())
    return makeError("no public function named '" + name + "' (no " +
                     kWrapperPrefix + name + " in the module)");
  const Wrapper &wrapper = it->second;
  ArrayRef<bool> byPointer = wrapper.byPointer;
  if (args.size() != byPointer.size())
    return makeError("function '" + name + "' takes " +
                     llvm::Twine(byPointer.size()) + " arguments, got " +
                     llvm::Twine(args.size()));
  // The packed wrapper takes the address of each argument of the C wrapper:
  // for a descriptor pointer, the address of a slot holding it.
  SmallVector<void *> slots(args.begin(), args.end());
  SmallVector<void *> packed(args.size());
  for (size_t i = 0; i < args.size(); ++i)
    packed[i] = byPointer[i] ? static_cast<void *>(&slots[i]) : slots[i];
  wrapper.packed(packed.data());
  return llvm::Error::success();
}
