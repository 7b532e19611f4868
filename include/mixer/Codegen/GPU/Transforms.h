//===- Transforms.h - C++ API of the GPU code generation --------*- C++ -*-===//

#ifndef MIXER_CODEGEN_GPU_TRANSFORMS_H
#define MIXER_CODEGEN_GPU_TRANSFORMS_H

#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class RewriterBase;
namespace linalg {
class LinalgOp;
} // namespace linalg
namespace mixer {

/// How mixer-gpu-tensor-core-contractions emits a contraction.
struct TensorCoreOptions {
  /// 3xTF32 (three products, fp32 accuracy) or one tf32 product.
  bool splitTf32 = true;
  /// Largest warp tile (multiples of 16 and 8).
  int64_t warpTileM = 32, warpTileN = 32;
  /// A gpu.barrier before and after (off when the caller places its own).
  bool barriers = true;
};

/// Replaces `op`, run by every thread of a block, by warp-level
/// nvgpu.mma.sync code when it is an f32 matmul-shaped contraction on
/// buffers with tensor-core-sized static dimensions; fails and leaves it
/// untouched otherwise.
LogicalResult
rewriteContractionForTensorCores(RewriterBase &rewriter, linalg::LinalgOp op,
                                 const TensorCoreOptions &options);

} // namespace mixer
} // namespace mlir

#endif // MIXER_CODEGEN_GPU_TRANSFORMS_H
