//===- Transforms.h - C++ API shared by mixer passes ------------*- C++ -*-===//

#ifndef MIXER_DIALECT_MIXER_TRANSFORMS_TRANSFORMS_H
#define MIXER_DIALECT_MIXER_TRANSFORMS_TRANSFORMS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir {
class ImplicitLocOpBuilder;
class OpBuilder;
class RewriterBase;
namespace linalg {
class GenericOp;
} // namespace linalg
class RewritePatternSet;
namespace mixer {

/// Tiles `op` by `sizes` into an scf.forall and replaces it.
FailureOr<scf::ForallOp> tileParallelDims(RewriterBase &rewriter,
                                          TilingInterface op,
                                          ArrayRef<int64_t> sizes);

/// Patterns that rewrite composite mixer ops (mixer.sinkhorn) into loops of
/// the mixer ops they are made of (see mixer-decompose-composites); with
/// `ssdBackwardToScans`, mixer.ssd_backward into forward scans too.
void populateDecomposeCompositesPatterns(RewritePatternSet &patterns,
                                         bool ssdBackwardToScans = false);

/// The vector-Jacobian product of a linalg.generic whose maps are projected
/// permutations and whose reduction loops only accumulate (`out + e`),
/// built at the builder's insertion point by differentiating its scalar
/// body (see mixer-generate-vjp). `cotangents` holds one value per result
/// (null: zero). Returns one value per operand (null: none), or fails with
/// an error naming what it cannot differentiate.
FailureOr<SmallVector<Value>> buildGenericVjp(OpBuilder &builder,
                                              linalg::GenericOp op,
                                              ArrayRef<Value> cotangents);

/// The vector-Jacobian product of a routing op, mixer.moe_dispatch (with
/// respect to x, as a moe_combine with unit weights) or mixer.topk_router
/// (its weights with respect to the logits), built with other ops.
/// `cotangents` holds one value per result (null: zero); returns one value
/// per operand (null: none). Fails for other ops.
FailureOr<SmallVector<Value>> buildRoutingVjp(ImplicitLocOpBuilder &b,
                                              Operation *op,
                                              ArrayRef<Value> cotangents);

/// Patterns that rewrite mixer.linear_attention_backward into a
/// mixer.ssd_backward and linalg ops and, with `ssdBackwardToScans`,
/// mixer.ssd_backward into forward mixer.ssd scans and linalg ops (part of
/// populateDecomposeCompositesPatterns).
void populateDecomposeScanBackwardPatterns(RewritePatternSet &patterns,
                                           bool ssdBackwardToScans);

/// Patterns that rewrite the composite backward ops (mixer.kernel_mv_backward,
/// mixer.kernel_lse_backward) into one row-blocked sum per gradient (part of
/// mixer-decompose-composites; DecomposeKernelBackward.cpp).
void populateDecomposeKernelBackwardPatterns(RewritePatternSet &patterns);

/// The pattern that rewrites mixer.sinkhorn_backward into two point-gradient
/// sums and elementwise ops (part of mixer-decompose-composites;
/// DecomposeSinkhornBackward.cpp).
void populateDecomposeSinkhornBackwardPatterns(RewritePatternSet &patterns);

} // namespace mixer
} // namespace mlir

#endif // MIXER_DIALECT_MIXER_TRANSFORMS_TRANSFORMS_H
