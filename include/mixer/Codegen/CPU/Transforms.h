//===- Transforms.h - C++ API of the CPU code generation --------*- C++ -*-===//

#ifndef MIXER_CODEGEN_CPU_TRANSFORMS_H
#define MIXER_CODEGEN_CPU_TRANSFORMS_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class Operation;
class RewritePatternSet;
namespace mixer {
struct TargetDescription;

/// Register tiling and vectorization of the linalg ops under `root` for
/// `target`'s vector registers and L2 cache (see mixer-vectorize-cpu).
LogicalResult vectorizeForCpu(Operation *root, const TargetDescription &target);

/// Patterns that replace math functions by polynomial approximations.
void populateApproximateMathPatterns(RewritePatternSet &patterns);

/// Patterns that lower 8 x 8 f32 vector.transposes to 24 shuffles of rows
/// (AVX's unpack, in-lane and cross-lane shuffles).
void populateTransposeBlockPatterns(RewritePatternSet &patterns);

} // namespace mixer
} // namespace mlir

#endif // MIXER_CODEGEN_CPU_TRANSFORMS_H
