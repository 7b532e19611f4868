//===- ScanVjpTest.cpp - DifferentiableOpInterface of ssd, linear_attention ===//
//
// buildVjp of mixer.ssd and mixer.linear_attention creates the backward op
// with the forward's operands, attributes and (ssd) chunk states, the present
// cotangents only, and returns one value per operand: the gradient of each
// input (of its type) and null for each `outs` operand.
//
//===----------------------------------------------------------------------===//

#include "FunctionBuilderTest.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

class ScanVjpTest : public ::mixer::test::FunctionBuilderTest {
protected:
  /// Expects one gradient per operand of `op`: of the operand's type for
  /// the first `numInputs`, null for the rest (`outs`).
  static void expectPerOperand(Operation *op, ArrayRef<Value> grads,
                               unsigned numInputs) {
    ASSERT_EQ(grads.size(), op->getNumOperands());
    for (auto [i, grad] : llvm::enumerate(grads)) {
      if (i < numInputs) {
        ASSERT_TRUE(grad) << "operand " << i;
        EXPECT_EQ(grad.getType(), op->getOperand(i).getType()) << "operand " << i;
      } else {
        EXPECT_FALSE(grad) << "operand " << i;
      }
    }
  }
};

TEST_F(ScanVjpTest, SsdWithInitAndOutputCotangent) {
  ValueRange a = args({f32({2, 16, 4, 8}), f32({2, 16, 4}), f32({2, 16, 2, 8}),
                       f32({2, 16, 2, 8}), f32({2, 4, 8, 8}),
                       f32({2, 16, 4, 8})});
  Location loc = builder.getUnknownLoc();
  auto y0 = tensor::EmptyOp::create(builder, loc, f32({2, 16, 4, 8}), {});
  auto s0 = tensor::EmptyOp::create(builder, loc, f32({2, 4, 8, 8}), {});
  auto ssd = SsdOp::create(builder, loc, a[0], a[1], a[2], a[3], a[4], y0, s0,
                           /*chunkSize=*/8);
  auto vjp = cast<DifferentiableOpInterface>(ssd.getOperation());
  FailureOr<SmallVector<Value>> grads =
      vjp.buildVjp(builder, {a[5], Value()});
  ASSERT_TRUE(succeeded(grads));
  expectPerOperand(ssd, *grads, 5);

  auto backward = (*grads)[0].getDefiningOp<SsdBackwardOp>();
  ASSERT_TRUE(backward);
  EXPECT_TRUE(succeeded(verify(backward)));
  EXPECT_EQ(backward.getDy(), a[5]);
  EXPECT_FALSE(backward.getDFinalState());
  EXPECT_EQ(backward.getInit(), a[4]);
  EXPECT_EQ(backward.getChunkSize(), 8);
  // The forward is switched to the form that saves its chunk states
  // [B, H, L / 8 + 1, N, P], which the backward reads; the original op is
  // left without uses.
  auto saving = backward.getChunkStates().getDefiningOp<SsdOp>();
  ASSERT_TRUE(saving);
  EXPECT_NE(saving, ssd);
  EXPECT_TRUE(succeeded(verify(saving)));
  EXPECT_EQ(saving.getChunkStates().getType(), f32({2, 4, 3, 8, 8}));
  EXPECT_EQ(saving.getX(), a[0]);
  EXPECT_EQ(saving.getInit(), a[4]);
  EXPECT_EQ(saving.getChunkSize(), 8);
  EXPECT_TRUE(ssd.getY().use_empty());
  EXPECT_TRUE(ssd.getFinalState().use_empty());
}

TEST_F(ScanVjpTest, LinearAttentionWithDecayAndStateCotangent) {
  ValueRange a = args({f32({1, 10, 2, 4}), f32({1, 10, 2, 6}),
                       f32({1, 10, 2}), f32({1, 2, 4, 6})});
  Location loc = builder.getUnknownLoc();
  auto o0 = tensor::EmptyOp::create(builder, loc, f32({1, 10, 2, 6}), {});
  auto s0 = tensor::EmptyOp::create(builder, loc, f32({1, 2, 4, 6}), {});
  auto la = LinearAttentionOp::create(builder, loc, a[0], a[0], a[1], a[2],
                                      Value(), o0, s0, /*chunkSize=*/4,
                                      /*window=*/3, /*scale=*/0.5f);
  auto vjp = cast<DifferentiableOpInterface>(la.getOperation());
  FailureOr<SmallVector<Value>> grads =
      vjp.buildVjp(builder, {Value(), a[3]});
  ASSERT_TRUE(succeeded(grads));
  // q, k, v, log_decay; no init.
  expectPerOperand(la, *grads, 4);

  auto backward = (*grads)[0].getDefiningOp<LinearAttentionBackwardOp>();
  ASSERT_TRUE(backward);
  EXPECT_TRUE(succeeded(verify(backward)));
  EXPECT_FALSE(backward.getDout());
  EXPECT_EQ(backward.getDFinalState(), a[3]);
  EXPECT_FALSE(backward.getInit());
  EXPECT_EQ(backward.getWindow(), 3);
  EXPECT_EQ(backward.getScale().convertToFloat(), 0.5f);
  // With a window there are no chunk states: the backward recomputes them.
  EXPECT_FALSE(backward.getChunkStates());
}

TEST_F(ScanVjpTest, LinearAttentionReadsTheForwardsChunkStates) {
  ValueRange a = args({f32({1, 10, 2, 4}), f32({1, 10, 2, 6}),
                       f32({1, 10, 2}), f32({1, 2, 4, 6}),
                       f32({1, 10, 2, 6})});
  Location loc = builder.getUnknownLoc();
  auto o0 = tensor::EmptyOp::create(builder, loc, f32({1, 10, 2, 6}), {});
  auto s0 = tensor::EmptyOp::create(builder, loc, f32({1, 2, 4, 6}), {});
  auto la = LinearAttentionOp::create(builder, loc, a[0], a[0], a[1], a[2],
                                      a[3], o0, s0, /*chunkSize=*/4,
                                      /*window=*/0, /*scale=*/0.5f);
  auto vjp = cast<DifferentiableOpInterface>(la.getOperation());
  FailureOr<SmallVector<Value>> grads = vjp.buildVjp(builder, {a[4], Value()});
  ASSERT_TRUE(succeeded(grads));
  // q, k, v, log_decay, init.
  expectPerOperand(la, *grads, 5);

  auto backward = (*grads)[0].getDefiningOp<LinearAttentionBackwardOp>();
  ASSERT_TRUE(backward);
  EXPECT_TRUE(succeeded(verify(backward)));
  EXPECT_EQ(backward.getDout(), a[4]);
  // The forward is switched to the form that saves its chunk states
  // [B, H, L / 4 + 1, Dk, Dv], which the backward reads; the original op is
  // left without uses.
  auto saving = backward.getChunkStates().getDefiningOp<LinearAttentionOp>();
  ASSERT_TRUE(saving);
  EXPECT_NE(saving, la);
  EXPECT_TRUE(succeeded(verify(saving)));
  EXPECT_EQ(saving.getChunkStates().getType(), f32({1, 2, 3, 4, 6}));
  EXPECT_EQ(saving.getQ(), a[0]);
  EXPECT_EQ(saving.getLogDecay(), a[2]);
  EXPECT_EQ(saving.getInit(), a[3]);
  EXPECT_EQ(saving.getChunkSize(), 4);
  EXPECT_EQ(saving.getScale().convertToFloat(), 0.5f);
  EXPECT_TRUE(la.getO().use_empty());
  EXPECT_TRUE(la.getFinalState().use_empty());
}

} // namespace
