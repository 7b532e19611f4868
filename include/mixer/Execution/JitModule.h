//===- JitModule.h - run a lowered module in this process -------*- C++ -*-===//
//
// A JIT over mlir::ExecutionEngine for modules lowered by compileToLLVM:
// optimized at -O3 for the host CPU with all its features (AVX-512 where
// present), or for another CPU whose code runs here, with the OpenMP
// runtime loaded for the parallel loops.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_EXECUTION_JITMODULE_H
#define MIXER_EXECUTION_JITMODULE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
namespace mixer {

struct JitOptions {
  /// LLVM optimization level of the IR passes and of code generation.
  unsigned optLevel = 3;
  /// Shared libraries whose symbols the code may call; by default the
  /// OpenMP runtime and MLIR's C runner utilities (memrefCopy).
  std::vector<std::string> sharedLibPaths = getDefaultSharedLibraries();
  /// Keep the compiled object for dumpToObjectFile (to inspect the code).
  bool enableObjectDump = false;
  /// Tell `perf` where the compiled functions are (LLVM's jitdump, a
  /// jit-PID.dump under $JITDUMPDIR or $HOME/.debug/jit): `perf record -k 1`
  /// then `perf inject --jit` names their samples.
  bool enablePerfProfiling = false;
  /// The CPU to generate code for (an LLVM name such as "haswell") and LLVM
  /// features changed from its own ("-sse4a"); empty: this machine's CPU
  /// with all its features. The module should have been lowered for the
  /// same CPU (CpuPipelineOptions::targetCpu, targetFeatures).
  std::string cpu;
  std::string features;

  /// The default libraries that exist on this machine. MIXER_OMP_LIBRARY in
  /// the environment replaces the OpenMP runtime found at build time.
  static std::vector<std::string> getDefaultSharedLibraries();
};

/// A module lowered to the LLVM dialect, compiled to machine code.
class JitModule {
public:
  /// Translates `module` (LLVM dialect, with `_mlir_ciface_` wrappers) to
  /// LLVM IR, optimizes and compiles it for the host, and looks up every
  /// wrapper. The module can be discarded afterwards. Fails, naming them,
  /// when this machine lacks instruction sets of options.cpu.
  static llvm::Expected<std::unique_ptr<JitModule>>
  create(ModuleOp module, const JitOptions &options = {});

  ~JitModule();

  /// Calls `_mlir_ciface_NAME`. `args` holds one pointer per argument of the
  /// wrapper: a pointer to the memref descriptor of a tensor argument, a
  /// pointer to the value of a scalar one. Fails without calling if there is
  /// no such function or the number of arguments differs. Reads only what
  /// create() resolved: any number of threads may call at once.
  llvm::Error call(llvm::StringRef name, llvm::ArrayRef<void *> args) const;

  /// Writes the compiled machine code as an object file; needs
  /// JitOptions::enableObjectDump.
  void dumpToObjectFile(llvm::StringRef path);

  /// Whether `_mlir_ciface_NAME` exists.
  bool hasFunction(llvm::StringRef name) const { return wrappers.count(name); }

private:
  JitModule() = default;

  /// A `_mlir_ciface_` wrapper, by the name of the function it wraps.
  struct Wrapper {
    /// Whether each argument is passed as a pointer (a memref descriptor)
    /// rather than by value.
    llvm::SmallVector<bool> byPointer;
    /// Its packed form (all arguments through one array), looked up by
    /// create() so that calls share nothing mutable.
    void (*packed)(void **) = nullptr;
  };

  std::unique_ptr<ExecutionEngine> engine;
  llvm::StringMap<Wrapper> wrappers;
};

} // namespace mixer
} // namespace mlir

#endif // MIXER_EXECUTION_JITMODULE_H
