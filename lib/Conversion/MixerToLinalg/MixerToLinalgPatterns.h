//===- MixerToLinalgPatterns.h - per-op patterns of the conversion -*- C++ -*-===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_MIXERTOLINALGPATTERNS_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_MIXERTOLINALGPATTERNS_H

#include <cstdint>

namespace mlir {
class RewritePatternSet;
namespace mixer {

/// mixer.kernel_lse and mixer.kernel_mv -> blocked kernel sums
/// (KernelToLinalg.cpp).
void populateKernelToLinalgPatterns(RewritePatternSet &patterns);

void populateSsdToLinalgPatterns(RewritePatternSet &patterns,
                                 int64_t recurrentThreshold);
/// mixer.linear_attention -> chunked linear attention (window as a shift).
void populateLinearAttentionToLinalgPatterns(RewritePatternSet &patterns,
                                             int64_t recurrentThreshold);
/// mixer.selective_scan -> token blocks over channel blocks.
void populateSelectiveScanToLinalgPatterns(RewritePatternSet &patterns);
/// mixer.gated_delta_rule -> the recurrent form, two state passes per token.
void populateGatedDeltaRuleToLinalgPatterns(RewritePatternSet &patterns,
                                            int64_t recurrentThreshold);

/// The MoE ops: grouped GEMMs in static row slabs, row-wise dispatch and
/// combine, the router's scalar loops (MoEToLinalg.cpp).
void populateMoEToLinalgPatterns(RewritePatternSet &patterns);

} // namespace mixer
} // namespace mlir

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_MIXERTOLINALGPATTERNS_H
