//===- SetTarget.cpp - attach a CPU's description to the module -----------===//

#include "mixer/Target/CpuTarget.h"
#include "mixer/Target/GpuTarget.h"
#include "mixer/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERSETTARGETPASS
#define GEN_PASS_DEF_MIXERSETTHREADSPASS
#include "mixer/Target/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

namespace {
struct MixerSetTargetPass
    : public mixer::impl::MixerSetTargetPassBase<MixerSetTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    std::string error;
    // No CPU, features or chip: the module's own description (its
    // mixer.target, else the default target), for the overrides to change.
    bool ownTarget = cpu.empty() && features.empty() && chip.empty();
    FailureOr<TargetDescription> target =
        ownTarget      ? getTargetDescription(getOperation())
        : chip.empty() ? getCpuTargetDescription(cpu, features, error)
                       : getGpuTargetDescription(&getContext(), chip,
                                                 threadsPerBlock, error);
    if (failed(target)) {
      if (!ownTarget)
        getOperation().emitError() << "mixer-set-target: " << error;
      return signalPassFailure();
    }
    if (!overrides.empty())
      target = overrideTargetEntries(&getContext(), *target, overrides, [&] {
        return getOperation().emitError() << "mixer-set-target: ";
      });
    if (failed(target))
      return signalPassFailure();
    setTargetDescription(getOperation(), *target);
  }
};

struct MixerSetThreadsPass
    : public mixer::impl::MixerSetThreadsPassBase<MixerSetThreadsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (threads <= 0) {
      getOperation().emitError()
          << "mixer-set-threads: 'threads' must be positive, got "
          << threads.getValue();
      return signalPassFailure();
    }
    FailureOr<TargetDescription> target = getTargetDescription(getOperation());
    if (failed(target))
      return signalPassFailure();
    target->threads = threads;
    setTargetDescription(getOperation(), *target);
  }
};
} // namespace
