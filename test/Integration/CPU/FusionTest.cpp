//===- FusionTest.cpp - fused mixer ops against the reference -------------===//
//
// Fuses a mixer.kernel_lse with an elementwise linalg.generic through the
// upstream tile-and-fuse drivers, which reach the op through the
// TilingInterface model built from its indexing maps:
//   - producer fusion: the consumer (lse^2) is tiled by rows into an
//     scf.forall and kernel_lse is computed per row tile inside it;
//   - consumer fusion: the producer (x / 2) is tiled by rows and kernel_lse
//     is fused after it into the same loop.
// The fused module is compiled through the CPU pipeline, run through the
// JIT on random inputs and compared with mixer::ref; each case prints its
// relative error max|out - ref| / max|ref|.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Reference/Reference.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cstdio>

using namespace mixer::test;
namespace ref = ::mixer::ref;

namespace {

constexpr int64_t kN = 100, kM = 77, kD = 3, kRowTile = 32;

/// func @f(x, y, eps, g, out): with `consumerFusion`, out = kernel_lse(x / 2)
/// (the generic produces kernel_lse's x); otherwise out = kernel_lse(x)^2.
std::string lseModule(bool consumerFusion) {
  std::ostringstream os;
  os << "#rows = affine_map<(d0, d1) -> (d0, d1)>\n"
        "#row = affine_map<(d0) -> (d0)>\n"
        "func.func @f(%x: tensor<100x3xf32>, %y: tensor<77x3xf32>, "
        "%eps: tensor<f32>, %g: tensor<77xf32>, "
        "%o: tensor<100xf32> {bufferization.writable = true}) -> "
        "tensor<100xf32> {\n";
  if (consumerFusion)
    os << "  %e = tensor.empty() : tensor<100x3xf32>\n"
          "  %half = arith.constant 0.5 : f32\n"
          "  %xs = linalg.generic {indexing_maps = [#rows, #rows], "
          "iterator_types = [\"parallel\", \"parallel\"]} "
          "ins(%x : tensor<100x3xf32>) outs(%e : tensor<100x3xf32>) {\n"
          "  ^bb0(%a: f32, %b: f32):\n"
          "    %s = arith.mulf %a, %half : f32\n"
          "    linalg.yield %s : f32\n"
          "  } -> tensor<100x3xf32>\n"
          "  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%xs, %y, %eps : "
          "tensor<100x3xf32>, tensor<77x3xf32>, tensor<f32>) "
          "g(%g : tensor<77xf32>) outs(%o : tensor<100xf32>) -> "
          "tensor<100xf32>\n";
  else
    os << "  %e = tensor.empty() : tensor<100xf32>\n"
          "  %lse = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : "
          "tensor<100x3xf32>, tensor<77x3xf32>, tensor<f32>) "
          "g(%g : tensor<77xf32>) outs(%e : tensor<100xf32>) -> "
          "tensor<100xf32>\n"
          "  %r = linalg.generic {indexing_maps = [#row, #row], "
          "iterator_types = [\"parallel\"]} "
          "ins(%lse : tensor<100xf32>) outs(%o : tensor<100xf32>) {\n"
          "  ^bb0(%a: f32, %b: f32):\n"
          "    %s = arith.mulf %a, %a : f32\n"
          "    linalg.yield %s : f32\n"
          "  } -> tensor<100xf32>\n";
  os << "  return %r : tensor<100xf32>\n}\n";
  return os.str();
}

/// Tiles the consumer generic by rows into an scf.forall and fuses the
/// kernel_lse that produces its input.
mlir::LogicalResult fuseProducer(mlir::RewriterBase &rewriter,
                                 mlir::linalg::GenericOp consumer) {
  mlir::scf::SCFTilingOptions tiling;
  tiling.setLoopType(mlir::scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setTileSizes(
      mlir::getAsIndexOpFoldResult(rewriter.getContext(), {kRowTile}));
  mlir::scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  rewriter.setInsertionPoint(consumer);
  auto tiled = mlir::scf::tileConsumerAndFuseProducersUsingSCF(
      rewriter, mlir::cast<mlir::TilingInterface>(consumer.getOperation()),
      options);
  if (mlir::failed(tiled))
    return mlir::failure();
  for (mlir::OpResult result : consumer->getResults())
    rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
  rewriter.eraseOp(consumer);
  return mlir::success();
}

/// Tiles the producer generic by rows into an scf.forall and fuses the
/// kernel_lse that consumes it after it in the loop.
mlir::LogicalResult fuseConsumer(mlir::RewriterBase &rewriter,
                                 mlir::linalg::GenericOp producer) {
  mlir::scf::SCFTilingOptions tiling;
  tiling.setLoopType(mlir::scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setTileSizes(
      mlir::getAsIndexOpFoldResult(rewriter.getContext(), {kRowTile, 0}));
  rewriter.setInsertionPoint(producer);
  auto tiled = mlir::scf::tileUsingSCF(
      rewriter, mlir::cast<mlir::TilingInterface>(producer.getOperation()),
      tiling);
  if (mlir::failed(tiled))
    return mlir::failure();
  rewriter.replaceOp(producer, tiled->replacements);
  auto forall = mlir::cast<mlir::scf::ForallOp>(tiled->loops.front());
  mlir::Operation *insert = nullptr;
  forall.getTerminator().walk(
      [&](mlir::tensor::ParallelInsertSliceOp op) { insert = op; });
  mlir::SmallVector<mlir::LoopLikeOpInterface> loops = {forall};
  auto fused =
      mlir::scf::tileAndFuseConsumerOfSlices(rewriter, {insert}, loops);
  if (mlir::failed(fused))
    return mlir::failure();
  return mlir::success();
}

/// The module of `source` after the fusion, printed; empty when the fusion
/// failed or left a kernel_lse outside the loop.
std::string fused(const std::string &source, bool consumerFusion) {
  mlir::DialectRegistry registry;
  mlir::mixer::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return "";
  mlir::linalg::GenericOp generic;
  module->walk([&](mlir::linalg::GenericOp op) { generic = op; });
  mlir::IRRewriter rewriter(&context);
  if (mlir::failed(consumerFusion ? fuseConsumer(rewriter, generic)
                                  : fuseProducer(rewriter, generic)) ||
      mlir::failed(mlir::verify(*module)))
    return "";
  // The untiled op and the slices of it that fusion left are dead: the
  // greedy driver with no patterns erases them.
  (void)mlir::applyPatternsGreedily(*module,
                                    mlir::RewritePatternSet(&context));
  bool allInLoop = true;
  module->walk([&](mlir::mixer::KernelLseOp op) {
    allInLoop &= op->getParentOfType<mlir::scf::ForallOp>() != nullptr;
  });
  if (!allInLoop)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

class KernelLseFusion : public ::testing::TestWithParam<bool> {};

TEST_P(KernelLseFusion, RelativeErrorWithinTolerance) {
  bool consumerFusion = GetParam();
  std::string source = fused(lseModule(consumerFusion), consumerFusion);
  ASSERT_FALSE(source.empty()) << "fusion failed";
  CompiledModule compiled(source, /*naive=*/false);
  ASSERT_TRUE(compiled.ok()) << "compilation failed";

  ref::Rng rng(7);
  auto input = [&](std::vector<int64_t> shape, double lo, double hi) {
    ref::Tensor t = rng.uniformTensor(shape, lo, hi);
    Buffer b{shape, ref::toFloats(t)};
    return std::make_pair(b, ref::fromFloats(shape, b.data.data()));
  };
  auto [x, rx] = input({kN, kD}, -1.0, 1.0);
  auto [y, ry] = input({kM, kD}, -1.0, 1.0);
  auto [g, rg] = input({kM}, -2.0, 2.0);
  Buffer eps{{}, {0.5f}};
  Buffer out{{kN}, std::vector<float>(kN, 0.0f)};
  compiled.callBuffers("f", {&x, &y, &eps, &g, &out});

  ref::Tensor expected;
  if (consumerFusion) {
    for (double &v : rx.data)
      v *= 0.5;
    expected = ref::kernelLse(ref::Kernel::SqEuclidean, rx, ry, &rg, 0.5);
  } else {
    expected = ref::kernelLse(ref::Kernel::SqEuclidean, rx, ry, &rg, 0.5);
    for (double &v : expected.data)
      v *= v;
  }
  double err = ref::relativeError(out.data.data(), expected);
  std::printf("kernel_lse fused %s: relative error %.3g\n",
              consumerFusion ? "consumer" : "producer", err);
  EXPECT_LE(err, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(Fusion, KernelLseFusion, ::testing::Bool(),
                         [](const auto &info) {
                           return info.param ? "consumer" : "producer";
                         });

} // namespace
