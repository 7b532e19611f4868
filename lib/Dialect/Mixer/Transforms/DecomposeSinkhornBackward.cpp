//===- DecomposeSinkhornBackward.cpp - sinkhorn_backward to point sums ----===//
//
// The envelope-theorem gradients of mixer.sinkhorn are sums of the plan
// P_ij = exp((f_i + g_j - C_ij) / eps + log_a_i + log_b_j) over one point
// set, which mixer.kernel_lse_point_grad computes block by block. With
// s = d_cost and b = exp(log_b):
//
//   dx     = -eps s   kernel_lse_point_grad(x, y; f/eps + log_a, g/eps, w = b).grad
//   dy     = -eps s b kernel_lse_point_grad(y, x; g/eps, f/eps + log_a, w = 1).grad
//   dlog_a = s exp(log_a) f,   dlog_b = s b g
//
// log_b stays out of the exponents: g being the forward's last update,
// sum_i exp((f_i + g_j - C_ij) / eps + log_a_i) = 1 for every j, so every
// exponent is <= 0 (the point sums clamp only rounding) whatever the scale
// of the weights. The potentials' cotangents df and dg are not read: the
// run-time checks require them to be zero.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"
#include "mixer/Utils/BuildReplacement.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

static SmallVector<Value> decomposeSinkhornBackward(SinkhornBackwardOp op,
                                                    ImplicitLocOpBuilder &b) {
  LinalgBuilder lb(b);
  Type f32 = b.getF32Type();
  KernelKind kind = op.getCost();
  Value x = op.getX(), y = op.getY(), logA = op.getLogA(), logB = op.getLogB(),
        epsT = op.getEps(), f = op.getF(), g = op.getG();
  ValueRange outs = op.getOuts();

  Value eps = tensor::ExtractOp::create(b, epsT, ValueRange{});
  Value s = tensor::ExtractOp::create(b, op.getDCost(), ValueRange{});
  Value invEps = arith::DivFOp::create(
      b, arith::ConstantOp::create(b, b.getF32FloatAttr(1.0)), eps);
  // The point sums carry -1/eps; the gradients are -eps s times them.
  Value gradScale = arith::MulFOp::create(b, arith::NegFOp::create(b, eps), s);

  AffineMap id = lb.dims(1, {0});
  AffineMap rowOfPoint = lb.dims(2, {0});
  AffineMap pointId = lb.dims(2, {0, 1});
  SmallVector<OpFoldResult> rows = lb.sizesOf(f), cols = lb.sizesOf(g);

  // f / eps + log_a and g / eps.
  Value rowShift = lb.map(
      {f, logA}, {id, id}, lb.empty(rows, f32),
      [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::AddFOp::create(
                   ib, arith::MulFOp::create(ib, args[0], invEps), args[1])
            .getResult();
      });
  Value colShift =
      lb.map({g}, {id}, lb.empty(cols, f32),
             [&](ImplicitLocOpBuilder &ib, ValueRange args) {
               return arith::MulFOp::create(ib, args[0], invEps).getResult();
             });
  Value weightB = lb.map({logB}, {id}, lb.empty(cols, f32),
                         [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                           return math::ExpOp::create(ib, args[0]).getResult();
                         });

  auto overX = KernelLsePointGradOp::create(
      b, kind, x, y, epsT, rowShift, colShift, weightB,
      lb.empty(lb.sizesOf(x), f32), lb.empty(rows, f32));
  Value dx =
      lb.map({overX.getGrad()}, {pointId}, outs[0],
             [&](ImplicitLocOpBuilder &ib, ValueRange args) {
               return arith::MulFOp::create(ib, args[0], gradScale).getResult();
             });

  auto overY = KernelLsePointGradOp::create(
      b, kind, y, x, epsT, colShift, rowShift, lb.filled(rows, f32, 1.0),
      lb.empty(lb.sizesOf(y), f32), lb.empty(cols, f32));
  Value dy =
      lb.map({overY.getGrad(), weightB}, {pointId, rowOfPoint}, outs[1],
             [&](ImplicitLocOpBuilder &ib, ValueRange args) {
               Value scale = arith::MulFOp::create(ib, args[1], gradScale);
               return arith::MulFOp::create(ib, args[0], scale).getResult();
             });

  // d/dlog_a_i <a, f> = a_i f_i (the envelope theorem: f held fixed).
  Value dlogA =
      lb.map({logA, f}, {id, id}, outs[2],
             [&](ImplicitLocOpBuilder &ib, ValueRange args) {
               Value weighted = arith::MulFOp::create(
                   ib, math::ExpOp::create(ib, args[0]), args[1]);
               return arith::MulFOp::create(ib, weighted, s).getResult();
             });
  Value dlogB =
      lb.map({weightB, g}, {id, id}, outs[3],
             [&](ImplicitLocOpBuilder &ib, ValueRange args) {
               Value weighted = arith::MulFOp::create(ib, args[0], args[1]);
               return arith::MulFOp::create(ib, weighted, s).getResult();
             });
  return {dx, dy, dlogA, dlogB};
}

void mlir::mixer::populateDecomposeSinkhornBackwardPatterns(
    RewritePatternSet &patterns) {
  addReplacementPatterns<decomposeSinkhornBackward>(patterns);
}
