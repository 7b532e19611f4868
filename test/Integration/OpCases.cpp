//===- OpCases.cpp - every op's function, inputs and reference ------------===//
//
// The shapes are small but take every path: chunks and a tail, groups of
// heads (G < H), ragged MoE groups with an empty one and rows left over.
//
//===----------------------------------------------------------------------===//

#include "OpCases.h"

#include <cmath>
#include <cstdio>

namespace mixer::test {

void OpRunner::expectClose(const char *what, const Arg &out,
                           const ref::Tensor &expected,
                           double tolerance) const {
  double error = ref::relativeError(out.f32.data(), expected);
  std::printf("%s %s: relative error %.3g\n", label.c_str(), what, error);
  EXPECT_LE(error, tolerance) << what;
}

namespace {
constexpr double kTolerance = 1e-4;
} // namespace

void ssdCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  // The reference sees the float-rounded inputs.
  ref::ScanResult r =
      ref::ssd(ref::fromFloats(x.shape, args[0].f32.data()),
               ref::fromFloats(la.shape, args[1].f32.data()),
               ref::fromFloats(b.shape, args[2].f32.data()),
               ref::fromFloats(c.shape, args[3].f32.data()), &h);
  runner.expectClose("ssd y", args[5], r.out, kTolerance);
  runner.expectClose("ssd state", args[6], r.finalState, kTolerance);
}

void selectiveScanCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  ref::SelectiveScanOptions opts;
  opts.dSkip = &d;
  opts.z = &z;
  opts.deltaBias = &db;
  opts.deltaSoftplus = true;
  ref::ScanResult r = ref::selectiveScan(u, dt, A, b, c, opts);
  runner.expectClose("selective_scan y", args[8], r.out, kTolerance);
  runner.expectClose("selective_scan state", args[9], r.finalState, kTolerance);
}

/// The q, k, v of the attention-like scans, B=1 L=96 H=2 Dk=16 Dv=32.
struct Qkv {
  ref::Tensor q, k, v;
};

static Qkv randomQkv(ref::Rng &rng) {
  return {rng.uniformTensor({1, 96, 2, 16}, -1, 1),
          rng.uniformTensor({1, 96, 2, 16}, -1, 1),
          rng.uniformTensor({1, 96, 2, 32}, -1, 1)};
}

void linearAttentionCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  ref::ScanResult r =
      ref::linearAttention(t.q, t.k, t.v, &ld, nullptr, 0, 0.25);
  runner.expectClose("linear_attention o", args[4], r.out, kTolerance);
  runner.expectClose("linear_attention state", args[5], r.finalState, kTolerance);
}

void gatedDeltaRuleCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  ref::Tensor k = ref::fromFloats(t.k.shape, args[1].f32.data());
  ref::ScanResult r = ref::gatedDeltaRule(t.q, k, t.v, g, beta, nullptr, 0.25);
  runner.expectClose("gated_delta_rule o", args[5], r.out, kTolerance);
  runner.expectClose("gated_delta_rule state", args[6], r.finalState, kTolerance);
}

/// Points for the kernel sums: N=200 x, M=300 y in D=8.
struct Points {
  ref::Tensor x, y;
};

static Points randomPoints(ref::Rng &rng) {
  return {rng.uniformTensor({200, 8}, -1, 1),
          rng.uniformTensor({300, 8}, -1, 1)};
}

void kernelMvCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  runner.expectClose("kernel_mv", args[4],
              ref::kernelMv(ref::Kernel::Gaussian, p.x, p.y, v, 0.7),
              kTolerance);
}

void kernelLseCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  runner.expectClose("kernel_lse", args[4],
              ref::kernelLse(ref::Kernel::SqEuclidean, p.x, p.y, &g, 0.1),
              kTolerance);
}

void transportCostCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  runner.expectClose("transport_cost", args[5],
              ref::transportCost(ref::Kernel::SqEuclidean, p.x, p.y, u, v, 0.5),
              kTolerance);
}

void sinkhornCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  ref::SinkhornResult r =
      ref::sinkhorn(ref::Kernel::SqEuclidean, p.x, p.y,
                    ref::fromFloats({200}, args[2].f32.data()),
                    ref::fromFloats({300}, args[3].f32.data()), 0.5, 5);
  runner.expectClose("sinkhorn f", args[5], r.f, kTolerance);
  runner.expectClose("sinkhorn g", args[6], r.g, kTolerance);
  ref::Tensor cost(std::vector<int64_t>{}, r.cost);
  runner.expectClose("sinkhorn cost", args[7], cost, kTolerance);
}

/// Ragged groups of 100 rows: 10, 0, 37, 45 (8 rows left over, zero).
const std::vector<int64_t> kGroups = {10, 0, 37, 45};

void groupedMatmulCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  runner.expectClose("grouped_matmul", args[3], ref::groupedMatmul(lhs, rhs, kGroups),
              kTolerance);
}

void groupedSwigluCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  runner.expectClose("grouped_swiglu", args[4], ref::groupedSwiglu(x, wg, wu, kGroups),
              kTolerance);
}

void topkRouterCase(const OpRunner &runner) {
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
  runner.run(source, "f", args);
  ref::Routing r = ref::topkRouter(logits, 2, true);
  runner.expectClose("topk_router weights", args[1], r.weights, kTolerance);
  EXPECT_EQ(args[2].i32, r.expertIds) << "topk_router expert ids";
}

void moeDispatchAndCombineCase(const OpRunner &runner) {
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
  runner.run(dispatch, "f", args);
  ref::Dispatch r =
      ref::moeDispatch(ref::fromFloats(x.shape, args[0].f32.data()), ids, 2, 4);
  runner.expectClose("moe_dispatch sorted", args[2], r.sorted, 0);
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
  runner.run(combine, "f", combineArgs);
  runner.expectClose("moe_combine", combineArgs[3],
              ref::moeCombine(expertOut, r.permutation, weights), kTolerance);
}


} // namespace mixer::test
