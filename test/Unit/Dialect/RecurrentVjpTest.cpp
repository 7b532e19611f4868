//===- RecurrentVjpTest.cpp - VJP models of selective_scan and the delta rule -===//
//
// Builds mixer.selective_scan and mixer.gated_delta_rule, asks each for its
// vector-Jacobian product through DifferentiableOpInterface, and checks what
// it builds: a verified backward op with the cotangents and optional
// operands passed on, one gradient per array operand of the forward's type
// (the per-batch gradients of the selective scan's shared parameters summed
// over the batch), none for the `outs`.
//
//===----------------------------------------------------------------------===//

#include "FunctionBuilderTest.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

using RecurrentVjpTest = ::mixer::test::FunctionBuilderTest;

TEST_F(RecurrentVjpTest, SelectiveScanBuildsItsBackward) {
  // u, delta, A, b, c, D_skip, z, init, y0, s0, dy (no delta_bias).
  ValueRange a = args({f32({2, 8, 4}), f32({2, 8, 4}), f32({4, 3}),
                       f32({2, 8, 2, 3}), f32({2, 8, 2, 3}), f32({4}),
                       f32({2, 8, 4}), f32({2, 4, 3}), f32({2, 8, 4}),
                       f32({2, 4, 3}), f32({2, 8, 4})});
  auto op = SelectiveScanOp::create(builder, builder.getUnknownLoc(), a[0],
                                    a[1], a[2], a[3], a[4], a[5], a[6],
                                    Value(), a[7], a[8], a[9], true);
  auto vjp = cast<DifferentiableOpInterface>(op.getOperation());
  FailureOr<SmallVector<Value>> grads =
      vjp.buildVjp(builder, {a[10], Value()});
  ASSERT_TRUE(succeeded(grads));
  ASSERT_EQ(grads->size(), op->getNumOperands());
  for (unsigned i = 0; i < 8; ++i) {
    ASSERT_TRUE((*grads)[i]) << "operand " << i;
    EXPECT_EQ((*grads)[i].getType(), op->getOperand(i).getType())
        << "operand " << i;
  }
  EXPECT_FALSE((*grads)[8]);
  EXPECT_FALSE((*grads)[9]);
  auto backward = (*grads)[0].getDefiningOp<SelectiveScanBackwardOp>();
  ASSERT_TRUE(backward);
  EXPECT_TRUE(succeeded(verify(backward)));
  EXPECT_EQ(backward.getDy(), a[10]);
  EXPECT_FALSE(backward.getDFinalState());
  EXPECT_FALSE(backward.getDeltaBias());
  EXPECT_TRUE(backward.getDeltaSoftplus());
  // dA and dD_skip come per batch element and are summed over it.
  EXPECT_TRUE((*grads)[2].getDefiningOp<linalg::ReduceOp>());
  EXPECT_TRUE((*grads)[5].getDefiningOp<linalg::ReduceOp>());
}

TEST_F(RecurrentVjpTest, GatedDeltaRuleBuildsItsBackward) {
  // q, k, v, g, beta, o0, s0, d_final_state (no init).
  ValueRange a = args({f32({1, 6, 2, 4}), f32({1, 6, 2, 4}),
                       f32({1, 6, 2, 3}), f32({1, 6, 2}), f32({1, 6, 2}),
                       f32({1, 6, 2, 3}), f32({1, 2, 4, 3}),
                       f32({1, 2, 4, 3})});
  auto op = GatedDeltaRuleOp::create(builder, builder.getUnknownLoc(), a[0],
                                     a[1], a[2], a[3], a[4], Value(), a[5],
                                     a[6], 4, 0.5f);
  auto vjp = cast<DifferentiableOpInterface>(op.getOperation());
  FailureOr<SmallVector<Value>> grads =
      vjp.buildVjp(builder, {Value(), a[7]});
  ASSERT_TRUE(succeeded(grads));
  ASSERT_EQ(grads->size(), op->getNumOperands());
  for (unsigned i = 0; i < 5; ++i) {
    ASSERT_TRUE((*grads)[i]) << "operand " << i;
    EXPECT_EQ((*grads)[i].getType(), op->getOperand(i).getType());
  }
  EXPECT_FALSE((*grads)[5]);
  EXPECT_FALSE((*grads)[6]);
  auto backward = (*grads)[0].getDefiningOp<GatedDeltaRuleBackwardOp>();
  ASSERT_TRUE(backward);
  EXPECT_TRUE(succeeded(verify(backward)));
  EXPECT_FALSE(backward.getDO());
  EXPECT_EQ(backward.getDFinalState(), a[7]);
  EXPECT_EQ(backward.getChunkSize(), 4u);
  EXPECT_EQ(backward.getScale().convertToFloat(), 0.5f);
}

} // namespace
