//===- GpuEmulationTest.cpp - the GPU kernels' numbers, run on the CPU ----===//
//
// Compiles one function per mixer op through mixer-lower-gpu-mapped-to-cpu:
// the thread-mapped kernels of the NVVM pipeline (same tiling, shared-memory
// temporaries and barriers), each block's threads run as OpenMP threads.
// Runs them on random inputs and compares with the fp64 reference, printing
// the relative error max|out - ref| / max|ref| of every output.
//
//===----------------------------------------------------------------------===//

#include "mixer/Execution/Compile.h"
#include "mixer/Execution/JitModule.h"
#include "mixer/Pipelines/Pipelines.h"
#include "mixer/Reference/Reference.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace ref = ::mixer::ref;

namespace {

/// A row-major memref descriptor of rank <= 4 over `T` data.
template <typename T> struct Descriptor {
  T *allocated, *aligned;
  int64_t offset = 0, sizesAndStrides[8] = {};
  Descriptor(T *data, const std::vector<int64_t> &shape)
      : allocated(data), aligned(data) {
    int64_t rank = shape.size(), stride = 1;
    for (int64_t i = rank - 1; i >= 0; --i) {
      sizesAndStrides[i] = shape[i];
      sizesAndStrides[rank + i] = stride;
      stride *= shape[i];
    }
  }
};

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

/// A module compiled through mixer-lower-gpu-mapped-to-cpu and loaded into
/// the JIT.
class EmulatedModule {
public:
  explicit EmulatedModule(const std::string &source) {
    mlir::DialectRegistry registry;
    mlir::mixer::registerCompilerDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(source, context.get());
    if (!module)
      return;
    mlir::PassManager pm(context.get());
    mlir::mixer::NvvmPipelineOptions options;
    mlir::mixer::buildLowerGpuMappedToCpuPipeline(pm, options);
    if (failed(pm.run(*module)))
      return;
    auto created = mlir::mixer::JitModule::create(*module);
    if (!created) {
      llvm::consumeError(created.takeError());
      return;
    }
    jit = std::move(*created);
  }

  bool ok() const { return jit != nullptr; }

  void call(llvm::StringRef name, std::vector<Arg> &args) {
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
    llvm::Error err = jit->call(name, pointers);
    EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  }

private:
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<mlir::mixer::JitModule> jit;
};

/// Prints and checks the relative error of `out` against `expected`.
void expectClose(const char *what, const Arg &out, const ref::Tensor &expected,
                 double tolerance) {
  double error = ref::relativeError(out.f32.data(), expected);
  std::printf("gpu-emulated %s: relative error %.3g\n", what, error);
  EXPECT_LE(error, tolerance) << what;
}

/// Runs `source`'s function `name` on `args` (outputs last, zeroed).
void run(const std::string &source, const char *name, std::vector<Arg> &args) {
  EmulatedModule module(source);
  ASSERT_TRUE(module.ok()) << "compilation failed:\n" << source;
  module.call(name, args);
}

constexpr double kTolerance = 1e-4;

TEST(GpuEmulated, Ssd) {
  // B=1 L=160 (two chunks and a tail) H=4 P=16 G=2 N=32.
  const char *source = R"mlir(
func.func @f(%x: tensor<1x160x4x16xf32>, %la: tensor<1x160x4xf32>,
             %b: tensor<1x160x2x32xf32>, %c: tensor<1x160x2x32xf32>,
             %h: tensor<1x4x16x32xf32>,
             %y0: tensor<1x160x4x16xf32>, %s0: tensor<1x4x16x32xf32>)
    -> (tensor<1x160x4x16xf32>, tensor<1x4x16x32xf32>) {
  %y, %s = mixer.ssd chunk_size(64)
      ins(%x, %la, %b, %c : tensor<1x160x4x16xf32>, tensor<1x160x4xf32>,
                            tensor<1x160x2x32xf32>, tensor<1x160x2x32xf32>)
      init(%h : tensor<1x4x16x32xf32>)
      outs(%y0, %s0 : tensor<1x160x4x16xf32>, tensor<1x4x16x32xf32>)
      -> tensor<1x160x4x16xf32>, tensor<1x4x16x32xf32>
  return %y, %s : tensor<1x160x4x16xf32>, tensor<1x4x16x32xf32>
})mlir";
  ref::Rng rng(11);
  ref::Tensor x = rng.uniformTensor({1, 160, 4, 16}, -1, 1);
  ref::Tensor la = rng.uniformTensor({1, 160, 4}, -1, 0);
  ref::Tensor b = rng.uniformTensor({1, 160, 2, 32}, -1, 1);
  ref::Tensor c = rng.uniformTensor({1, 160, 2, 32}, -1, 1);
  ref::Tensor h = rng.uniformTensor({1, 4, 16, 32}, -1, 1);
  std::vector<Arg> args = {Arg::floats(x),
                           Arg::floats(la),
                           Arg::floats(b),
                           Arg::floats(c),
                           Arg::floats(h),
                           Arg::zeros({1, 160, 4, 16}),
                           Arg::zeros({1, 4, 16, 32})};
  run(source, "f", args);
  // The reference sees the float-rounded inputs.
  ref::ScanResult r =
      ref::ssd(ref::fromFloats(x.shape, args[0].f32.data()),
               ref::fromFloats(la.shape, args[1].f32.data()),
               ref::fromFloats(b.shape, args[2].f32.data()),
               ref::fromFloats(c.shape, args[3].f32.data()), &h);
  expectClose("ssd y", args[5], r.out, kTolerance);
  expectClose("ssd state", args[6], r.finalState, kTolerance);
}

TEST(GpuEmulated, SelectiveScan) {
  // B=2 L=40 D=64 N=16 G=2, with every optional operand.
  const char *source = R"mlir(
func.func @f(%u: tensor<2x40x64xf32>, %dt: tensor<2x40x64xf32>,
    %A: tensor<64x16xf32>, %b: tensor<2x40x2x16xf32>, %c: tensor<2x40x2x16xf32>,
    %d: tensor<64xf32>, %z: tensor<2x40x64xf32>, %db: tensor<64xf32>,
    %y0: tensor<2x40x64xf32>, %s0: tensor<2x64x16xf32>)
    -> (tensor<2x40x64xf32>, tensor<2x64x16xf32>) {
  %y, %s = mixer.selective_scan delta_softplus
      ins(%u, %dt, %A, %b, %c : tensor<2x40x64xf32>, tensor<2x40x64xf32>,
          tensor<64x16xf32>, tensor<2x40x2x16xf32>, tensor<2x40x2x16xf32>)
      D_skip(%d : tensor<64xf32>) z(%z : tensor<2x40x64xf32>)
      delta_bias(%db : tensor<64xf32>)
      outs(%y0, %s0 : tensor<2x40x64xf32>, tensor<2x64x16xf32>)
      -> tensor<2x40x64xf32>, tensor<2x64x16xf32>
  return %y, %s : tensor<2x40x64xf32>, tensor<2x64x16xf32>
})mlir";
  ref::Rng rng(12);
  ref::Tensor u = rng.uniformTensor({2, 40, 64}, -1, 1);
  ref::Tensor dt = rng.uniformTensor({2, 40, 64}, -3, 0);
  ref::Tensor A = rng.uniformTensor({64, 16}, -2, -0.1);
  ref::Tensor b = rng.uniformTensor({2, 40, 2, 16}, -1, 1);
  ref::Tensor c = rng.uniformTensor({2, 40, 2, 16}, -1, 1);
  ref::Tensor d = rng.uniformTensor({64}, -1, 1);
  ref::Tensor z = rng.uniformTensor({2, 40, 64}, -2, 2);
  ref::Tensor db = rng.uniformTensor({64}, -1, 1);
  std::vector<Arg> args = {Arg::floats(u),          Arg::floats(dt),
                           Arg::floats(A),          Arg::floats(b),
                           Arg::floats(c),          Arg::floats(d),
                           Arg::floats(z),          Arg::floats(db),
                           Arg::zeros({2, 40, 64}), Arg::zeros({2, 64, 16})};
  run(source, "f", args);
  ref::SelectiveScanOptions opts;
  opts.dSkip = &d;
  opts.z = &z;
  opts.deltaBias = &db;
  opts.deltaSoftplus = true;
  ref::ScanResult r = ref::selectiveScan(u, dt, A, b, c, opts);
  expectClose("selective_scan y", args[8], r.out, kTolerance);
  expectClose("selective_scan state", args[9], r.finalState, kTolerance);
}

/// The q, k, v of the attention-like scans, B=1 L=96 H=2 Dk=16 Dv=32.
struct Qkv {
  ref::Tensor q, k, v;
};

Qkv randomQkv(ref::Rng &rng) {
  return {rng.uniformTensor({1, 96, 2, 16}, -1, 1),
          rng.uniformTensor({1, 96, 2, 16}, -1, 1),
          rng.uniformTensor({1, 96, 2, 32}, -1, 1)};
}

TEST(GpuEmulated, LinearAttention) {
  const char *source = R"mlir(
func.func @f(%q: tensor<1x96x2x16xf32>, %k: tensor<1x96x2x16xf32>,
    %v: tensor<1x96x2x32xf32>, %ld: tensor<1x96x2xf32>,
    %o0: tensor<1x96x2x32xf32>, %s0: tensor<1x2x16x32xf32>)
    -> (tensor<1x96x2x32xf32>, tensor<1x2x16x32xf32>) {
  %o, %s = mixer.linear_attention chunk_size(32) scale(0.25)
      ins(%q, %k, %v : tensor<1x96x2x16xf32>, tensor<1x96x2x16xf32>, tensor<1x96x2x32xf32>)
      log_decay(%ld : tensor<1x96x2xf32>)
      outs(%o0, %s0 : tensor<1x96x2x32xf32>, tensor<1x2x16x32xf32>)
      -> tensor<1x96x2x32xf32>, tensor<1x2x16x32xf32>
  return %o, %s : tensor<1x96x2x32xf32>, tensor<1x2x16x32xf32>
})mlir";
  ref::Rng rng(13);
  Qkv t = randomQkv(rng);
  ref::Tensor ld = rng.uniformTensor({1, 96, 2}, -0.5, 0);
  std::vector<Arg> args = {
      Arg::floats(t.q), Arg::floats(t.k),           Arg::floats(t.v),
      Arg::floats(ld),  Arg::zeros({1, 96, 2, 32}), Arg::zeros({1, 2, 16, 32})};
  run(source, "f", args);
  ref::ScanResult r =
      ref::linearAttention(t.q, t.k, t.v, &ld, nullptr, 0, 0.25);
  expectClose("linear_attention o", args[4], r.out, kTolerance);
  expectClose("linear_attention state", args[5], r.finalState, kTolerance);
}

TEST(GpuEmulated, GatedDeltaRule) {
  const char *source = R"mlir(
func.func @f(%q: tensor<1x96x2x16xf32>, %k: tensor<1x96x2x16xf32>,
    %v: tensor<1x96x2x32xf32>, %g: tensor<1x96x2xf32>, %beta: tensor<1x96x2xf32>,
    %o0: tensor<1x96x2x32xf32>, %s0: tensor<1x2x16x32xf32>)
    -> (tensor<1x96x2x32xf32>, tensor<1x2x16x32xf32>) {
  %o, %s = mixer.gated_delta_rule chunk_size(32) scale(0.25)
      ins(%q, %k, %v, %g, %beta : tensor<1x96x2x16xf32>, tensor<1x96x2x16xf32>,
          tensor<1x96x2x32xf32>, tensor<1x96x2xf32>, tensor<1x96x2xf32>)
      outs(%o0, %s0 : tensor<1x96x2x32xf32>, tensor<1x2x16x32xf32>)
      -> tensor<1x96x2x32xf32>, tensor<1x2x16x32xf32>
  return %o, %s : tensor<1x96x2x32xf32>, tensor<1x2x16x32xf32>
})mlir";
  ref::Rng rng(14);
  Qkv t = randomQkv(rng);
  // Keys of norm about 1 (the delta rule's keys are normalized).
  for (double &value : t.k.data)
    value *= 0.25;
  ref::Tensor g = rng.uniformTensor({1, 96, 2}, -0.5, 0);
  ref::Tensor beta = rng.uniformTensor({1, 96, 2}, 0, 1);
  std::vector<Arg> args = {
      Arg::floats(t.q),          Arg::floats(t.k),
      Arg::floats(t.v),          Arg::floats(g),
      Arg::floats(beta),         Arg::zeros({1, 96, 2, 32}),
      Arg::zeros({1, 2, 16, 32})};
  run(source, "f", args);
  ref::Tensor k = ref::fromFloats(t.k.shape, args[1].f32.data());
  ref::ScanResult r = ref::gatedDeltaRule(t.q, k, t.v, g, beta, nullptr, 0.25);
  expectClose("gated_delta_rule o", args[5], r.out, kTolerance);
  expectClose("gated_delta_rule state", args[6], r.finalState, kTolerance);
}

/// Points for the kernel sums: N=200 x, M=300 y in D=8.
struct Points {
  ref::Tensor x, y;
};

Points randomPoints(ref::Rng &rng) {
  return {rng.uniformTensor({200, 8}, -1, 1),
          rng.uniformTensor({300, 8}, -1, 1)};
}

TEST(GpuEmulated, KernelMv) {
  const char *source = R"mlir(
func.func @f(%x: tensor<200x8xf32>, %y: tensor<300x8xf32>, %v: tensor<300x16xf32>,
    %h: tensor<f32>, %o: tensor<200x16xf32>) -> tensor<200x16xf32> {
  %r = mixer.kernel_mv kernel(gaussian)
      ins(%x, %y, %v, %h : tensor<200x8xf32>, tensor<300x8xf32>, tensor<300x16xf32>, tensor<f32>)
      outs(%o : tensor<200x16xf32>) -> tensor<200x16xf32>
  return %r : tensor<200x16xf32>
})mlir";
  ref::Rng rng(15);
  Points p = randomPoints(rng);
  ref::Tensor v = rng.uniformTensor({300, 16}, -1, 1);
  ref::Tensor h(std::vector<int64_t>{}, 0.7);
  std::vector<Arg> args = {Arg::floats(p.x), Arg::floats(p.y), Arg::floats(v),
                           Arg::floats(h), Arg::zeros({200, 16})};
  run(source, "f", args);
  expectClose("kernel_mv", args[4],
              ref::kernelMv(ref::Kernel::Gaussian, p.x, p.y, v, 0.7),
              kTolerance);
}

TEST(GpuEmulated, KernelLse) {
  const char *source = R"mlir(
func.func @f(%x: tensor<200x8xf32>, %y: tensor<300x8xf32>, %eps: tensor<f32>,
    %g: tensor<300xf32>, %o: tensor<200xf32>) -> tensor<200xf32> {
  %r = mixer.kernel_lse kernel(sqeuclidean)
      ins(%x, %y, %eps : tensor<200x8xf32>, tensor<300x8xf32>, tensor<f32>)
      g(%g : tensor<300xf32>) outs(%o : tensor<200xf32>) -> tensor<200xf32>
  return %r : tensor<200xf32>
})mlir";
  ref::Rng rng(16);
  Points p = randomPoints(rng);
  ref::Tensor g = rng.uniformTensor({300}, -1, 1);
  ref::Tensor eps(std::vector<int64_t>{}, 0.1);
  std::vector<Arg> args = {Arg::floats(p.x), Arg::floats(p.y), Arg::floats(eps),
                           Arg::floats(g), Arg::zeros({200})};
  run(source, "f", args);
  expectClose("kernel_lse", args[4],
              ref::kernelLse(ref::Kernel::SqEuclidean, p.x, p.y, &g, 0.1),
              kTolerance);
}

TEST(GpuEmulated, TransportCost) {
  const char *source = R"mlir(
func.func @f(%x: tensor<200x8xf32>, %y: tensor<300x8xf32>, %u: tensor<200xf32>,
    %v: tensor<300xf32>, %eps: tensor<f32>, %o: tensor<200xf32>) -> tensor<200xf32> {
  %r = mixer.transport_cost cost(sqeuclidean)
      ins(%x, %y, %u, %v, %eps : tensor<200x8xf32>, tensor<300x8xf32>,
          tensor<200xf32>, tensor<300xf32>, tensor<f32>)
      outs(%o : tensor<200xf32>) -> tensor<200xf32>
  return %r : tensor<200xf32>
})mlir";
  ref::Rng rng(17);
  Points p = randomPoints(rng);
  ref::Tensor u = rng.uniformTensor({200}, -6, -5);
  ref::Tensor v = rng.uniformTensor({300}, -6, -5);
  ref::Tensor eps(std::vector<int64_t>{}, 0.5);
  std::vector<Arg> args = {Arg::floats(p.x), Arg::floats(p.y),
                           Arg::floats(u),   Arg::floats(v),
                           Arg::floats(eps), Arg::zeros({200})};
  run(source, "f", args);
  expectClose("transport_cost", args[5],
              ref::transportCost(ref::Kernel::SqEuclidean, p.x, p.y, u, v, 0.5),
              kTolerance);
}

TEST(GpuEmulated, Sinkhorn) {
  const char *source = R"mlir(
func.func @f(%x: tensor<200x8xf32>, %y: tensor<300x8xf32>, %la: tensor<200xf32>,
    %lb: tensor<300xf32>, %eps: tensor<f32>, %f0: tensor<200xf32>,
    %g0: tensor<300xf32>, %c0: tensor<f32>)
    -> (tensor<200xf32>, tensor<300xf32>, tensor<f32>) {
  %f, %g, %c = mixer.sinkhorn cost(sqeuclidean) iterations(5)
      ins(%x, %y, %la, %lb, %eps : tensor<200x8xf32>, tensor<300x8xf32>,
          tensor<200xf32>, tensor<300xf32>, tensor<f32>)
      outs(%f0, %g0, %c0 : tensor<200xf32>, tensor<300xf32>, tensor<f32>)
      -> tensor<200xf32>, tensor<300xf32>, tensor<f32>
  return %f, %g, %c : tensor<200xf32>, tensor<300xf32>, tensor<f32>
})mlir";
  ref::Rng rng(18);
  Points p = randomPoints(rng);
  ref::Tensor la({200}), lb({300});
  for (double &value : la.data)
    value = -std::log(200.0);
  for (double &value : lb.data)
    value = -std::log(300.0);
  ref::Tensor eps(std::vector<int64_t>{}, 0.5);
  std::vector<Arg> args = {
      Arg::floats(p.x), Arg::floats(p.y),  Arg::floats(la),   Arg::floats(lb),
      Arg::floats(eps), Arg::zeros({200}), Arg::zeros({300}), Arg::zeros({})};
  run(source, "f", args);
  ref::SinkhornResult r =
      ref::sinkhorn(ref::Kernel::SqEuclidean, p.x, p.y,
                    ref::fromFloats({200}, args[2].f32.data()),
                    ref::fromFloats({300}, args[3].f32.data()), 0.5, 5);
  expectClose("sinkhorn f", args[5], r.f, kTolerance);
  expectClose("sinkhorn g", args[6], r.g, kTolerance);
  ref::Tensor cost(std::vector<int64_t>{}, r.cost);
  expectClose("sinkhorn cost", args[7], cost, kTolerance);
}

/// Ragged groups of 100 rows: 10, 0, 37, 45 (8 rows left over, zero).
const std::vector<int64_t> kGroups = {10, 0, 37, 45};

TEST(GpuEmulated, GroupedMatmul) {
  const char *source = R"mlir(
func.func @f(%lhs: tensor<100x32xf32>, %rhs: tensor<4x32x48xf32>,
    %gs: tensor<4xi64>, %o: tensor<100x48xf32>) -> tensor<100x48xf32> {
  %r = mixer.grouped_matmul
      ins(%lhs, %rhs, %gs : tensor<100x32xf32>, tensor<4x32x48xf32>, tensor<4xi64>)
      outs(%o : tensor<100x48xf32>) -> tensor<100x48xf32>
  return %r : tensor<100x48xf32>
})mlir";
  ref::Rng rng(19);
  ref::Tensor lhs = rng.uniformTensor({100, 32}, -1, 1);
  ref::Tensor rhs = rng.uniformTensor({4, 32, 48}, -1, 1);
  std::vector<Arg> args = {Arg::floats(lhs), Arg::floats(rhs),
                           Arg::ints64({4}, kGroups), Arg::zeros({100, 48})};
  run(source, "f", args);
  expectClose("grouped_matmul", args[3], ref::groupedMatmul(lhs, rhs, kGroups),
              kTolerance);
}

TEST(GpuEmulated, GroupedSwiglu) {
  const char *source = R"mlir(
func.func @f(%x: tensor<100x32xf32>, %wg: tensor<4x32x48xf32>,
    %wu: tensor<4x32x48xf32>, %gs: tensor<4xi64>, %o: tensor<100x48xf32>)
    -> tensor<100x48xf32> {
  %r = mixer.grouped_swiglu
      ins(%x, %wg, %wu, %gs : tensor<100x32xf32>, tensor<4x32x48xf32>,
          tensor<4x32x48xf32>, tensor<4xi64>)
      outs(%o : tensor<100x48xf32>) -> tensor<100x48xf32>
  return %r : tensor<100x48xf32>
})mlir";
  ref::Rng rng(20);
  ref::Tensor x = rng.uniformTensor({100, 32}, -1, 1);
  ref::Tensor wg = rng.uniformTensor({4, 32, 48}, -0.5, 0.5);
  ref::Tensor wu = rng.uniformTensor({4, 32, 48}, -0.5, 0.5);
  std::vector<Arg> args = {Arg::floats(x), Arg::floats(wg), Arg::floats(wu),
                           Arg::ints64({4}, kGroups), Arg::zeros({100, 48})};
  run(source, "f", args);
  expectClose("grouped_swiglu", args[4], ref::groupedSwiglu(x, wg, wu, kGroups),
              kTolerance);
}

TEST(GpuEmulated, TopkRouter) {
  const char *source = R"mlir(
func.func @f(%l: tensor<100x8xf32>, %w0: tensor<100x2xf32>, %i0: tensor<100x2xi32>)
    -> (tensor<100x2xf32>, tensor<100x2xi32>) {
  %w, %ids = mixer.topk_router k(2) normalize ins(%l : tensor<100x8xf32>)
      outs(%w0, %i0 : tensor<100x2xf32>, tensor<100x2xi32>)
      -> tensor<100x2xf32>, tensor<100x2xi32>
  return %w, %ids : tensor<100x2xf32>, tensor<100x2xi32>
})mlir";
  ref::Rng rng(21);
  ref::Tensor logits = rng.uniformTensor({100, 8}, -2, 2);
  std::vector<Arg> args = {
      Arg::floats(logits), Arg::zeros({100, 2}),
      Arg::ints32({100, 2}, std::vector<int32_t>(200, -1))};
  run(source, "f", args);
  ref::Routing r = ref::topkRouter(logits, 2, true);
  expectClose("topk_router weights", args[1], r.weights, kTolerance);
  EXPECT_EQ(args[2].i32, r.expertIds) << "topk_router expert ids";
}

TEST(GpuEmulated, MoeDispatchAndCombine) {
  const char *dispatch = R"mlir(
func.func @f(%x: tensor<50x16xf32>, %ids: tensor<50x2xi32>, %s0: tensor<100x16xf32>,
    %g0: tensor<4xi64>, %p0: tensor<100xi32>)
    -> (tensor<100x16xf32>, tensor<4xi64>, tensor<100xi32>) {
  %s, %g, %p = mixer.moe_dispatch num_experts(4)
      ins(%x, %ids : tensor<50x16xf32>, tensor<50x2xi32>)
      outs(%s0, %g0, %p0 : tensor<100x16xf32>, tensor<4xi64>, tensor<100xi32>)
      -> tensor<100x16xf32>, tensor<4xi64>, tensor<100xi32>
  return %s, %g, %p : tensor<100x16xf32>, tensor<4xi64>, tensor<100xi32>
})mlir";
  ref::Rng rng(22);
  ref::Tensor x = rng.uniformTensor({50, 16}, -1, 1);
  std::vector<int32_t> ids(100);
  for (int64_t t = 0; t < 50; ++t) {
    ids[2 * t] = int32_t(rng.uniform(0, 4));
    ids[2 * t + 1] = (ids[2 * t] + 1 + int32_t(rng.uniform(0, 3))) % 4;
  }
  std::vector<Arg> args = {Arg::floats(x), Arg::ints32({50, 2}, ids),
                           Arg::zeros({100, 16}),
                           Arg::ints64({4}, std::vector<int64_t>(4, -1)),
                           Arg::ints32({100}, std::vector<int32_t>(100, -1))};
  run(dispatch, "f", args);
  ref::Dispatch r =
      ref::moeDispatch(ref::fromFloats(x.shape, args[0].f32.data()), ids, 2, 4);
  expectClose("moe_dispatch sorted", args[2], r.sorted, 0);
  EXPECT_EQ(args[3].i64, r.groupSizes) << "moe_dispatch group sizes";
  EXPECT_EQ(args[4].i32, r.permutation) << "moe_dispatch permutation";

  const char *combine = R"mlir(
func.func @f(%eo: tensor<100x16xf32>, %p: tensor<100xi32>, %w: tensor<50x2xf32>,
    %o: tensor<50x16xf32>) -> tensor<50x16xf32> {
  %y = mixer.moe_combine ins(%eo, %p, %w : tensor<100x16xf32>, tensor<100xi32>, tensor<50x2xf32>)
      outs(%o : tensor<50x16xf32>) -> tensor<50x16xf32>
  return %y : tensor<50x16xf32>
})mlir";
  ref::Tensor expertOut = rng.uniformTensor({100, 16}, -1, 1);
  ref::Tensor weights = rng.uniformTensor({50, 2}, 0, 1);
  std::vector<Arg> combineArgs = {Arg::floats(expertOut),
                                  Arg::ints32({100}, r.permutation),
                                  Arg::floats(weights), Arg::zeros({50, 16})};
  run(combine, "f", combineArgs);
  expectClose("moe_combine", combineArgs[3],
              ref::moeCombine(expertOut, r.permutation, weights), kTolerance);
}

} // namespace

int main(int argc, char **argv) {
  // A block's threads are OpenMP threads, more of them than cores: waiting
  // threads must sleep at barriers instead of spinning.
  setenv("KMP_BLOCKTIME", "0", /*overwrite=*/0);
  setenv("OMP_WAIT_POLICY", "passive", /*overwrite=*/0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
