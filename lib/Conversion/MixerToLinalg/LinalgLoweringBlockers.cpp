//===- LinalgLoweringBlockers.cpp - what convert-mixer-to-linalg needs ----===//
//
// The blocked algorithms index their tiles with static sizes: the per-head
// and per-channel dims of the scans and the point and channel dims of the
// kernel sums must be static (batch, sequence and point counts may be
// dynamic).
//
//===----------------------------------------------------------------------===//

#include "MixerToLinalgPatterns.h"
#include "../LowerMixerOps.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {
/// One size that must be static: dim `dim` of `value`, named for the error.
struct StaticDim {
  Value value;
  unsigned dim;
  StringRef what, operand;
};
} // namespace

/// The first of `dims` that is dynamic, as a reason.
static std::optional<std::string> firstDynamic(ArrayRef<StaticDim> dims) {
  for (const StaticDim &d : dims)
    if (std::optional<std::string> reason =
            requireStaticDim(d.value, d.dim, d.what, d.operand))
      return reason;
  return std::nullopt;
}

std::optional<std::string>
mlir::mixer::getLinalgLoweringBlocker(Operation *op) {
  if (std::optional<std::string> reason = getCompositeBlocker(op))
    return reason;
  return llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
      .Case<SsdOp, SsdBackwardOp>([](auto ssd) -> std::optional<std::string> {
        // The chunked form carries the state transposed ([N, P]), for the
        // row-major contractions of the CPU.
        if (!lookupTargetDescription(ssd).transposedStates)
          return std::string("the target keeps states untransposed "
                             "(transposed_states = false), which the "
                             "chunked form does not support yet");
        return firstDynamic({{ssd.getX(), 2, "head count", "x"},
                             {ssd.getX(), 3, "head dim", "x"},
                             {ssd.getB(), 2, "group count", "b"},
                             {ssd.getB(), 3, "state dim", "b"}});
      })
      .Case<SelectiveScanOp, SelectiveScanBackwardOp>([](auto scan) {
        return firstDynamic({{scan.getU(), 2, "channel count", "u"},
                             {scan.getB(), 2, "group count", "b"},
                             {scan.getB(), 3, "state dim", "b"}});
      })
      .Case<LinearAttentionOp, GatedDeltaRuleOp, GatedDeltaRuleBackwardOp>(
          [](auto scan) {
        return firstDynamic({{scan.getQ(), 2, "head count", "q"},
                             {scan.getQ(), 3, "key dim", "q"},
                             {scan.getV(), 3, "value dim", "v"}});
      })
      .Case([](KernelLseOp lse) {
        unsigned pointDim = lse.isBatched() ? 2 : 1;
        return firstDynamic({{lse.getX(), pointDim, "point dim", "x"}});
      })
      .Case([](TransportCostOp cost) {
        unsigned pointDim = cost.isBatched() ? 2 : 1;
        return firstDynamic({{cost.getX(), pointDim, "point dim", "x"}});
      })
      .Case([](KernelMvOp mv) {
        unsigned pointDim = mv.isBatched() ? 2 : 1;
        return firstDynamic({{mv.getX(), pointDim, "point dim", "x"},
                             {mv.getV(), pointDim, "channel count", "v"}});
      })
      .Case([](KernelMvPointGradOp grad) {
        unsigned pointDim = grad.isBatched() ? 2 : 1;
        return firstDynamic({{grad.getX(), pointDim, "point dim", "x"},
                             {grad.getV(), pointDim, "channel count", "v"}});
      })
      .Case([](KernelLsePointGradOp grad) {
        unsigned pointDim = grad.isBatched() ? 2 : 1;
        return firstDynamic({{grad.getX(), pointDim, "point dim", "x"}});
      })
      .Default([](Operation *) { return std::nullopt; });
}
