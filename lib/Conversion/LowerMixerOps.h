//===- LowerMixerOps.h - the driver of the mixer conversions ----*- C++ -*-===//
//
// convert-mixer-to-linalg and convert-mixer-to-loops lower every mixer op or
// fail: the mixer dialect is illegal in a partial conversion. An op that a
// conversion cannot lower (a size its algorithm needs static is dynamic, a
// composite op that mixer-decompose-composites expands) is reported on the
// op with the reason, "'mixer.ssd' op cannot be lowered: ...", before
// anything is rewritten; the patterns fail with the same reason.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_LOWERMIXEROPS_H
#define MIXER_LIB_CONVERSION_LOWERMIXEROPS_H

#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir {
class Operation;
class RewritePatternSet;
class Value;
namespace mixer {

/// Why a conversion cannot lower `op`, or std::nullopt when it can.
using LoweringBlocker =
    function_ref<std::optional<std::string>(Operation *op)>;

/// The reason that holds for every conversion: `op` is a composite op
/// (mixer.sinkhorn, mixer.kernel_mv_backward, mixer.kernel_lse_backward),
/// which mixer-decompose-composites expands first.
std::optional<std::string> getCompositeBlocker(Operation *op);

/// "the <what> (dim <dim> of '<operand>') must be static" when that size of
/// `value` is dynamic, "... must not be 0" when it is 0 (the blocked
/// lowerings slice it, and a slice of an empty dimension does not verify;
/// an op whose results are all empty is replaced by its outs before this).
std::optional<std::string> requireStaticDim(Value value, unsigned dim,
                                            StringRef what, StringRef operand);

/// Reports every mixer op under `root` that `blocker` rejects, then (when
/// none is) rewrites them all with `patterns` in a partial conversion in
/// which the mixer dialect is illegal, and folds the result.
LogicalResult lowerAllMixerOps(Operation *root, RewritePatternSet &&patterns,
                               LoweringBlocker blocker);

} // namespace mixer
} // namespace mlir

#endif // MIXER_LIB_CONVERSION_LOWERMIXEROPS_H
