//===- OpCases.h - every op's function, inputs and reference -----*- C++ -*-===//
//
// One numerical case per mixer op: a function @f holding the op, random
// inputs of realistic ranges and the comparison of its outputs with the fp64
// reference (printing the relative error max|out - ref| / max|ref|). The
// runner says how the function is compiled: the GPU kernels emulated on the
// CPU (GpuEmulationTest.cpp), or the CPU pipeline after tiling the op with
// tile sizes other than its own (TiledNumericsTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TEST_INTEGRATION_OPCASES_H
#define MIXER_TEST_INTEGRATION_OPCASES_H

#include "CPU/TestSupport.h"
#include "mixer/Reference/Reference.h"

#include <functional>
#include <string>
#include <vector>

namespace mixer::test {

namespace ref = ::mixer::ref;

/// One argument of a compiled function: f32, i32 or i64 data and a shape.
struct Arg {
  std::vector<int64_t> shape;
  std::vector<float> f32;
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  static int64_t numel(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  static Arg floats(const ref::Tensor &t) {
    return {t.shape, ref::toFloats(t), {}, {}};
  }
  static Arg zeros(std::vector<int64_t> shape) {
    return {shape, std::vector<float>(numel(shape)), {}, {}};
  }
  static Arg ints32(std::vector<int64_t> shape, std::vector<int32_t> v) {
    return {shape, {}, std::move(v), {}};
  }
  static Arg ints64(std::vector<int64_t> shape, std::vector<int64_t> v) {
    return {shape, {}, {}, std::move(v)};
  }
};

/// Calls `module`'s function `name` with one descriptor per argument.
inline void call(CompiledModule &module, llvm::StringRef name,
                 std::vector<Arg> &args) {
  std::vector<Descriptor<float>> f;
  std::vector<Descriptor<int32_t>> i32;
  std::vector<Descriptor<int64_t>> i64;
  f.reserve(args.size());
  i32.reserve(args.size());
  i64.reserve(args.size());
  std::vector<void *> pointers;
  for (Arg &arg : args) {
    if (!arg.i32.empty()) {
      i32.emplace_back(arg.i32.data(), arg.shape);
      pointers.push_back(&i32.back());
    } else if (!arg.i64.empty()) {
      i64.emplace_back(arg.i64.data(), arg.shape);
      pointers.push_back(&i64.back());
    } else {
      f.emplace_back(arg.f32.data(), arg.shape);
      pointers.push_back(&f.back());
    }
  }
  module.call(name, pointers);
}

/// How a case's functions are compiled and called.
struct OpRunner {
  /// Printed before each relative error.
  std::string label;
  /// Compiles `source` and calls its function `name` on `args` (outputs
  /// last, zeroed).
  std::function<void(const std::string &source, const char *name,
                     std::vector<Arg> &args)>
      run;

  /// Prints and checks the relative error of `out` against `expected`.
  void expectClose(const char *what, const Arg &out,
                   const ref::Tensor &expected, double tolerance) const;
};

void ssdCase(const OpRunner &runner);
void selectiveScanCase(const OpRunner &runner);
void linearAttentionCase(const OpRunner &runner);
void gatedDeltaRuleCase(const OpRunner &runner);
void kernelMvCase(const OpRunner &runner);
void kernelLseCase(const OpRunner &runner);
void transportCostCase(const OpRunner &runner);
void sinkhornCase(const OpRunner &runner);
void groupedMatmulCase(const OpRunner &runner);
void groupedSwigluCase(const OpRunner &runner);
void topkRouterCase(const OpRunner &runner);
/// Two functions: moe_dispatch, then moe_combine on its permutation.
void moeDispatchAndCombineCase(const OpRunner &runner);

} // namespace mixer::test

#endif // MIXER_TEST_INTEGRATION_OPCASES_H
