//===- mixer-compile.cpp - a module on tensors to an object and a header --===//
//
//   mixer-compile kernels.mlir -o kernels.o --header kernels.h
//       [--naive] [--num-threads N] [--emit=obj|llvm|mlir] [--generate-vjp]
//   mixer-compile --target=cuda [--chip=sm_90] kernels.mlir -o kernels.o
//       [--header kernels.h] [--emit=obj|llvm|mlir|ptx]
//
// Lowers every public function with the CPU pipeline (or, for CUDA, the
// NVVM pipeline, with the kernels embedded as a fatbin) and writes an
// object file for the host CPU plus a C header declaring its
// `_mlir_ciface_` wrappers; --emit=ptx writes the PTX of the kernels
// instead. With --generate-vjp, every public function @f also gets @f_vjp,
// its vector-Jacobian product (mixer-generate-vjp). Errors are reported as
// diagnostics with a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "mixer/Execution/CHeader.h"
#include "mixer/Execution/Compile.h"
#include "mixer/Execution/CudaCompile.h"
#include "mixer/Execution/ObjectFile.h"
#include "mixer/Pipelines/Pipelines.h"
#include "mixer/Target/CpuTarget.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {
enum class EmitKind { Obj, LLVM, MLIR, PTX };

/// The tool's own options: --help lists only these. LLVM's code generator
/// options (amdgpu, x86, polly, ...) are hidden but still accepted.
llvm::cl::OptionCategory compileCategory("mixer-compile options");

llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                         llvm::cl::desc("<input .mlir>"),
                                         llvm::cl::Required,
                                         llvm::cl::cat(compileCategory));
llvm::cl::opt<std::string> outputFilename("o", llvm::cl::desc("Output file"),
                                          llvm::cl::value_desc("path"),
                                          llvm::cl::Required,
                                          llvm::cl::cat(compileCategory));
llvm::cl::opt<std::string>
    headerFilename("header",
                   llvm::cl::desc("Also write a C header declaring the "
                                  "functions of the object"),
                   llvm::cl::value_desc("path"),
                   llvm::cl::cat(compileCategory));
llvm::cl::opt<EmitKind> emitKind(
    "emit", llvm::cl::desc("What to write to -o"),
    llvm::cl::values(
        clEnumValN(EmitKind::Obj, "obj", "an object file (default)"),
        clEnumValN(EmitKind::LLVM, "llvm", "optimized LLVM IR"),
        clEnumValN(EmitKind::MLIR, "mlir", "the module in the LLVM dialect"),
        clEnumValN(EmitKind::PTX, "ptx",
                   "the PTX of every kernel (--target=cuda)")),
    llvm::cl::init(EmitKind::Obj), llvm::cl::cat(compileCategory));
llvm::cl::opt<std::string>
    target("target",
           llvm::cl::desc("What the code runs on: cpu (default) or cuda (an "
                          "NVIDIA GPU, driven from the host CPU)"),
           llvm::cl::init("cpu"), llvm::cl::cat(compileCategory));
llvm::cl::opt<std::string>
    chip("chip",
         llvm::cl::desc("The NVIDIA GPU of --target=cuda: sm_80, sm_90 "
                        "(default) or sm_90a"),
         llvm::cl::init("sm_90"), llvm::cl::cat(compileCategory));
llvm::cl::opt<bool> naive("naive",
                          llvm::cl::desc("Lower mixer ops to the scalar loops "
                                         "of their definition"),
                          llvm::cl::init(false),
                          llvm::cl::cat(compileCategory));
llvm::cl::opt<bool> generateVjp(
    "generate-vjp",
    llvm::cl::desc("Also emit @f_vjp, the vector-Jacobian product, for every "
                   "public function @f"),
    llvm::cl::init(false), llvm::cl::cat(compileCategory));
llvm::cl::opt<int64_t>
    numThreads("num-threads",
               llvm::cl::desc("OpenMP threads of the parallel loops (0: "
                              "OMP_NUM_THREADS at run time; 1: sequential "
                              "loops, no OpenMP runtime needed)"),
               llvm::cl::init(0), llvm::cl::cat(compileCategory));
llvm::cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    llvm::cl::desc("More options of mixer-lower-to-cpu-pipeline (or, for "
                   "--target=cuda, mixer-lower-to-nvvm-pipeline), e.g. "
                   "\"vector-width=8\""),
    llvm::cl::init(""), llvm::cl::cat(compileCategory));
llvm::cl::opt<std::string>
    mcpu("mcpu", llvm::cl::desc("Target CPU (default: this machine's)"),
         llvm::cl::init(""), llvm::cl::cat(compileCategory));
llvm::cl::opt<std::string>
    mattr("mattr",
          llvm::cl::desc("Target features, e.g. +avx2,+fma (default: this "
                         "machine's)"),
          llvm::cl::init(""), llvm::cl::cat(compileCategory));
} // namespace

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "mixer-compile") << message << "\n";
  return 1;
}

/// "KERNELS_H" for "out/kernels.h".
static std::string getGuard(StringRef path) {
  std::string guard;
  for (char c : llvm::sys::path::filename(path))
    guard += llvm::isAlnum(c) ? llvm::toUpper(c) : '_';
  if (guard.empty() || llvm::isDigit(guard.front()))
    guard = "MIXER_" + guard;
  return guard;
}

/// What a program linking the object of the lowered `module` (LLVM
/// dialect) needs beside it, as a line of the header.
static std::string getLinkNote(ModuleOp module) {
  bool openmp = false;
  module.walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "omp") {
      openmp = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  bool runtime = module.lookupSymbol("mixerRuntimeCheckFailed") != nullptr;
  std::string note = "Link with:";
  if (runtime)
    note += " libMixerRuntime.a (the run-time checks' record),";
  if (openmp)
    note += " -lomp (LLVM's OpenMP runtime, __kmpc_*; clang -fopenmp "
            "links it, gcc's libgomp does not),";
  note += " -lm.";
  if (!openmp)
    note += " No OpenMP runtime is needed.";
  return note;
}

/// The C header of `declared` (the functions before lowering).
static FailureOr<std::string> getHeader(ModuleOp declared,
                                        const CHeaderOptions &options) {
  std::string header;
  llvm::raw_string_ostream os(header);
  if (failed(emitCHeader(declared, os, options)))
    return failure();
  return header;
}

/// Writes `header` to --header, if given.
static int writeHeader(const std::string &header) {
  if (headerFilename.empty())
    return 0;
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out =
      openOutputFile(headerFilename, &error);
  if (!out)
    return fail(error);
  out->os() << header;
  out->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(compileCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "mixer-compile: compile a module of mixer/linalg functions on tensors "
      "to an object file (for the CPU, or for the host CPU driving an "
      "NVIDIA GPU) and a C header\n");

  bool cuda = target == "cuda";
  if (!cuda && target != "cpu")
    return fail("unknown --target '" + target + "' (known: cpu, cuda)");
  if (cuda && !isSupportedCudaChip(chip))
    return fail("unknown --chip '" + chip +
                "' (supported: " + getSupportedCudaChips() + ")");
  if (!cuda && chip.getNumOccurrences())
    return fail("--chip needs --target=cuda");
  if (!cuda && emitKind == EmitKind::PTX)
    return fail("--emit=ptx needs --target=cuda");
  if (cuda && (naive || numThreads.getNumOccurrences()))
    return fail("--naive and --num-threads are options of the CPU target");

  CpuPipelineOptions options;
  std::string optionError;
  if (!cuda &&
      failed(parsePipelineOptions(pipelineOptions, options, optionError)))
    return fail("invalid --pipeline-options '" + pipelineOptions +
                "': " + optionError);
  if (naive)
    options.naive = true;
  if (generateVjp)
    options.generateVjp = true;
  if (numThreads.getNumOccurrences())
    options.numThreads = numThreads;
  if (options.numThreads < 0)
    return fail("--num-threads must be at least 0");

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input)
    return fail(error);

  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  // The diagnostics point into the user's source; a dump of the failing
  // operation in generic form would bury them.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  llvm::StringMap<SmallVector<std::string>> argumentNames;
  OwningOpRef<ModuleOp> module =
      parseModule(sourceMgr, &context, &argumentNames);
  if (!module || failed(verify(*module)))
    return fail("'" + inputFilename + "' is not a valid module");
  // The header declares the `_vjp` functions too.
  if (options.generateVjp &&
      failed(generateVjpFunctions(*module, &argumentNames)))
    return fail("cannot differentiate the functions of '" + inputFilename +
                "'");

  // The header describes the functions before lowering; it is written only
  // once the object exists, with what the lowered code needs to link.
  CHeaderOptions headerOptions;
  OwningOpRef<ModuleOp> declared;
  std::string header;
  if (!headerFilename.empty()) {
    headerOptions.guard = getGuard(headerFilename);
    headerOptions.sourceName = llvm::sys::path::filename(inputFilename).str();
    headerOptions.argumentNames = std::move(argumentNames);
    llvm::raw_string_ostream os(headerOptions.note);
    if (cuda) {
      os << "Compiled with mixer-lower-to-nvvm-pipeline for " << chip
         << (pipelineOptions.empty() ? "" : " (" + pipelineOptions + ")")
         << ", kernels embedded as a fatbin.\n"
            "NAME takes host arrays: it copies them to the GPU, runs the "
            "kernels and copies\nthe outputs back. NAME_device takes device "
            "pointers (from cuMemAlloc).\nBoth return when the kernels are "
            "done. Link with libMixerCudaRuntime.a and\n-lcuda; CUDA "
            "failures are read with mixerCudaGetFailure()\n"
            "(mixer/Runtime/CudaRuntime.h).";
    } else {
      os << "Compiled with mixer-lower-to-cpu-pipeline";
      options.print(os);
      os << "\nfor CPU "
         << (mcpu.empty() ? llvm::sys::getHostCPUName() : StringRef(mcpu))
         << (mcpu.empty() && mattr.empty() ? " with all its features" : "")
         << ": the object runs on CPUs with the same instruction set.";
    }
    declared = cast<ModuleOp>(module->clone());
    if (cuda) {
      addDeviceEntryDeclarations(*declared);
      // The device entry points take the same arguments, named alike.
      SmallVector<std::pair<std::string, SmallVector<std::string>>> copies;
      for (const auto &entry : headerOptions.argumentNames)
        copies.push_back({(entry.getKey() + kDeviceEntrySuffix).str(),
                          entry.getValue()});
      for (auto &[name, names] : copies)
        headerOptions.argumentNames[name] = std::move(names);
    }
    // Fails here, before anything is written, if the header cannot be made.
    FailureOr<std::string> text = getHeader(*declared, headerOptions);
    if (failed(text))
      return fail("cannot write a C header for '" + inputFilename + "'");
    header = std::move(*text);
  }

  // The lowerings tile for the CPU the object is for: its TargetMachine's
  // features decide the module's target description.
  ObjectFileOptions objectOptions;
  objectOptions.cpu = mcpu;
  objectOptions.features = mattr;
  if (cuda) {
    CudaCompileOptions cudaOptions;
    cudaOptions.chip = chip;
    cudaOptions.pipelineOptions = pipelineOptions;
    if (emitKind == EmitKind::PTX) {
      FailureOr<std::string> ptx = compileToPtx(*module, cudaOptions);
      if (failed(ptx))
        return fail("cannot compile '" + inputFilename + "' for " + chip);
      std::unique_ptr<llvm::ToolOutputFile> out =
          openOutputFile(outputFilename, &error);
      if (!out)
        return fail(error);
      out->os() << *ptx;
      out->keep();
      return writeHeader(header);
    }
    if (failed(compileToLLVMForCuda(*module, cudaOptions)))
      return fail("cannot compile '" + inputFilename + "' for " + chip);
  } else {
    auto tm = createHostTargetMachine(objectOptions);
    if (!tm)
      return fail(llvm::toString(tm.takeError()));
    setTargetDescription(*module,
                         getCpuTargetDescription(*(*tm)->getMCSubtargetInfo()));
    if (failed(compileToLLVM(*module, options)))
      return fail("cannot compile '" + inputFilename + "'");
  }

  // The CPU object's header also says what the lowered code links.
  if (declared && !cuda) {
    headerOptions.note += "\n" + getLinkNote(*module);
    FailureOr<std::string> text = getHeader(*declared, headerOptions);
    if (failed(text))
      return fail("cannot write a C header for '" + inputFilename + "'");
    header = std::move(*text);
  }

  if (emitKind == EmitKind::Obj) {
    if (llvm::Error err =
            emitObjectFile(*module, outputFilename, objectOptions))
      return fail(llvm::toString(std::move(err)));
  } else {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(outputFilename, &error);
    if (!out)
      return fail(error);
    if (emitKind == EmitKind::MLIR) {
      module->print(out->os());
    } else if (llvm::Error err =
                   emitLLVMIR(*module, out->os(), objectOptions)) {
      return fail(llvm::toString(std::move(err)));
    }
    out->keep();
  }

  return writeHeader(header);
}
