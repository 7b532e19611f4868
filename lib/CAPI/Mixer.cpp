//===- Mixer.cpp - the C API: compile once, call many times ---------------===//
//
// Every entry point catches bad input itself and reports it as a status and
// a message; diagnostics of the parser, the verifiers and the pipeline are
// collected with the source lines they point at. Messages are kept per
// thread, so that calls from several threads each see their own.
//
//===----------------------------------------------------------------------===//

#include "mixer-c/Mixer.h"

#include "mixer/Execution/Compile.h"
#include "mixer/Execution/CudaCompile.h"
#include "mixer/Execution/CudaRuntimeLibrary.h"
#include "mixer/Execution/JitModule.h"
#include "mixer/Execution/Signature.h"
#include "mixer/Pipelines/Pipelines.h"
#include "mixer/Runtime/RuntimeChecks.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>

using namespace mlir;
using namespace mlir::mixer;

static_assert(static_cast<int>(ElementKind::F32) == MIXER_F32 &&
                  static_cast<int>(ElementKind::BF16) == MIXER_BF16 &&
                  static_cast<int>(ElementKind::I64) == MIXER_I64 &&
                  static_cast<int>(ElementKind::Index) == MIXER_INDEX,
              "mixer_element_type_t must follow mlir::mixer::ElementKind");

/// A public function as compiled, with what the C API hands out about it.
struct CompiledFunction {
  FunctionSignature signature;
  SmallVector<std::string> argumentNames;
  /// Per argument: its sizes with -1 for `?` (kDynamic is not -1).
  SmallVector<SmallVector<int64_t>> shapes;
};

/// Numbers contexts for the per-thread messages: an address may be reused by
/// a later context, a number is not.
static std::atomic<uint64_t> nextContextId{1};

struct MixerContext {
  const uint64_t id = nextContextId++;
  MLIRContext mlir;
  /// Held while compiling (an MLIRContext is used by one thread at a time)
  /// and while `modules` changes.
  std::mutex mutex;
  std::set<MixerModule *> modules;

  explicit MixerContext(const DialectRegistry &registry)
      : mlir(registry, MLIRContext::Threading::DISABLED) {
    // Messages quote the user's source; dumps of generic IR would bury them.
    mlir.printOpOnDiagnostic(false);
  }
};

struct MixerModule {
  MixerContext *context = nullptr;
  /// Null for a CUDA module where no GPU can run it (see noDevice).
  std::unique_ptr<JitModule> jit;
  std::vector<CompiledFunction> functions;
  /// Compiled for target=cuda: calls go through the CUDA runtime library.
  const CudaRuntimeLibrary *cuda = nullptr;
  /// For a CUDA module without a usable GPU: why, the error of every call.
  std::string noDevice;

  const CompiledFunction *find(StringRef name) const {
    for (const CompiledFunction &f : functions)
      if (f.signature.name == name)
        return &f;
    return nullptr;
  }
};

/// This thread's message of its last failing call, per context id; a success
/// erases it. Node-based, so that a message stays where it is while other
/// contexts' messages come and go.
static thread_local std::unordered_map<uint64_t, std::string> lastErrors;

static mixer_status_t fail(MixerContext *context, mixer_status_t status,
                           const Twine &message) {
  lastErrors[context->id] = StringRef(message.str()).rtrim().str();
  return status;
}

static mixer_status_t succeed(MixerContext *context) {
  lastErrors.erase(context->id);
  return MIXER_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

mixer_context_t mixerContextCreate(void) {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  return new MixerContext(registry);
}

void mixerContextDestroy(mixer_context_t context) {
  if (!context)
    return;
  for (MixerModule *module : context->modules)
    delete module;
  // Other threads' messages about this context stay until they exit; the id
  // is never reused, so no later context shows them.
  lastErrors.erase(context->id);
  delete context;
}

const char *mixerGetLastError(mixer_context_t context) {
  if (!context)
    return "null context";
  auto it = lastErrors.find(context->id);
  return it == lastErrors.end() ? "" : it->second.c_str();
}

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

mixer_status_t mixerModuleCompile(mixer_context_t context,
                                  const char *mlirSource, const char *options,
                                  mixer_module_t *out) {
  if (!context)
    return MIXER_ERROR_INVALID_ARGUMENT;
  if (!out)
    return fail(context, MIXER_ERROR_INVALID_ARGUMENT, "'out' is null");
  *out = nullptr;
  if (!mlirSource)
    return fail(context, MIXER_ERROR_INVALID_ARGUMENT, "'mlirSource' is null");
  std::lock_guard<std::mutex> lock(context->mutex);

  // target= and chip= choose the pipeline; the rest are its options.
  std::string target = "cpu";
  CudaCompileOptions cudaOptions;
  std::string rest;
  if (options) {
    SmallVector<StringRef> entries;
    StringRef(options).split(entries, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef entry : entries) {
      if (entry.consume_front("target="))
        target = entry.str();
      else if (entry.consume_front("chip="))
        cudaOptions.chip = entry.str();
      else
        rest += (rest.empty() ? "" : " ") + entry.str();
    }
  }
  bool cuda = target == "cuda";
  if (!cuda && target != "cpu")
    return fail(context, MIXER_ERROR_INVALID_ARGUMENT,
                "invalid options '" + Twine(options) + "': unknown target '" +
                    target + "' (known: cpu, cuda)");
  if (cuda && !isSupportedCudaChip(cudaOptions.chip))
    return fail(context, MIXER_ERROR_INVALID_ARGUMENT,
                "invalid options '" + Twine(options) + "': unknown chip '" +
                    cudaOptions.chip +
                    "' (supported: " + getSupportedCudaChips() + ")");
  if (!cuda && StringRef(options ? options : "").contains("chip="))
    return fail(context, MIXER_ERROR_INVALID_ARGUMENT,
                "invalid options '" + Twine(options) +
                    "': chip= needs target=cuda");
  cudaOptions.pipelineOptions = rest;

  CpuPipelineOptions pipelineOptions;
  std::string optionError;
  if (!cuda &&
      failed(parsePipelineOptions(rest, pipelineOptions, optionError)))
    return fail(context, MIXER_ERROR_INVALID_ARGUMENT,
                "invalid options '" + Twine(options) + "': " + optionError);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(mlirSource, "<source>"),
      llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, &context->mlir,
                                     diagnosticStream);

  llvm::StringMap<SmallVector<std::string>> argumentNames;
  OwningOpRef<ModuleOp> module =
      parseModule(sourceMgr, &context->mlir, &argumentNames);
  if (!module)
    return fail(context, MIXER_ERROR_PARSE,
                "cannot parse the module:\n" + diagnostics);
  if (failed(verify(*module)))
    return fail(context, MIXER_ERROR_VERIFY,
                "the module fails to verify:\n" + diagnostics);

  // The vector-Jacobian products are functions like any other: made first,
  // they get signatures, argument names and checks.
  if (pipelineOptions.generateVjp &&
      failed(generateVjpFunctions(*module, &argumentNames)))
    return fail(context, MIXER_ERROR_COMPILE,
                "cannot generate the vector-Jacobian products:\n" +
                    diagnostics);

  // The signatures are read before lowering, which rewrites them.
  FailureOr<SmallVector<FunctionSignature>> signatures =
      getPublicFunctionSignatures(*module);
  if (failed(signatures) ||
      failed(cuda ? compileToLLVMForCuda(*module, cudaOptions)
                  : compileToLLVM(*module, pipelineOptions)))
    return fail(context, MIXER_ERROR_COMPILE,
                "cannot compile the module:\n" + diagnostics);

  auto result = std::make_unique<MixerModule>();
  result->context = context;
  JitOptions jitOptions;
  if (cuda) {
    // Without a GPU the module is compiled but cannot load its kernels:
    // the calls say why.
    auto runtime = CudaRuntimeLibrary::get();
    if (runtime) {
      result->cuda = &*runtime;
      jitOptions.sharedLibPaths.push_back(runtime->path);
    } else {
      result->noDevice = llvm::toString(runtime.takeError());
    }
  }
  if (!cuda || result->cuda) {
    auto jit = JitModule::create(*module, jitOptions);
    if (!jit)
      return fail(context, MIXER_ERROR_JIT,
                  "cannot compile the module to machine code: " +
                      llvm::toString(jit.takeError()) + "\n" + diagnostics);
    result->jit = std::move(*jit);
  }
  for (FunctionSignature &signature : *signatures) {
    CompiledFunction function;
    auto names = argumentNames.find(signature.name);
    for (auto [i, arg] : llvm::enumerate(signature.arguments)) {
      function.argumentNames.push_back(names != argumentNames.end() &&
                                               i < names->second.size()
                                           ? names->second[i]
                                           : std::string());
      SmallVector<int64_t> shape;
      for (int64_t size : arg.shape)
        shape.push_back(ShapedType::isDynamic(size) ? -1 : size);
      function.shapes.push_back(std::move(shape));
    }
    function.signature = std::move(signature);
    result->functions.push_back(std::move(function));
  }
  *out = result.release();
  context->modules.insert(*out);
  return succeed(context);
}

void mixerModuleDestroy(mixer_module_t module) {
  if (!module)
    return;
  std::lock_guard<std::mutex> lock(module->context->mutex);
  module->context->modules.erase(module);
  delete module;
}

//===----------------------------------------------------------------------===//
// Calling
//===----------------------------------------------------------------------===//

/// "[2, ?, 8]" for a signature (where -1 is `?`), "[2, -1, 8]" for
/// descriptor values.
static std::string formatShape(ArrayRef<int64_t> shape,
                               bool isSignature = false) {
  std::string s = "[";
  llvm::interleave(
      shape,
      [&](int64_t size) {
        s += isSignature && size < 0 ? "?" : std::to_string(size);
      },
      [&] { s += ", "; });
  return s + "]";
}

/// "argument #0 ('a')".
static std::string nameArgument(const CompiledFunction &function, unsigned i) {
  std::string s = "argument #" + std::to_string(i);
  if (!function.argumentNames[i].empty())
    s += " ('" + function.argumentNames[i] + "')";
  return s;
}

/// "argument #2 ('c') of 'matmul'".
static std::string describeArgument(const CompiledFunction &function,
                                    unsigned i) {
  return nameArgument(function, i) + " of '" + function.signature.name + "'";
}

/// Checks the memref descriptor of tensor argument `i` against the compiled
/// signature; the generated code takes static sizes, the layout and the
/// offset from the signature, not from the descriptor.
static mixer_status_t checkDescriptor(MixerContext *context,
                                      const CompiledFunction &function,
                                      unsigned i, const void *descriptor) {
  ArrayRef<int64_t> expected = function.shapes[i];
  int64_t rank = expected.size();
  // {T *allocated, *aligned; int64_t offset, sizes[rank], strides[rank]}.
  auto *pointers = static_cast<void *const *>(descriptor);
  auto *fields = reinterpret_cast<const int64_t *>(pointers + 2);
  int64_t offset = fields[0];
  ArrayRef<int64_t> sizes(fields + 1, rank), strides(fields + 1 + rank, rank);

  for (int64_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0 || (expected[d] >= 0 && sizes[d] != expected[d]))
      return fail(context, MIXER_ERROR_ARGUMENTS,
                  describeArgument(function, i) + " has sizes " +
                      formatShape(sizes) + ", expected " +
                      formatShape(expected, /*isSignature=*/true) + " (dim " +
                      Twine(d) + " is " + Twine(sizes[d]) + ")");
  }
  if (offset != 0)
    return fail(context, MIXER_ERROR_ARGUMENTS,
                describeArgument(function, i) + " has offset " + Twine(offset) +
                    "; pass the address of its first element as 'aligned' "
                    "with offset 0");
  int64_t stride = 1, numElements = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    // A dimension of size 1 is never stepped along: any stride works.
    if (sizes[d] != 1 && strides[d] != stride)
      return fail(context, MIXER_ERROR_ARGUMENTS,
                  describeArgument(function, i) + " has strides " +
                      formatShape(strides) +
                      "; tensors must be dense and row-major (dim " + Twine(d) +
                      " must have stride " + Twine(stride) + ")");
    stride *= sizes[d];
    numElements *= sizes[d];
  }
  if (numElements > 0 && !pointers[1])
    return fail(context, MIXER_ERROR_ARGUMENTS,
                describeArgument(function, i) + " has a null data pointer");
  return MIXER_SUCCESS;
}

/// The bytes [begin, end) of a tensor argument whose descriptor passed
/// checkDescriptor.
struct ByteRange {
  uintptr_t begin = 0, end = 0;

  bool overlaps(const ByteRange &other) const {
    // An empty range has no byte to share.
    return begin < end && other.begin < other.end && begin < other.end &&
           other.begin < end;
  }
};

static ByteRange getByteRange(const ArgumentInfo &arg, const void *descriptor) {
  auto *pointers = static_cast<void *const *>(descriptor);
  auto *sizes = reinterpret_cast<const int64_t *>(pointers + 2) + 1;
  uint64_t numElements = 1;
  for (int64_t d = 0; d < arg.getRank(); ++d)
    numElements *= sizes[d];
  auto begin = reinterpret_cast<uintptr_t>(pointers[1]);
  return {begin, begin + numElements * getElementKindSize(arg.element)};
}

/// Rejects an output that shares bytes with another tensor argument: the
/// generated code reads inputs after it has started writing outputs.
static mixer_status_t checkNoOverlap(MixerContext *context,
                                     const CompiledFunction &function,
                                     void *const *args) {
  ArrayRef<ArgumentInfo> arguments = function.signature.arguments;
  for (auto [i, output] : llvm::enumerate(arguments)) {
    if (!output.isTensor || !output.isOutput)
      continue;
    ByteRange written = getByteRange(output, args[i]);
    for (auto [j, other] : llvm::enumerate(arguments)) {
      if (j == i || !other.isTensor ||
          !written.overlaps(getByteRange(other, args[j])))
        continue;
      return fail(context, MIXER_ERROR_ARGUMENTS,
                  describeArgument(function, i) + " overlaps " +
                      nameArgument(function, j) +
                      "; outputs must not alias other arguments");
    }
  }
  return MIXER_SUCCESS;
}

/// Checks `args` against the compiled signature of `function`: the count,
/// null pointers, every descriptor, and that outputs alias nothing.
static mixer_status_t checkArguments(MixerContext *context,
                                     const CompiledFunction &function,
                                     void *const *args, int numArgs) {
  const FunctionSignature &signature = function.signature;
  if (numArgs != static_cast<int>(signature.arguments.size()))
    return fail(context, MIXER_ERROR_ARGUMENTS,
                "'" + Twine(signature.name) + "' takes " +
                    Twine(signature.arguments.size()) + " arguments, got " +
                    Twine(numArgs));
  if (numArgs > 0 && !args)
    return fail(context, MIXER_ERROR_INVALID_ARGUMENT, "'args' is null");
  for (auto [i, arg] : llvm::enumerate(signature.arguments)) {
    if (!args[i])
      return fail(context, MIXER_ERROR_ARGUMENTS,
                  describeArgument(function, i) + " is null");
    if (arg.isTensor) {
      mixer_status_t status = checkDescriptor(context, function, i, args[i]);
      if (status != MIXER_SUCCESS)
        return status;
    }
  }
  return checkNoOverlap(context, function, args);
}

mixer_status_t mixerModuleCall(mixer_module_t module, const char *funcName,
                               void **args, int numArgs) {
  if (!module)
    return MIXER_ERROR_INVALID_ARGUMENT;
  MixerContext *context = module->context;
  if (!funcName)
    return fail(context, MIXER_ERROR_INVALID_ARGUMENT, "'funcName' is null");
  const CompiledFunction *function = module->find(funcName);
  if (!function) {
    std::string names;
    for (const CompiledFunction &f : module->functions)
      names += (names.empty() ? "'" : ", '") + f.signature.name + "'";
    return fail(context, MIXER_ERROR_NOT_FOUND,
                "no public function named '" + Twine(funcName) +
                    "'; the module has " +
                    (names.empty() ? std::string("none") : names));
  }
  if (mixer_status_t status = checkArguments(context, *function, args, numArgs))
    return status;
  if (!module->jit)
    return fail(context, MIXER_ERROR_NO_DEVICE,
                "cannot run '" + Twine(funcName) +
                    "' (compiled for target=cuda): " + module->noDevice);
  // The module is only read here: calls from several threads share nothing.
  // The failure records of the run-time checks and of CUDA are per thread.
  mixerRuntimeClearCheckFailure();
  if (module->cuda)
    module->cuda->clearFailure();
  if (llvm::Error error =
          module->jit->call(funcName, ArrayRef<void *>(args, numArgs)))
    return fail(context, MIXER_ERROR_JIT, llvm::toString(std::move(error)));
  if (module->cuda)
    if (const char *failure = module->cuda->getFailure())
      return fail(context, MIXER_ERROR_DEVICE,
                  "'" + Twine(funcName) + "' failed on the GPU: " + failure);
  // The compiled code's own checks (sizes only known now, index values):
  // the op that failed did not run.
  if (const char *failure = mixerRuntimeGetCheckFailure())
    return fail(context, MIXER_ERROR_ARGUMENTS,
                "'" + Twine(funcName) + "' rejected its arguments: " + failure);
  return succeed(context);
}

//===----------------------------------------------------------------------===//
// Introspection
//===----------------------------------------------------------------------===//

int mixerModuleGetNumFunctions(mixer_module_t module) {
  return module ? module->functions.size() : 0;
}

const char *mixerModuleGetFunctionName(mixer_module_t module, int index) {
  if (!module || index < 0 ||
      index >= static_cast<int>(module->functions.size()))
    return nullptr;
  return module->functions[index].signature.name.c_str();
}

mixer_status_t mixerModuleGetFunction(mixer_module_t module,
                                      const char *funcName, int *numArgs,
                                      int *numResults) {
  if (!module)
    return MIXER_ERROR_INVALID_ARGUMENT;
  const CompiledFunction *function =
      funcName ? module->find(funcName) : nullptr;
  if (!function)
    return fail(module->context, MIXER_ERROR_NOT_FOUND,
                "no public function named '" + Twine(funcName ? funcName : "") +
                    "'");
  if (numArgs)
    *numArgs = function->signature.arguments.size();
  if (numResults)
    *numResults = function->signature.numResults;
  return succeed(module->context);
}

mixer_status_t mixerModuleGetArgument(mixer_module_t module,
                                      const char *funcName, int index,
                                      mixer_argument_info_t *info) {
  int numArgs = 0;
  mixer_status_t status =
      mixerModuleGetFunction(module, funcName, &numArgs, nullptr);
  if (status != MIXER_SUCCESS)
    return status;
  if (!info || index < 0 || index >= numArgs)
    return fail(module->context, MIXER_ERROR_INVALID_ARGUMENT,
                "no argument #" + Twine(index) + " in '" + funcName + "'");
  const CompiledFunction &function = *module->find(funcName);
  const ArgumentInfo &arg = function.signature.arguments[index];
  info->name = function.argumentNames[index].c_str();
  info->elementType = static_cast<mixer_element_type_t>(arg.element);
  info->isTensor = arg.isTensor;
  info->isOutput = arg.isOutput;
  info->rank = arg.getRank();
  info->shape = function.shapes[index].data();
  return succeed(module->context);
}
