//===- BuildersTest.cpp - the C++ builders of the mixer ops ---------------===//
//
// Builds every op through its value-taking builder, as passes and front
// ends do, and checks that the result verifies, has the types of its `outs`
// operands and keeps its optional operands and attributes; a build with
// inconsistent shapes fails verification with a message naming the operand.
//
//===----------------------------------------------------------------------===//

#include "FunctionBuilderTest.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

class BuildersTest : public ::mixer::test::FunctionBuilderTest {
protected:
  /// Verifies `op`, returning the diagnostics it produced.
  std::string verifyMessages(Operation *op, bool &ok) {
    std::string messages;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      messages += diag.str() + "\n";
      return success();
    });
    ok = succeeded(verify(op));
    return messages;
  }

  void expectVerifies(Operation *op) {
    bool ok;
    std::string messages = verifyMessages(op, ok);
    EXPECT_TRUE(ok) << messages;
  }

  void expectResultsMatchOuts(Operation *op, ValueRange outs) {
    ASSERT_EQ(op->getNumResults(), outs.size());
    for (auto [result, init] : llvm::zip(op->getResults(), outs))
      EXPECT_EQ(result.getType(), init.getType());
  }
};

TEST_F(BuildersTest, Ssd) {
  ValueRange a = args({f32({2, 16, 4, 8}), f32({2, 16, 4}), f32({2, 16, 2, 5}),
                       f32({2, 16, 2, 5}), f32({2, 4, 8, 5}),
                       f32({2, 16, 4, 8}), f32({2, 4, 8, 5})});
  auto withInit = SsdOp::create(builder, builder.getUnknownLoc(), a[0], a[1],
                                a[2], a[3], a[4], a[5], a[6], 32);
  expectVerifies(withInit);
  expectResultsMatchOuts(withInit, {a[5], a[6]});
  EXPECT_EQ(withInit.getInit(), a[4]);
  EXPECT_EQ(withInit.getChunkSize(), 32u);

  auto withoutInit = SsdOp::create(builder, builder.getUnknownLoc(), a[0],
                                   a[1], a[2], a[3], Value(), a[5], a[6], 64);
  expectVerifies(withoutInit);
  EXPECT_FALSE(withoutInit.getInit());
}

TEST_F(BuildersTest, SsdInconsistentShapesFailWithTheOperandNamed) {
  // c has N = 6 where b has N = 5.
  ValueRange a = args({f32({1, 16, 4, 8}), f32({1, 16, 4}), f32({1, 16, 2, 5}),
                       f32({1, 16, 2, 6}), f32({1, 16, 4, 8}),
                       f32({1, 4, 8, 5})});
  auto op = SsdOp::create(builder, builder.getUnknownLoc(), a[0], a[1], a[2],
                          a[3], Value(), a[4], a[5], 64);
  bool ok;
  std::string messages = verifyMessages(op, ok);
  EXPECT_FALSE(ok);
  EXPECT_NE(messages.find("'c' dim 3 (N) is 6"), std::string::npos)
      << messages;
}

TEST_F(BuildersTest, SelectiveScan) {
  ValueRange a = args({f32({1, 10, 6}), f32({1, 10, 6}), f32({6, 4}),
                       f32({1, 10, 2, 4}), f32({1, 10, 2, 4}), f32({6}),
                       f32({1, 10, 6}), f32({6}), f32({1, 10, 6}),
                       f32({1, 6, 4})});
  auto op = SelectiveScanOp::create(builder, builder.getUnknownLoc(), a[0],
                                    a[1], a[2], a[3], a[4], a[5], a[6], a[7],
                                    Value(), a[8], a[9], true);
  expectVerifies(op);
  expectResultsMatchOuts(op, {a[8], a[9]});
  EXPECT_TRUE(op.getDeltaSoftplus());
  EXPECT_EQ(op.getDSkip(), a[5]);
  EXPECT_FALSE(op.getInit());
}

TEST_F(BuildersTest, LinearAttentionAndGatedDeltaRule) {
  ValueRange a = args({f32({1, 12, 2, 8}), f32({1, 12, 2, 8}),
                       f32({1, 12, 2, 16}), f32({1, 12, 2}), f32({1, 12, 2}),
                       f32({1, 12, 2, 16}), f32({1, 2, 8, 16})});
  auto la = LinearAttentionOp::create(builder, builder.getUnknownLoc(), a[0],
                                      a[1], a[2], a[3], Value(), a[5], a[6],
                                      16, /*window=*/3, /*scale=*/0.125f);
  expectVerifies(la);
  expectResultsMatchOuts(la, {a[5], a[6]});
  EXPECT_EQ(la.getWindowAttr().getInt(), 3);
  EXPECT_FLOAT_EQ(la.getScaleAttr().getValueAsDouble(), 0.125);

  auto gdr = GatedDeltaRuleOp::create(builder, builder.getUnknownLoc(), a[0],
                                      a[1], a[2], a[3], a[4], Value(), a[5],
                                      a[6], 16, 0.5f);
  expectVerifies(gdr);
  expectResultsMatchOuts(gdr, {a[5], a[6]});
}

TEST_F(BuildersTest, KernelReductions) {
  ValueRange a = args({f32({2, 30, 3}), f32({2, 40, 3}), f32({2, 40, 5}),
                       f32({}), f32({2, 30, 5}), f32({2, 40}), f32({2, 30})});
  auto mv = KernelMvOp::create(builder, builder.getUnknownLoc(),
                               KernelKind::matern32, a[0], a[1], a[2], a[3],
                               a[4]);
  expectVerifies(mv);
  expectResultsMatchOuts(mv, {a[4]});
  EXPECT_TRUE(mv.isBatched());

  auto lse = KernelLseOp::create(builder, builder.getUnknownLoc(),
                                 KernelKind::gaussian, a[0], a[1], a[3], a[5],
                                 a[6]);
  expectVerifies(lse);
  expectResultsMatchOuts(lse, {a[6]});
  EXPECT_EQ(lse.getG(), a[5]);
}

TEST_F(BuildersTest, Sinkhorn) {
  ValueRange a = args({f32({30, 3}), f32({40, 3}), f32({30}), f32({40}),
                       f32({}), f32({30}), f32({40}), f32({})});
  auto op = SinkhornOp::create(builder, builder.getUnknownLoc(),
                               KernelKind::sqeuclidean, 50, a[0], a[1], a[2],
                               a[3], a[4], a[5], a[6], a[7]);
  expectVerifies(op);
  expectResultsMatchOuts(op, {a[5], a[6], a[7]});
}

TEST_F(BuildersTest, GroupedMatmulAndSwiglu) {
  ValueRange a = args({f32({64, 16}), f32({4, 16, 24}), ints({4}, 32),
                       f32({64, 24}), f32({4, 16, 24}), ints({4}, 64)});
  auto mm = GroupedMatmulOp::create(builder, builder.getUnknownLoc(), a[0],
                                    a[1], a[2], a[3]);
  expectVerifies(mm);
  expectResultsMatchOuts(mm, {a[3]});

  auto swiglu = GroupedSwigluOp::create(builder, builder.getUnknownLoc(), a[0],
                                        a[1], a[4], a[5], a[3]);
  expectVerifies(swiglu);
  expectResultsMatchOuts(swiglu, {a[3]});
}

TEST_F(BuildersTest, Routing) {
  const int64_t T = 10, E = 4, k = 2, K = 6;
  ValueRange a = args({f32({T, E}), f32({T, k}), ints({T, k}, 32),
                       f32({T, K}), f32({T * k, K}), ints({E}, 64),
                       ints({T * k}, 32), f32({T, K})});
  auto router = TopkRouterOp::create(builder, builder.getUnknownLoc(), a[0],
                                     a[1], a[2], k, /*normalize=*/true);
  expectVerifies(router);
  expectResultsMatchOuts(router, {a[1], a[2]});
  EXPECT_TRUE(router.getNormalize());

  auto dispatch = MoeDispatchOp::create(builder, builder.getUnknownLoc(), a[3],
                                        a[2], a[4], a[5], a[6], E);
  expectVerifies(dispatch);
  expectResultsMatchOuts(dispatch, {a[4], a[5], a[6]});

  auto combine = MoeCombineOp::create(builder, builder.getUnknownLoc(), a[4],
                                      a[6], a[1], a[7]);
  expectVerifies(combine);
  expectResultsMatchOuts(combine, {a[7]});
}

} // namespace
