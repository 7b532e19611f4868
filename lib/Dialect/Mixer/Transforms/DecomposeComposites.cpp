//===- DecomposeComposites.cpp - composite mixer ops to their parts -------===//
//
// mixer.sinkhorn becomes an scf.for over its iterations of two
// mixer.kernel_lse ops (which the pipeline then tiles and lowers) and
// elementwise linalg ops, with g starting at 0:
//
//   f = -eps * kernel_lse(x, y, g / eps + log_b)
//   g = -eps * kernel_lse(y, x, f / eps + log_a)
//
// carried as the log-sums L_f, L_g themselves (f = -eps L_f, g / eps =
// -L_g), scaled by -eps once after the loop.
//
// then the transport cost from the final potentials, the sum of the rows
// of a mixer.transport_cost (tiled and lowered like kernel_lse, the N x M
// plan never formed):
//
//   cost = sum_i sum_j P_ij C_ij,
//   P_ij = exp(log_u_i + log_v_j - C_ij / eps),
//   log_u = f / eps + log_a,  log_v = g / eps + log_b.
//
// All three costs are symmetric, so the g update is the f update with x
// and y exchanged. The `outs` tensors of the op carry f and g.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"
#include "mixer/Utils/BuildReplacement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERDECOMPOSECOMPOSITESPASS
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

namespace {

/// A parallel 1-D linalg.generic over `init` (identity maps everywhere) with
/// `body` mapping the input scalars and the init scalar (last) to the result.
Value map1d(ImplicitLocOpBuilder &b, ValueRange inputs, Value init,
            function_ref<Value(ImplicitLocOpBuilder &, ValueRange)> body) {
  AffineMap id = b.getDimIdentityMap();
  SmallVector<AffineMap> maps(inputs.size() + 1, id);
  return linalg::GenericOp::create(
             b, init.getType(), inputs, ValueRange{init}, maps,
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
             [&](OpBuilder &nb, Location loc, ValueRange args) {
               ImplicitLocOpBuilder ib(loc, nb);
               linalg::YieldOp::create(ib, body(ib, args));
             })
      .getResult(0);
}

static SmallVector<Value> decomposeSinkhorn(SinkhornOp op,
                                            ImplicitLocOpBuilder &b) {
  Type f32 = b.getF32Type();
  KernelKind kind = op.getCost();
  Value x = op.getX(), y = op.getY(), logA = op.getLogA(), logB = op.getLogB(),
        epsT = op.getEps();
  Value fOut = op.getOuts()[0], gOut = op.getOuts()[1],
        costOut = op.getOuts()[2];

  Value eps = tensor::ExtractOp::create(b, epsT, ValueRange{});
  Value negEps = arith::NegFOp::create(b, eps);
  Value zero = arith::ConstantOp::create(b, b.getF32FloatAttr(0.0));
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);

  // The loop carries the log-sums L (f = -eps L_f, g = -eps L_g), each
  // written in place by its kernel_lse into the `outs` tensor of f or g:
  // the weights of the next half step are then w = -L + log_w (= p / eps
  // + log_w) and no elementwise update of the loop-carried state is left
  // for canonicalization to move out of place.
  auto weights = [&](ImplicitLocOpBuilder &ib, Value lse, Value logW) {
    Value empty = tensor::EmptyOp::create(
        ib, tensor::getMixedSizes(ib, ib.getLoc(), lse), f32);
    return map1d(
        ib, {lse, logW}, empty, [&](ImplicitLocOpBuilder &mb, ValueRange args) {
          return arith::SubFOp::create(mb, args[1], args[0]).getResult();
        });
  };
  auto potential = [&](ImplicitLocOpBuilder &ib, Value lse) {
    return map1d(ib, {}, lse, [&](ImplicitLocOpBuilder &mb, ValueRange args) {
      return arith::MulFOp::create(mb, negEps, args[0]).getResult();
    });
  };

  // g = 0 at the start: L_g = 0.
  Value lg0 = linalg::FillOp::create(b, zero, gOut).getResult(0);
  Value iterations = arith::ConstantIndexOp::create(b, op.getIterations());
  auto loop = scf::ForOp::create(
      b, c0, iterations, c1, ValueRange{fOut, lg0},
      [&](OpBuilder &nb, Location loc, Value, ValueRange lfg) {
        ImplicitLocOpBuilder ib(loc, nb);
        Value lf = KernelLseOp::create(ib, kind, x, y, epsT,
                                       weights(ib, lfg[1], logB), lfg[0])
                       .getResult();
        Value lg = KernelLseOp::create(ib, kind, y, x, epsT,
                                       weights(ib, lf, logA), lfg[1])
                       .getResult();
        scf::YieldOp::create(ib, ValueRange{lf, lg});
      });
  Value f = potential(b, loop.getResult(0));
  Value g = potential(b, loop.getResult(1));

  // Per-row transport costs of the plan P = exp(log_u + log_v - C / eps)
  // with log_u = f / eps + log_a and log_v = g / eps + log_b.
  Value invEps = arith::DivFOp::create(
      b, arith::ConstantOp::create(b, b.getF32FloatAttr(1.0)), eps);
  auto logScaling = [&](Value p, Value logW) {
    Value empty = tensor::EmptyOp::create(
        b, tensor::getMixedSizes(b, b.getLoc(), p), f32);
    return map1d(
        b, {p, logW}, empty, [&](ImplicitLocOpBuilder &mb, ValueRange args) {
          return arith::AddFOp::create(
                     mb, arith::MulFOp::create(mb, args[0], invEps), args[1])
              .getResult();
        });
  };
  Value rowCostInit = tensor::EmptyOp::create(
      b, tensor::getMixedSizes(b, b.getLoc(), logA), f32);
  Value rowCostValues =
      TransportCostOp::create(b, kind, x, y, logScaling(f, logA),
                              logScaling(g, logB), epsT, rowCostInit)
          .getResult();

  // cost = sum_i rowCosts[i].
  Value costInit = linalg::FillOp::create(b, zero, costOut).getResult(0);
  MLIRContext *ctx = b.getContext();
  Value cost =
      linalg::GenericOp::create(
          b, costInit.getType(), ValueRange{rowCostValues},
          ValueRange{costInit},
          ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(1, ctx),
                              AffineMap::get(1, 0, {}, ctx)},
          ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
          [](OpBuilder &nb, Location loc, ValueRange args) {
            linalg::YieldOp::create(
                nb, loc,
                arith::AddFOp::create(nb, loc, args[1], args[0]).getResult());
          })
          .getResult(0);
  return {f, g, cost};
}

} // namespace

void mlir::mixer::populateDecomposeCompositesPatterns(
    RewritePatternSet &patterns, bool ssdBackwardToScans) {
  addReplacementPatterns<decomposeSinkhorn>(patterns);
  populateDecomposeScanBackwardPatterns(patterns, ssdBackwardToScans);
  populateDecomposeKernelBackwardPatterns(patterns);
  populateDecomposeSinkhornBackwardPatterns(patterns);
}

namespace {
struct MixerDecomposeCompositesPass
    : public mixer::impl::MixerDecomposeCompositesPassBase<
          MixerDecomposeCompositesPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDecomposeCompositesPatterns(patterns, ssdBackwardToScans);
    // The run-time checks' scf.if yields every result of the op it guards:
    // its unread results go, so that a scan's unread chunk_states is seen.
    scf::IfOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
