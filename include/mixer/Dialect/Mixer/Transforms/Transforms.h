//===- Transforms.h - C++ API shared by mixer passes ------------*- C++ -*-===//

#ifndef MIXER_DIALECT_MIXER_TRANSFORMS_TRANSFORMS_H
#define MIXER_DIALECT_MIXER_TRANSFORMS_TRANSFORMS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir {
class RewriterBase;
class RewritePatternSet;
namespace mixer {

/// The tile sizes over `op`'s iteration domain that leave one unit of
/// independent work per tile (1 for batch and heads, `rowBlock` rows for
/// the kernel reductions and the MoE router, column blocks of up to 256 for
/// the grouped GEMMs and the MoE combine, 0 = untiled). Empty when `op` is
/// not tiled.
SmallVector<int64_t> parallelTileSizes(Operation *op, int64_t rowBlock);

/// Tiles `op` by `sizes` into an scf.forall and replaces it.
FailureOr<scf::ForallOp> tileParallelDims(RewriterBase &rewriter,
                                          TilingInterface op,
                                          ArrayRef<int64_t> sizes);

/// Register tiling and vectorization of the linalg ops under `root` (see
/// mixer-vectorize-cpu).
LogicalResult vectorizeForCpu(Operation *root, int64_t vectorWidth,
                              int64_t rowTile);

/// Patterns that rewrite composite mixer ops (mixer.sinkhorn) into loops of
/// the mixer ops they are made of (see mixer-decompose-composites).
void populateDecomposeCompositesPatterns(RewritePatternSet &patterns);

/// Patterns that replace math functions by polynomial approximations.
void populateApproximateMathPatterns(RewritePatternSet &patterns);

} // namespace mixer
} // namespace mlir

#endif // MIXER_DIALECT_MIXER_TRANSFORMS_TRANSFORMS_H
