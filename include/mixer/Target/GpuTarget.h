//===- GpuTarget.h - the description of an NVIDIA GPU -----------*- C++ -*-===//
//
// The GPU instance of the target description: warps of 32 threads, a
// block's static shared memory (48 KiB on every supported chip) for the
// per-block temporaries, and the tiles of mixer-tile-parallel-dims sized so
// that one block handles one head or one row block.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TARGET_GPUTARGET_H
#define MIXER_TARGET_GPUTARGET_H

#include "mixer/Target/TargetDescription.h"

#include <string>

namespace mlir::mixer {

/// The chips the NVVM pipeline compiles for.
inline constexpr StringLiteral kGpuChips[] = {"sm_80", "sm_90", "sm_90a"};

/// The description of `chip` (sm_80, sm_90, sm_90a) with `threadsPerBlock`
/// threads per block (0: the default, 128). Fails with a message in `error`
/// for any other chip or a thread count that is not a multiple of the warp
/// size up to 1024.
/// `context` must have the gpu dialect loaded (for tempMemorySpace).
FailureOr<TargetDescription> getGpuTargetDescription(MLIRContext *context,
                                                     StringRef chip,
                                                     int64_t threadsPerBlock,
                                                     std::string &error);

} // namespace mlir::mixer

#endif // MIXER_TARGET_GPUTARGET_H
