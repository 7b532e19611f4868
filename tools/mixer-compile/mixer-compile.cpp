//===- mixer-compile.cpp - a module on tensors to an object and a header --===//
//
//   mixer-compile kernels.mlir -o kernels.o --header kernels.h
//       [--naive] [--num-threads N] [--emit=obj|llvm|mlir] [--generate-vjp]
//
// Lowers every public function with the CPU pipeline and writes an object
// file for the host CPU plus a C header declaring its `_mlir_ciface_`
// wrappers. With --generate-vjp, every public function @f also gets
// @f_vjp, its vector-Jacobian product (mixer-generate-vjp). Errors are reported as diagnostics with a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "mixer/Execution/CHeader.h"
#include "mixer/Execution/Compile.h"
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
enum class EmitKind { Obj, LLVM, MLIR };

llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                         llvm::cl::desc("<input .mlir>"),
                                         llvm::cl::Required);
llvm::cl::opt<std::string> outputFilename("o", llvm::cl::desc("Output file"),
                                          llvm::cl::value_desc("path"),
                                          llvm::cl::Required);
llvm::cl::opt<std::string>
    headerFilename("header",
                   llvm::cl::desc("Also write a C header declaring the "
                                  "functions of the object"),
                   llvm::cl::value_desc("path"));
llvm::cl::opt<EmitKind> emitKind(
    "emit", llvm::cl::desc("What to write to -o"),
    llvm::cl::values(
        clEnumValN(EmitKind::Obj, "obj", "an object file (default)"),
        clEnumValN(EmitKind::LLVM, "llvm", "optimized LLVM IR"),
        clEnumValN(EmitKind::MLIR, "mlir", "the module in the LLVM dialect")),
    llvm::cl::init(EmitKind::Obj));
llvm::cl::opt<bool> naive("naive",
                          llvm::cl::desc("Lower mixer ops to the scalar loops "
                                         "of their definition"),
                          llvm::cl::init(false));
llvm::cl::opt<bool> generateVjp(
    "generate-vjp",
    llvm::cl::desc("Also emit @f_vjp, the vector-Jacobian product, for every "
                   "public function @f"),
    llvm::cl::init(false));
llvm::cl::opt<int64_t>
    numThreads("num-threads",
               llvm::cl::desc("OpenMP threads of the parallel loops (0: "
                              "OMP_NUM_THREADS at run time)"),
               llvm::cl::init(0));
llvm::cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    llvm::cl::desc("More options of mixer-lower-to-cpu-pipeline, e.g. "
                   "\"vector-width=8\""),
    llvm::cl::init(""));
llvm::cl::opt<std::string>
    mcpu("mcpu", llvm::cl::desc("Target CPU (default: this machine's)"),
         llvm::cl::init(""));
llvm::cl::opt<std::string>
    mattr("mattr",
          llvm::cl::desc("Target features, e.g. +avx2,+fma (default: this "
                         "machine's)"),
          llvm::cl::init(""));
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

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "mixer-compile: compile a module of mixer/linalg functions on tensors "
      "to an object file and a C header\n");

  CpuPipelineOptions options;
  std::string optionError;
  if (failed(parsePipelineOptions(pipelineOptions, options, optionError)))
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
  // once the object exists.
  std::string header;
  if (!headerFilename.empty()) {
    CHeaderOptions headerOptions;
    headerOptions.guard = getGuard(headerFilename);
    headerOptions.sourceName = llvm::sys::path::filename(inputFilename).str();
    headerOptions.argumentNames = std::move(argumentNames);
    llvm::raw_string_ostream os(headerOptions.note);
    os << "Compiled with mixer-lower-to-cpu-pipeline";
    options.print(os);
    os << "\nfor CPU "
       << (mcpu.empty() ? llvm::sys::getHostCPUName() : StringRef(mcpu))
       << (mcpu.empty() && mattr.empty() ? " with all its features" : "")
       << ": the object runs on CPUs with the same instruction set.";
    llvm::raw_string_ostream headerStream(header);
    if (failed(emitCHeader(*module, headerStream, headerOptions)))
      return fail("cannot write a C header for '" + inputFilename + "'");
  }

  // The lowerings tile for the CPU the object is for: its TargetMachine's
  // features decide the module's target description.
  ObjectFileOptions objectOptions;
  objectOptions.cpu = mcpu;
  objectOptions.features = mattr;
  {
    auto tm = createHostTargetMachine(objectOptions);
    if (!tm)
      return fail(llvm::toString(tm.takeError()));
    setTargetDescription(*module,
                         getCpuTargetDescription(*(*tm)->getMCSubtargetInfo()));
  }

  if (failed(compileToLLVM(*module, options)))
    return fail("cannot compile '" + inputFilename + "'");

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

  if (!headerFilename.empty()) {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(headerFilename, &error);
    if (!out)
      return fail(error);
    out->os() << header;
    out->keep();
  }
  return 0;
}
