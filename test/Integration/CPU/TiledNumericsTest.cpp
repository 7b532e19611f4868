//===- TiledNumericsTest.cpp - every op's numbers under other tilings -----===//
//
// Runs each op's case of OpCases.h through the optimized CPU pipeline and
// the JIT after tiling the op into an scf.forall with tile sizes other than
// its ParallelTilingOpInterface answer (mixer-tile-parallel-dims leaves an
// op that is already inside a forall as it is): the value dim P or Dv split,
// head tiles that span several groups (G < H), selective-scan channel blocks
// across groups, small row and column blocks of the kernel sums and column
// blocks of the MoE ops. The tiles of the scans divide their heads,
// channels and value dims: a partial tile there is refused when tiling
// (scan-tiling-invalid.mlir). Checks the tiled op's result type, then compares
// with the fp64 reference and prints the relative error of every output.
//
// The backward ops run the same way on the gradient cases of
// BackwardCases.h, every gradient against the fp64 reference gradients:
// the backward scans in batch tiles and head (channel) tiles that span
// several groups, where the gradients of b and c sum over a group's heads;
// the kernel backward ops' point gradients and sums in other row and column
// blocks, ragged ones too; grouped_matmul_backward in other column blocks of
// K, a ragged one too. The backward scans' value dims P and Dv are no
// tileable loops (dlog_a, db, dc, dq, dk, dg and dbeta sum over them), and
// their head tiles must divide the heads (scan-backward-tiling-invalid.mlir
// tests the tiles they refuse). The backward ops without a tiling interface
// of their own:
//   - kernel_mv_backward, kernel_lse_backward, sinkhorn_backward: composites
//     whose gradients reduce over different point sets (no parallel dim
//     that all results share); they are decomposed first and their
//     kernel_mv_point_grad, kernel_lse_point_grad and kernel_mv ops tiled;
//   - grouped_swiglu_backward: dx sums over F and the recomputed gate and
//     up projections over K, so every result needs both whole;
//   - moe_combine_backward: d_weights sums over the columns N that would be
//     its tiles.
//
//===----------------------------------------------------------------------===//

#include "BackwardCases.h"
#include "OpCases.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>

using namespace ::mixer::test;

namespace {

struct TiledCase {
  std::string name;
  void (*opCase)(const OpRunner &);
  /// Tile sizes over the op's parallel loops (0: whole).
  std::vector<int64_t> sizes;
  /// The first result type of the tiled op: the tile the sizes make.
  std::string tileType;
};

void PrintTo(const TiledCase &c, std::ostream *os) { *os << c.name; }

/// The tile sizes of an op; none: the pipeline's own.
using TileSizesOf =
    std::function<std::optional<std::vector<int64_t>>(mlir::Operation *)>;

/// Tiles every mixer op of `module` that mixer-tile-parallel-dims would tile
/// and that `sizesOf` gives sizes for, appending each tiled op's first
/// result type to `tileTypes`.
mlir::LogicalResult tileMixerOps(mlir::ModuleOp module,
                                 const TileSizesOf &sizesOf,
                                 std::vector<std::string> &tileTypes) {
  // What the tiles are built of (mixer-tile-parallel-dims' dependent
  // dialects); parsing loaded only those of the source.
  module.getContext()
      ->loadDialect<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                    mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  llvm::SmallVector<std::pair<mlir::TilingInterface, std::vector<int64_t>>> ops;
  module.walk([&](mlir::TilingInterface op) {
    if (!llvm::isa<mlir::mixer::ParallelTilingOpInterface>(op.getOperation()))
      return;
    if (std::optional<std::vector<int64_t>> sizes = sizesOf(op))
      ops.push_back({op, *sizes});
  });
  mlir::IRRewriter rewriter(module.getContext());
  for (auto &[op, sizes] : ops) {
    mlir::FailureOr<mlir::scf::ForallOp> forall =
        mlir::mixer::tileParallelDims(rewriter, op, sizes);
    if (failed(forall))
      return mlir::failure();
    forall->walk([&](mlir::mixer::ParallelTilingOpInterface tiled) {
      std::string type;
      llvm::raw_string_ostream(type) << tiled->getResult(0).getType();
      tileTypes.push_back(type);
    });
  }
  return mlir::success();
}

/// Decomposes the composite ops (the kernel backward ops and
/// sinkhorn_backward into their point gradients and sums), so that the
/// ops they become can be tiled.
mlir::LogicalResult decomposeComposites(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  pm.nest<mlir::func::FuncOp>().addPass(
      mlir::mixer::createMixerDecomposeCompositesPass());
  return pm.run(module);
}

/// Tiles as `sizesOf` says, then compiles through the CPU pipeline (which
/// tiles the other ops as usual).
mlir::LogicalResult lowerTiled(mlir::ModuleOp module,
                               const TileSizesOf &sizesOf,
                               std::vector<std::string> &tileTypes) {
  if (failed(tileMixerOps(module, sizesOf, tileTypes)))
    return mlir::failure();
  mlir::mixer::CpuPipelineOptions options;
  return mlir::mixer::compileToLLVM(module, options);
}

/// Marks the last arguments of every function, one per result, writable:
/// the cases pass their outputs last, and the CPU pipeline writes each
/// result into such an argument.
void markOutputsWritable(mlir::ModuleOp module) {
  for (auto fn : module.getOps<mlir::func::FuncOp>())
    for (unsigned i = fn.getNumArguments() - fn.getNumResults();
         i < fn.getNumArguments(); ++i)
      fn.setArgAttr(i, "bufferization.writable",
                    mlir::BoolAttr::get(module.getContext(), true));
}

class TiledNumerics : public ::testing::TestWithParam<TiledCase> {};

TEST_P(TiledNumerics, RelativeErrorWithinTolerance) {
  const TiledCase &c = GetParam();
  std::vector<std::string> tileTypes;
  OpRunner tiled = {
      "tiled " + c.name,
      [&](const std::string &source, const char *name,
          std::vector<Arg> &args) {
        CompiledModule module(source, [&](mlir::ModuleOp module) {
          markOutputsWritable(module);
          return lowerTiled(
              module, [&](mlir::Operation *) { return c.sizes; }, tileTypes);
        });
        ASSERT_TRUE(module.ok()) << "compilation failed:\n" << source;
        call(module, name, args);
      }};
  c.opCase(tiled);
  EXPECT_EQ(tileTypes, std::vector<std::string>{c.tileType});
}

INSTANTIATE_TEST_SUITE_P(
    AllOps, TiledNumerics,
    ::testing::Values(
        // ssd: B=1 L=160 H=4 P=16 G=2 (two heads a group); loops (B, H, P).
        TiledCase{"ssd_p8", ssdCase, {1, 1, 8}, "tensor<1x160x1x8xf32>"},
        TiledCase{"ssd_heads4_spanning_groups_p4",
                  ssdCase,
                  {1, 4, 4},
                  "tensor<1x160x4x4xf32>"},
        // selective_scan: B=2 D=64 G=2 (32 channels a group); loops (B, D).
        TiledCase{"selective_scan_channels64_spanning_groups",
                  selectiveScanCase,
                  {1, 64},
                  "tensor<1x40x64xf32>"},
        TiledCase{"selective_scan_batch2_channels8",
                  selectiveScanCase,
                  {2, 8},
                  "tensor<2x40x8xf32>"},
        // linear_attention, gated_delta_rule: B=1 H=2 Dv=32; loops
        // (B, H, Dv).
        TiledCase{"linear_attention_dv8",
                  linearAttentionCase,
                  {1, 1, 8},
                  "tensor<1x96x1x8xf32>"},
        TiledCase{"linear_attention_heads2_dv16",
                  linearAttentionCase,
                  {1, 2, 16},
                  "tensor<1x96x2x16xf32>"},
        TiledCase{"gated_delta_rule_dv8",
                  gatedDeltaRuleCase,
                  {1, 1, 8},
                  "tensor<1x96x1x8xf32>"},
        TiledCase{"gated_delta_rule_heads2_dv16",
                  gatedDeltaRuleCase,
                  {1, 2, 16},
                  "tensor<1x96x2x16xf32>"},
        // Kernel sums: N=200 rows; kernel_mv's loops (N, C) with C=16.
        TiledCase{"kernel_mv_rows40_columns4",
                  kernelMvCase,
                  {40, 4},
                  "tensor<40x4xf32>"},
        TiledCase{"kernel_lse_rows8", kernelLseCase, {8}, "tensor<8xf32>"},
        TiledCase{"transport_cost_rows50",
                  transportCostCase,
                  {50},
                  "tensor<50xf32>"},
        // MoE: 48 output columns of the grouped GEMMs, 16 of the combine,
        // 100 router tokens.
        TiledCase{"grouped_matmul_columns16",
                  groupedMatmulCase,
                  {16},
                  "tensor<100x16xf32>"},
        TiledCase{"grouped_swiglu_columns8",
                  groupedSwigluCase,
                  {8},
                  "tensor<100x8xf32>"},
        TiledCase{"topk_router_tokens25",
                  topkRouterCase,
                  {25},
                  "tensor<25x2xf32>"},
        TiledCase{"moe_combine_columns4",
                  moeDispatchAndCombineCase,
                  {4},
                  "tensor<50x4xf32>"}),
    [](const ::testing::TestParamInfo<TiledCase> &info) {
      return info.param.name;
    });

//===----------------------------------------------------------------------===//
// Backward ops
//===----------------------------------------------------------------------===//

struct TiledGradientCase {
  std::string name;
  /// A gradient case of BackwardCases.h, run by the given runner.
  std::function<void(const GradientRunner &)> gradientCase;
  /// Tile sizes by op name; ops of other names keep the pipeline's tiles.
  std::map<std::string, std::vector<int64_t>> sizes;
  /// The first result type of each tiled op, in the order of the ops.
  std::vector<std::string> tileTypes;
  /// Decompose the composites first: the ops that `sizes` names are their
  /// parts.
  bool decompose = false;
};

void PrintTo(const TiledGradientCase &c, std::ostream *os) { *os << c.name; }

class TiledGradients : public ::testing::TestWithParam<TiledGradientCase> {};

TEST_P(TiledGradients, RelativeErrorWithinTolerance) {
  const TiledGradientCase &c = GetParam();
  std::vector<std::string> tileTypes;
  TileSizesOf sizesOf =
      [&](mlir::Operation *op) -> std::optional<std::vector<int64_t>> {
    auto it = c.sizes.find(op->getName().getStringRef().str());
    if (it == c.sizes.end())
      return std::nullopt;
    return it->second;
  };
  GradientRunner runner = {
      "tiled " + c.name + ": ", [&](const std::string &source) {
        return std::make_unique<CompiledModule>(
            source, [&](mlir::ModuleOp module) {
              if (c.decompose && failed(decomposeComposites(module)))
                return mlir::failure();
              return lowerTiled(module, sizesOf, tileTypes);
            });
      }};
  c.gradientCase(runner);
  EXPECT_EQ(tileTypes, c.tileTypes);
}

/// A case of `gradientCase` on `c`, tiled by `sizes`.
template <typename Case>
TiledGradientCase
tiledCase(std::string name,
          void (*gradientCase)(const Case &, const GradientRunner &), Case c,
          std::map<std::string, std::vector<int64_t>> sizes,
          std::vector<std::string> tileTypes, bool decompose = false) {
  return {std::move(name),
          [gradientCase, c](const GradientRunner &r) { gradientCase(c, r); },
          std::move(sizes), std::move(tileTypes), decompose};
}

using ::mixer::ref::Kernel;

INSTANTIATE_TEST_SUITE_P(
    BackwardOps, TiledGradients,
    ::testing::Values(
        // ssd_backward: B=2 H=8 G=4 (two heads a group); loops (B, H).
        tiledCase("ssd_backward_heads4_two_groups", ssdBackwardCase,
                  SsdCase{2, 100, 8, 8, 4, 16, 32, true, true, true},
                  {{"mixer.ssd_backward", {1, 4}}}, {"tensor<1x100x4x8xf32>"}),
        tiledCase("ssd_backward_batch2_heads2", ssdBackwardCase,
                  SsdCase{2, 100, 8, 8, 4, 16, 32, true, true, true},
                  {{"mixer.ssd_backward", {2, 2}}}, {"tensor<2x100x2x8xf32>"}),
        tiledCase("ssd_backward_saved_heads4_two_groups", ssdBackwardCase,
                  SsdCase{2, 100, 8, 8, 4, 16, 32, true, true, true,
                          Decays::Realistic, false, true},
                  {{"mixer.ssd_backward", {1, 4}}}, {"tensor<1x100x4x8xf32>"}),
        // One group for all four heads (read whole by every tile).
        tiledCase("ssd_backward_one_group_batch2", ssdBackwardCase,
                  SsdCase{2, 77, 4, 8, 1, 8, 16, true, true, true},
                  {{"mixer.ssd_backward", {2, 4}}}, {"tensor<2x77x4x8xf32>"}),
        // linear_attention_backward: B=2 H=4; loops (B, H).
        tiledCase("linear_attention_backward_heads2",
                  linearAttentionBackwardCase,
                  LinearAttentionCase{2, 50, 4, 8, 16, 16, 0, true, true, true},
                  {{"mixer.linear_attention_backward", {1, 2}}},
                  {"tensor<1x50x2x8xf32>"}),
        tiledCase("linear_attention_backward_window_batch2_heads2",
                  linearAttentionBackwardCase,
                  LinearAttentionCase{2, 45, 4, 8, 16, 16, 5, true, true, true},
                  {{"mixer.linear_attention_backward", {2, 2}}},
                  {"tensor<2x45x2x8xf32>"}),
        tiledCase("linear_attention_backward_saved_heads2",
                  linearAttentionBackwardCase,
                  LinearAttentionCase{2, 50, 4, 8, 16, 16, 0, true, true, true,
                                      Decays::Realistic, true},
                  {{"mixer.linear_attention_backward", {1, 2}}},
                  {"tensor<1x50x2x8xf32>"}),
        // gated_delta_rule_backward: B=2 H=4; loops (B, H).
        tiledCase("gated_delta_rule_backward_heads2",
                  gatedDeltaRuleBackwardCase,
                  GdrbCase{2, 37, 4, 16, 8, 16, true, 0.25},
                  {{"mixer.gated_delta_rule_backward", {1, 2}}},
                  {"tensor<1x37x2x16xf32>"}),
        tiledCase("gated_delta_rule_backward_batch2",
                  gatedDeltaRuleBackwardCase,
                  GdrbCase{2, 37, 4, 16, 8, 16, true, 0.25},
                  {{"mixer.gated_delta_rule_backward", {2, 1}}},
                  {"tensor<2x37x1x16xf32>"}),
        // selective_scan_backward: B=2 D=64 G=4 (16 channels a group); loops
        // (B, D).
        tiledCase("selective_scan_backward_channels32_two_groups",
                  selectiveScanBackwardCase,
                  SsbCase{2, 37, 64, 4, 16, 16, true, true, true, true, true},
                  {{"mixer.selective_scan_backward", {1, 32}}},
                  {"tensor<1x37x32xf32>"}),
        tiledCase("selective_scan_backward_batch2_channels16",
                  selectiveScanBackwardCase,
                  SsbCase{2, 37, 64, 4, 16, 16, true, true, true, true, true},
                  {{"mixer.selective_scan_backward", {2, 16}}},
                  {"tensor<2x37x16xf32>"}),
        tiledCase("selective_scan_backward_saved_channels64_four_groups",
                  selectiveScanBackwardCase,
                  SsbCase{2, 37, 64, 4, 16, 16, true, true, true, true, true,
                          true, true, /*saved=*/true},
                  {{"mixer.selective_scan_backward", {1, 64}}},
                  {"tensor<1x37x64xf32>"}),
        // kernel_mv_backward: its point gradients (rows N=70 for dx, M=130
        // for dy) and the kernel_mv of dv (rows M, columns C=4); row blocks
        // that divide the rows, then ragged ones.
        tiledCase("kernel_mv_backward_rows10_columns2", kernelMvBackwardCase,
                  MvCase{Kernel::Gaussian, 2, 70, 130, 8, 4},
                  {{"mixer.kernel_mv_point_grad", {1, 10}},
                   {"mixer.kernel_mv", {1, 26, 2}}},
                  {"tensor<1x10x8xf32>", "tensor<1x10x8xf32>",
                   "tensor<1x26x2xf32>"},
                  true),
        tiledCase(
            "kernel_mv_backward_laplacian_batch2_rows40", kernelMvBackwardCase,
            MvCase{Kernel::Laplacian, 2, 70, 130, 8, 4},
            {{"mixer.kernel_mv_point_grad", {2, 40}},
             {"mixer.kernel_mv", {2, 40, 0}}},
            {"tensor<2x?x8xf32>", "tensor<2x?x8xf32>", "tensor<2x?x4xf32>"},
            true),
        // kernel_lse_backward and sinkhorn_backward: their two point
        // gradients.
        tiledCase("kernel_lse_backward_batch2_rows16", kernelLseBackwardCase,
                  LseCase{Kernel::SqEuclidean, 2, 70, 130, 8, true, 0.5},
                  {{"mixer.kernel_lse_point_grad", {2, 16}}},
                  {"tensor<2x?x8xf32>", "tensor<2x?x8xf32>"}, true),
        tiledCase("kernel_lse_backward_rows24", kernelLseBackwardCase,
                  LseCase{Kernel::Laplacian, 0, 100, 200, 16, true, 2.0},
                  {{"mixer.kernel_lse_point_grad", {24}}},
                  {"tensor<?x16xf32>", "tensor<?x16xf32>"}, true),
        tiledCase("sinkhorn_backward_rows16", sinkhornBackwardCase,
                  SinkhornCase{Kernel::SqEuclidean, 70, 130, 3, 200, 0.2},
                  {{"mixer.kernel_lse_point_grad", {16}}},
                  {"tensor<?x3xf32>", "tensor<?x3xf32>"}, true),
        // grouped_matmul_backward: columns K of dlhs; loops (K).
        tiledCase("grouped_matmul_backward_k8", groupedMatmulBackwardCase,
                  GroupedCase{37, 32, 48, 4, 33, false},
                  {{"mixer.grouped_matmul_backward", {8}}},
                  {"tensor<37x8xf32>"}),
        tiledCase("grouped_matmul_backward_dynamic_rows_k16",
                  groupedMatmulBackwardCase,
                  GroupedCase{70, 64, 32, 5, 70, true},
                  {{"mixer.grouped_matmul_backward", {16}}},
                  {"tensor<?x16xf32>"}),
        tiledCase("grouped_matmul_backward_k48_ragged",
                  groupedMatmulBackwardCase,
                  GroupedCase{150, 128, 64, 8, 141, false},
                  {{"mixer.grouped_matmul_backward", {48}}},
                  {"tensor<150x?xf32>"})),
    [](const ::testing::TestParamInfo<TiledGradientCase> &info) {
      return info.param.name;
    });

} // namespace
