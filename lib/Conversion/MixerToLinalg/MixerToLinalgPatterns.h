//===- MixerToLinalgPatterns.h - per-op patterns of the conversion -*- C++ -*-===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_MIXERTOLINALGPATTERNS_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_MIXERTOLINALGPATTERNS_H

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
class Operation;
class RewritePatternSet;
namespace mixer {

/// Why convert-mixer-to-linalg cannot lower `op` (a size its blocked
/// algorithm needs static is dynamic; a composite op), or std::nullopt.
/// The patterns fail with this reason and the pass reports it on the op
/// (LinalgLoweringBlockers.cpp).
std::optional<std::string> getLinalgLoweringBlocker(Operation *op);

/// mixer.kernel_lse, mixer.kernel_mv and mixer.transport_cost -> blocked
/// kernel sums (KernelToLinalg.cpp).
void populateKernelToLinalgPatterns(RewritePatternSet &patterns);

void populateSsdToLinalgPatterns(RewritePatternSet &patterns,
                                 int64_t recurrentThreshold);
/// mixer.ssd_backward -> a reverse scan over the chunks of the forward.
void populateSsdBackwardToLinalgPatterns(RewritePatternSet &patterns);
/// mixer.linear_attention -> chunked linear attention (window as a shift).
void populateLinearAttentionToLinalgPatterns(RewritePatternSet &patterns,
                                             int64_t recurrentThreshold);
/// mixer.selective_scan -> token blocks over channel blocks.
void populateSelectiveScanToLinalgPatterns(RewritePatternSet &patterns);
/// mixer.selective_scan_backward -> a reverse scan over token chunks.
void populateSelectiveScanBackwardToLinalgPatterns(RewritePatternSet &patterns);
/// mixer.gated_delta_rule -> the recurrent form, two state passes per token.
void populateGatedDeltaRuleToLinalgPatterns(RewritePatternSet &patterns,
                                            int64_t recurrentThreshold);
/// mixer.gated_delta_rule_backward -> a reverse scan over token chunks.
void populateGatedDeltaRuleBackwardToLinalgPatterns(
    RewritePatternSet &patterns);

/// The MoE ops: grouped GEMMs in static row slabs, row-wise dispatch and
/// combine, the router vectorized across tokens or else its scalar loops
/// (MoEToLinalg.cpp).
void populateMoEToLinalgPatterns(RewritePatternSet &patterns);
/// mixer.topk_router on CPUs, vectorized across tokens: one vector op per
/// comparison for a vector of tokens (TopkRouterToVector.cpp). Preferred to
/// the scalar loops where it applies (static E, small E * k).
void populateTopkRouterToVectorPatterns(RewritePatternSet &patterns);
/// The MoE backward ops in the forward's group slabs
/// (MoEBackwardToLinalg.cpp).
void populateMoEBackwardToLinalgPatterns(RewritePatternSet &patterns);
/// The point gradients of the kernel sums, blocked like the forward sums
/// (KernelBackwardToLinalg.cpp).
void populateKernelBackwardToLinalgPatterns(RewritePatternSet &patterns);

} // namespace mixer
} // namespace mlir

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_MIXERTOLINALGPATTERNS_H
