//===- KernelMoEVjpTest.cpp - the VJP models of the kernel and MoE ops ----===//
//
// Calls DifferentiableOpInterface::buildVjp on kernel_mv, kernel_lse,
// grouped_matmul, grouped_swiglu and moe_combine, as mixer-generate-vjp
// does, and checks that it builds the op's backward op, verifying, with one
// value per operand: the gradient (of the operand's type) for every float
// array, null for `outs`, eps, group sizes and permutations. A null
// cotangent becomes zeros.
//
//===----------------------------------------------------------------------===//

#include "FunctionBuilderTest.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

class KernelMoEVjpTest : public ::mixer::test::FunctionBuilderTest {
protected:
  /// buildVjp of `op` with `cotangents`, after the op; checks that the
  /// module verifies and that there is one value per operand.
  SmallVector<Value> vjp(Operation *op, ArrayRef<Value> cotangents) {
    builder.setInsertionPointAfter(op);
    auto diff = dyn_cast<DifferentiableOpInterface>(op);
    EXPECT_TRUE(diff) << "no DifferentiableOpInterface";
    if (!diff)
      return {};
    FailureOr<SmallVector<Value>> grads = diff.buildVjp(builder, cotangents);
    EXPECT_TRUE(succeeded(grads));
    if (failed(grads))
      return {};
    EXPECT_EQ(grads->size(), op->getNumOperands());
    builder.setInsertionPointToEnd(op->getBlock());
    func::ReturnOp::create(builder, builder.getUnknownLoc());
    EXPECT_TRUE(succeeded(verify(*module)));
    return *grads;
  }

  /// Expects `grad` to be a result of an op of type OpTy with the type of
  /// `operand`.
  template <typename OpTy> void expectGradient(Value grad, Value operand) {
    ASSERT_TRUE(grad);
    EXPECT_TRUE(isa<OpTy>(grad.getDefiningOp()));
    EXPECT_EQ(grad.getType(), operand.getType());
  }
};

TEST_F(KernelMoEVjpTest, KernelMv) {
  ValueRange a = args({f32({2, 8, 3}), f32({2, 16, 3}), f32({2, 16, 5}),
                       f32({}), f32({2, 8, 5}), f32({2, 8, 5})});
  auto op = KernelMvOp::create(builder, builder.getUnknownLoc(),
                               KernelKind::matern32, a[0], a[1], a[2], a[3],
                               a[4]);
  SmallVector<Value> grads = vjp(op, {a[5]});
  ASSERT_EQ(grads.size(), 5u);
  for (unsigned i = 0; i < 4; ++i)
    expectGradient<KernelMvBackwardOp>(grads[i], op->getOperand(i));
  EXPECT_FALSE(grads[4]); // outs
  auto bwd = cast<KernelMvBackwardOp>(grads[0].getDefiningOp());
  EXPECT_EQ(bwd.getDout(), a[5]);
  EXPECT_EQ(bwd.getKernel(), KernelKind::matern32);
}

TEST_F(KernelMoEVjpTest, KernelMvNullCotangentIsZeros) {
  ValueRange a = args({f32({8, 3}), f32({16, 3}), f32({16, 5}), f32({}),
                       f32({8, 5})});
  auto op = KernelMvOp::create(builder, builder.getUnknownLoc(),
                               KernelKind::gaussian, a[0], a[1], a[2], a[3],
                               a[4]);
  SmallVector<Value> grads = vjp(op, {Value()});
  ASSERT_EQ(grads.size(), 5u);
  auto bwd = cast<KernelMvBackwardOp>(grads[0].getDefiningOp());
  EXPECT_TRUE(isa<tensor::SplatOp>(bwd.getDout().getDefiningOp()));
  EXPECT_EQ(bwd.getDout().getType(), op.getOut().getType());
}

TEST_F(KernelMoEVjpTest, KernelLseWithAndWithoutG) {
  for (bool withG : {true, false}) {
    ValueRange a = args({f32({2, 8, 3}), f32({2, 16, 3}), f32({}),
                         f32({2, 16}), f32({2, 8}), f32({2, 8})});
    auto op = KernelLseOp::create(builder, builder.getUnknownLoc(),
                                  KernelKind::laplacian, a[0], a[1], a[2],
                                  withG ? a[3] : Value(), a[4]);
    SmallVector<Value> grads = vjp(op, {a[5]});
    ASSERT_EQ(grads.size(), withG ? 5u : 4u);
    expectGradient<KernelLseBackwardOp>(grads[0], a[0]);
    expectGradient<KernelLseBackwardOp>(grads[1], a[1]);
    EXPECT_FALSE(grads[2]); // eps
    if (withG)
      expectGradient<KernelLseBackwardOp>(grads[3], a[3]);
    EXPECT_FALSE(grads.back()); // outs
    // The forward's result is the residual.
    auto bwd = cast<KernelLseBackwardOp>(grads[0].getDefiningOp());
    EXPECT_EQ(bwd.getOut(), op.getOut());
    EXPECT_EQ(bwd.getDg().getType(), f32({2, 16}));
  }
}

TEST_F(KernelMoEVjpTest, GroupedMatmul) {
  ValueRange a = args({f32({ShapedType::kDynamic, 32}), f32({4, 32, 64}),
                       ints({4}, 64), f32({ShapedType::kDynamic, 64}),
                       f32({ShapedType::kDynamic, 64})});
  auto op = GroupedMatmulOp::create(builder, builder.getUnknownLoc(), a[0],
                                    a[1], a[2], a[3]);
  SmallVector<Value> grads = vjp(op, {a[4]});
  ASSERT_EQ(grads.size(), 4u);
  expectGradient<GroupedMatmulBackwardOp>(grads[0], a[0]);
  expectGradient<GroupedMatmulBackwardOp>(grads[1], a[1]);
  EXPECT_FALSE(grads[2]); // group_sizes
  EXPECT_FALSE(grads[3]); // outs
}

TEST_F(KernelMoEVjpTest, GroupedSwiglu) {
  ValueRange a = args({f32({64, 32}), f32({4, 32, 48}), f32({4, 32, 48}),
                       ints({4}, 32), f32({64, 48}), f32({64, 48})});
  auto op = GroupedSwigluOp::create(builder, builder.getUnknownLoc(), a[0],
                                    a[1], a[2], a[3], a[4]);
  SmallVector<Value> grads = vjp(op, {a[5]});
  ASSERT_EQ(grads.size(), 5u);
  for (unsigned i = 0; i < 3; ++i)
    expectGradient<GroupedSwigluBackwardOp>(grads[i], a[i]);
  EXPECT_FALSE(grads[3]); // group_sizes
  EXPECT_FALSE(grads[4]); // outs
}

TEST_F(KernelMoEVjpTest, MoeCombine) {
  ValueRange a = args({f32({128, 16}), ints({128}, 32), f32({64, 2}),
                       f32({64, 16}), f32({64, 16})});
  auto op = MoeCombineOp::create(builder, builder.getUnknownLoc(), a[0], a[1],
                                 a[2], a[3]);
  SmallVector<Value> grads = vjp(op, {a[4]});
  ASSERT_EQ(grads.size(), 4u);
  expectGradient<MoeCombineBackwardOp>(grads[0], a[0]);
  EXPECT_FALSE(grads[1]); // permutation
  expectGradient<MoeCombineBackwardOp>(grads[2], a[2]);
  EXPECT_FALSE(grads[3]); // outs
}

} // namespace
