//===- MixerToLoopsPatterns.h - per-op patterns -----------------*- C++ -*-===//
//
// One populate function per op (or op family), each defined in its own
// <Op>ToLoops.cpp; populateMixerToLoopsPatterns adds them all.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLOOPS_MIXERTOLOOPSPATTERNS_H
#define MIXER_LIB_CONVERSION_MIXERTOLOOPS_MIXERTOLOOPSPATTERNS_H

namespace mlir {
class RewritePatternSet;
namespace mixer {

/// mixer.kernel_lse, mixer.kernel_mv and mixer.transport_cost -> dense
/// double loops (KernelToLoops.cpp).
void populateKernelToLoopsPatterns(RewritePatternSet &patterns);
/// mixer.kernel_lse_point_grad and mixer.kernel_mv_point_grad (what the
/// kernel backward ops and sinkhorn_backward decompose into) -> dense
/// double loops (KernelBackwardToLoops.cpp).
void populateKernelBackwardToLoopsPatterns(RewritePatternSet &patterns);

/// mixer.ssd -> the token-by-token recurrence (SsdToLoops.cpp).
void populateSsdToLoopsPatterns(RewritePatternSet &patterns);
/// mixer.linear_attention -> the recurrence (LinearAttentionToLoops.cpp).
void populateLinearAttentionToLoopsPatterns(RewritePatternSet &patterns);
/// mixer.selective_scan -> the recurrence (SelectiveScanToLoops.cpp).
void populateSelectiveScanToLoopsPatterns(RewritePatternSet &patterns);
/// mixer.gated_delta_rule -> the recurrence (GatedDeltaRuleToLoops.cpp).
void populateGatedDeltaRuleToLoopsPatterns(RewritePatternSet &patterns);

/// The MoE ops -> their row-by-row definitions (MoEToLoops.cpp).
void populateMoEToLoopsPatterns(RewritePatternSet &patterns);

} // namespace mixer
} // namespace mlir

#endif // MIXER_LIB_CONVERSION_MIXERTOLOOPS_MIXERTOLOOPSPATTERNS_H
