//===- Transforms.h - C++ API shared by mixer passes ------------*- C++ -*-===//

#ifndef MIXER_DIALECT_MIXER_TRANSFORMS_TRANSFORMS_H
#define MIXER_DIALECT_MIXER_TRANSFORMS_TRANSFORMS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir {
class RewriterBase;
class RewritePatternSet;
namespace mixer {

/// Tiles `op` by `sizes` into an scf.forall and replaces it.
FailureOr<scf::ForallOp> tileParallelDims(RewriterBase &rewriter,
                                          TilingInterface op,
                                          ArrayRef<int64_t> sizes);

/// Patterns that rewrite composite mixer ops (mixer.sinkhorn) into loops of
/// the mixer ops they are made of (see mixer-decompose-composites).
void populateDecomposeCompositesPatterns(RewritePatternSet &patterns);

/// Patterns that rewrite the backward ops of ssd and linear_attention into
/// forward mixer.ssd scans and linalg ops (part of
/// populateDecomposeCompositesPatterns).
void populateDecomposeScanBackwardPatterns(RewritePatternSet &patterns);
/// Patterns that rewrite the composite backward ops (mixer.kernel_mv_backward,
/// mixer.kernel_lse_backward) into one row-blocked sum per gradient (part of
/// mixer-decompose-composites; DecomposeKernelBackward.cpp).
void populateDecomposeKernelBackwardPatterns(RewritePatternSet &patterns);

} // namespace mixer
} // namespace mlir

#endif // MIXER_DIALECT_MIXER_TRANSFORMS_TRANSFORMS_H
