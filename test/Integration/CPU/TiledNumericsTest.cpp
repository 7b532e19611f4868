//===- TiledNumericsTest.cpp - every op's numbers under other tilings -----===//
//
// Runs each op's case of OpCases.h through the optimized CPU pipeline and
// the JIT after tiling the op into an scf.forall with tile sizes other than
// its ParallelTilingOpInterface answer (mixer-tile-parallel-dims leaves an
// op that is already inside a forall as it is): the value dim P or Dv split,
// head tiles that span several groups (G < H), selective-scan channel blocks
// across groups, small row and column blocks of the kernel sums and column
// blocks of the MoE ops. Checks the tiled op's result type, then compares
// with the fp64 reference and prints the relative error of every output.
//
//===----------------------------------------------------------------------===//

#include "OpCases.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <gtest/gtest.h>

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

/// Tiles every mixer op of `module` that mixer-tile-parallel-dims would tile
/// by `sizes`, appending each tiled op's first result type to `tileTypes`.
mlir::LogicalResult tileMixerOps(mlir::ModuleOp module,
                                 llvm::ArrayRef<int64_t> sizes,
                                 std::vector<std::string> &tileTypes) {
  // What the tiles are built of (mixer-tile-parallel-dims' dependent
  // dialects); parsing loaded only those of the source.
  module.getContext()
      ->loadDialect<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                    mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  llvm::SmallVector<mlir::TilingInterface> ops;
  module.walk([&](mlir::TilingInterface op) {
    if (llvm::isa<mlir::mixer::ParallelTilingOpInterface>(op.getOperation()))
      ops.push_back(op);
  });
  mlir::IRRewriter rewriter(module.getContext());
  for (mlir::TilingInterface op : ops) {
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
          if (failed(tileMixerOps(module, c.sizes, tileTypes)))
            return mlir::failure();
          mlir::mixer::CpuPipelineOptions options;
          return mlir::mixer::compileToLLVM(module, options);
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

} // namespace
