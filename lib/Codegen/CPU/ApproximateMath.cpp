//===- ApproximateMath.cpp - vectorizable polynomial math -----------------===//
//
// The polynomials of MLIR's math dialect, and before them two of our own
// for f32 exp. Both are math's exp (the same range reduction, polynomial
// and coefficients) with n = round(x log2(e)) and 2^n from one FMA:
// x log2(e) + 1.5 * 2^23 + 127 rounds x log2(e) to an integer in the low
// bits of its result, which then hold n + 127, the exponent field of 2^n
// (shifted into place), while subtracting the constant gives n as a float
// for the range reduction; no floor, no float-to-int conversion.
//   - For the exps the lowerings know to be of values <= 0 (LinalgBuilder's
//     and KernelMath's expOfNonPositive: exp(min(v, 0))), which are most of
//     them (the decays of the chunked scans, the kernel sums' exps, the
//     log-sum-exp terms), without what x <= 0 makes redundant: the upper
//     clamp of x and both clamps of n (with x clamped to [-87.8, 0], n
//     lies in [-127, 0]). 15 vector instructions instead of 20, and four
//     constants fewer to keep in registers (AVX2 has 16).
//   - For any x (the selective scan's exp(delta A), whose signs the op
//     leaves free): x clamped to [-87.8, 88.8] and n to at most 127, as
//     math's, by two selects and one on the FMA's result: 17 instead of 20.
// exp(0) is exactly 1; below -87.8 (and for -inf) the result is 0, as with
// math's polynomial; above 88.72 (and for +inf) inf; NaN stays NaN.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Codegen/CPU/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERAPPROXIMATEMATHPASS
#include "mixer/Codegen/CPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

namespace {
/// Whether `x` is min(v, c) for a constant c <= 0 (a splat for vectors).
bool isMinWithNonPositive(Value x) {
  Operation *min = x.getDefiningOp();
  if (!isa_and_present<arith::MinimumFOp, arith::MinNumFOp>(min))
    return false;
  return llvm::any_of(min->getOperands(), [](Value operand) {
    Attribute attr;
    if (!matchPattern(operand, m_Constant(&attr)))
      return false;
    if (auto splat = dyn_cast<SplatElementsAttr>(attr))
      attr = splat.getSplatValue<Attribute>();
    auto value = dyn_cast<FloatAttr>(attr);
    return value && value.getValueAsDouble() <= 0.0;
  });
}

/// exp(x) of f32 x: see the file comment. `nonPositive`: only of
/// x = min(v, c <= 0), without the upper clamps.
struct ExpApproximation : OpRewritePattern<math::ExpOp> {
  // Ahead of math's own exp pattern, the non-positive form first.
  ExpApproximation(MLIRContext *context, bool nonPositive)
      : OpRewritePattern(context, /*benefit=*/nonPositive ? 3 : 2),
        nonPositive(nonPositive) {}

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not an f32 exp");
    if (nonPositive && !isMinWithNonPositive(op.getOperand()))
      return rewriter.notifyMatchFailure(op,
                                         "not an f32 exp of min(v, c <= 0)");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    // Scalars, or splats of the vector shape of `type`.
    auto shaped = [&](Type element) -> Type {
      if (auto vector = dyn_cast<VectorType>(type))
        return vector.clone(element);
      return element;
    };
    auto constant = [&](TypedAttr scalar) -> Value {
      Type of = shaped(scalar.getType());
      if (auto vector = dyn_cast<VectorType>(of))
        return arith::ConstantOp::create(
            b, DenseElementsAttr::get(vector, ArrayRef<Attribute>(scalar)));
      return arith::ConstantOp::create(b, scalar);
    };
    auto f32 = [&](float value) { return constant(b.getF32FloatAttr(value)); };
    auto fma = [&](Value x, Value y, Value z) -> Value {
      return math::FmaOp::create(b, x, y, z);
    };
    // Clamps as selects on unordered predicates, so that NaN passes
    // through: x = max(x, -87.8), and for any x min(x, 88.8).
    auto clamp = [&](arith::CmpFPredicate keep, Value v, Value bound) {
      return arith::SelectOp::create(
                 b, arith::CmpFOp::create(b, keep, v, bound), v, bound)
          .getResult();
    };
    Value x = op.getOperand();
    if (!nonPositive)
      x = clamp(arith::CmpFPredicate::ULE, x, f32(88.8f));
    x = clamp(arith::CmpFPredicate::UGE, x, f32(-87.8f));
    // t = x log2(e) + 1.5 * 2^23 + 127, rounded to an integer by the FMA;
    // n = t - (1.5 * 2^23 + 127): in [-127, 0] for x <= 0; for any x in
    // [-127, 128], clamped to at most 127 as math's clamps it (above 88.38
    // the polynomial then takes r up to 0.77; from 88.72 on the result
    // overflows to inf).
    Value shifter = f32(12582912.0f + 127.0f);
    Value t = fma(x, f32(1.44269504f), shifter);
    if (!nonPositive)
      t = clamp(arith::CmpFPredicate::ULE, t, f32(12582912.0f + 254.0f));
    Value n = arith::SubFOp::create(b, t, shifter);
    // r = x - n ln(2) in two parts, |r| <= ln(2) / 2.
    Value r = fma(f32(-0.693359375f), n, x);
    r = fma(f32(2.12194440e-4f), n, r);
    // exp(r) = 1 + r + r^2 p(r).
    Value p = fma(r, f32(1.9875691500e-4f), f32(1.3981999507e-3f));
    p = fma(p, r, f32(8.3334519073e-3f));
    p = fma(p, r, f32(4.1665795894e-2f));
    p = fma(p, r, f32(1.6666665459e-1f));
    p = fma(p, r, f32(0.5f));
    Value expR = arith::AddFOp::create(
        b, fma(p, arith::MulFOp::create(b, r, r), r), f32(1.0f));
    // 2^n: the low bits of t, n + 127, moved into the exponent field.
    Value bits = arith::BitcastOp::create(b, shaped(b.getI32Type()), t);
    Value mantissaBits = constant(b.getI32IntegerAttr(23));
    Value twoToN = arith::BitcastOp::create(
        b, type, arith::ShLIOp::create(b, bits, mantissaBits));
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, expR, twoToN);
    return success();
  }

private:
  bool nonPositive;
};
} // namespace

void mlir::mixer::populateApproximateMathPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpApproximation>(patterns.getContext(), /*nonPositive=*/true);
  patterns.add<ExpApproximation>(patterns.getContext(), /*nonPositive=*/false);
  // Approximate on f32 (after widening f16/bf16) every function that has a
  // polynomial; libm calls would scalarize the vector loops.
  auto all = [](StringRef) { return true; };
  populateMathF32ExpansionPatterns(patterns, all);
  populateMathPolynomialApproximationPatterns(patterns, all);
}

namespace {
struct MixerApproximateMathPass
    : public mixer::impl::MixerApproximateMathPassBase<
          MixerApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    mixer::populateApproximateMathPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
