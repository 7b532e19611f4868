//===- TestSupport.h - compile and call one function in tests ---*- C++ -*-===//
//
// What the integration tests share: memref descriptors, tensor type
// strings, and a module compiled through the CPU pipeline (optimized or
// naive) or another lowering and called through the JIT.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TEST_INTEGRATION_CPU_TESTSUPPORT_H
#define MIXER_TEST_INTEGRATION_CPU_TESTSUPPORT_H

#include "mixer/Execution/Compile.h"
#include "mixer/Execution/JitModule.h"
#include "mixer/Pipelines/Pipelines.h"
#include "mixer/Runtime/RuntimeChecks.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace mixer::test {

/// A row-major strided memref descriptor over `T` data, as the
/// `_mlir_ciface_` wrappers take it: two pointers, the offset, then `rank`
/// sizes and `rank` strides (rank <= 4).
template <typename T = float> struct Descriptor {
  T *allocated, *aligned;
  int64_t offset, sizesAndStrides[8];
  Descriptor(T *data, const std::vector<int64_t> &shape)
      : allocated(data), aligned(data), offset(0) {
    assert(shape.size() <= 4 && "rank above 4");
    int64_t rank = shape.size(), stride = 1;
    for (int64_t i = rank - 1; i >= 0; --i) {
      sizesAndStrides[i] = shape[i];
      sizesAndStrides[rank + i] = stride;
      stride *= shape[i];
    }
  }
};

/// "tensor<2x3xf32>"; a negative size is dynamic ("?").
inline std::string tensorType(const std::vector<int64_t> &dims,
                              const char *elementType = "f32") {
  std::ostringstream os;
  os << "tensor<";
  for (int64_t d : dims)
    if (d < 0)
      os << "?x";
    else
      os << d << "x";
  os << elementType << ">";
  return os.str();
}

/// A float tensor and its shape, passed to a compiled function.
struct Buffer {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

/// A module compiled into the LLVM dialect and loaded into the JIT.
class CompiledModule {
public:
  /// `source` lowered into the LLVM dialect by `lower`, a callable taking
  /// the module and returning a LogicalResult (a template, so that a lambda
  /// does not also convert to the `naive` flag below).
  template <typename Lower,
            typename = std::enable_if_t<std::is_invocable_r_v<
                mlir::LogicalResult, Lower, mlir::ModuleOp>>>
  CompiledModule(const std::string &source, Lower &&lower) {
    compile(source, lower);
  }

  /// `source` compiled through the CPU pipeline. `recurrentThreshold` < 0
  /// keeps the pipeline's default; `targetCpu` (LLVM's name) compiles for
  /// that CPU instead of this machine's; `numThreads` > 0 compiles for that
  /// many threads (the tiles then do not depend on this machine's cores).
  CompiledModule(const std::string &source, bool naive,
                 int64_t recurrentThreshold = -1, bool runtimeChecks = true,
                 const std::string &targetCpu = "", int64_t numThreads = 0)
      : CompiledModule(source, [&](mlir::ModuleOp module) {
          mlir::mixer::CpuPipelineOptions options;
          options.naive = naive;
          options.runtimeChecks = runtimeChecks;
          if (!targetCpu.empty())
            options.targetCpu = targetCpu;
          if (recurrentThreshold >= 0)
            options.recurrentThreshold = recurrentThreshold;
          if (numThreads > 0)
            options.numThreads = numThreads;
          return mlir::mixer::compileToLLVM(module, options);
        }) {}

  bool ok() const { return jit != nullptr; }

  /// Calls `name` with pointers to descriptors, in order, and expects
  /// every run-time check to hold.
  void call(llvm::StringRef name, llvm::ArrayRef<void *> args) {
    std::string failure = callReportingCheckFailure(name, args);
    EXPECT_EQ(failure, "") << "a run-time check failed";
  }

  /// Calls `name` and returns the message of the first run-time check that
  /// failed in it ("" if none did).
  std::string callReportingCheckFailure(llvm::StringRef name,
                                        llvm::ArrayRef<void *> args) {
    mixerRuntimeClearCheckFailure();
    llvm::Error err = jit->call(name, args);
    EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
    const char *failure = mixerRuntimeGetCheckFailure();
    return failure ? failure : "";
  }

  /// Calls `name` with one descriptor per (data, shape) pair, in order.
  void call(llvm::StringRef name,
            std::vector<std::pair<float *, std::vector<int64_t>>> operands) {
    std::vector<Descriptor<>> descriptors;
    descriptors.reserve(operands.size());
    std::vector<void *> args;
    for (auto &[data, shape] : operands) {
      descriptors.emplace_back(data, shape);
      args.push_back(&descriptors.back());
    }
    call(name, args);
  }

  /// Calls `name` with one descriptor per buffer, in order.
  void callBuffers(llvm::StringRef name, const std::vector<Buffer *> &buffers) {
    std::vector<std::pair<float *, std::vector<int64_t>>> operands;
    for (Buffer *buffer : buffers)
      operands.push_back({buffer->data.data(), buffer->shape});
    call(name, std::move(operands));
  }

private:
  void compile(const std::string &source,
               llvm::function_ref<mlir::LogicalResult(mlir::ModuleOp)> lower) {
    mlir::DialectRegistry registry;
    mlir::mixer::registerCompilerDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(source, context.get());
    if (!module || failed(lower(*module)))
      return;
    auto created = mlir::mixer::JitModule::create(*module);
    if (!created) {
      llvm::consumeError(created.takeError());
      return;
    }
    jit = std::move(*created);
  }

  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<mlir::mixer::JitModule> jit;
};

/// Median wall time of `runs` calls of `fn`, in milliseconds.
template <typename Fn> double medianMillis(int runs, Fn fn) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace mixer::test

#endif // MIXER_TEST_INTEGRATION_CPU_TESTSUPPORT_H
