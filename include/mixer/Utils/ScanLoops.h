//===- ScanLoops.h - loop scaffolding of the scan lowerings -----*- C++ -*-===//
//
// The linalg lowerings of the scans (ssd, gated_delta_rule,
// linear_attention, selective_scan) share one structure: a scf.for nest over
// (batch, head) -- channel blocks for selective_scan -- that threads the two
// `outs` tensors (output, final state) and, per head, scf.for loops over
// chunks and tokens that carry the output and the state.
// These helpers build that scaffolding; the callers supply the bodies.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_UTILS_SCANLOOPS_H
#define MIXER_UTILS_SCANLOOPS_H

#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::mixer {

/// Body of one (batch, head): builds at the insertion point of the builder
/// and returns the updated `outs` (one value per carried tensor).
using BatchHeadBody = function_ref<SmallVector<Value>(
    OpBuilder &b, Location loc, Value batch, Value head, ValueRange outs)>;

/// Builds `for batch in [0, batches): for head in [0, heads): outs =
/// body(batch, head, outs)` with `outs` as iter_args of both loops, and
/// returns the results of the outer loop.
SmallVector<Value> buildBatchHeadLoops(ImplicitLocOpBuilder &b, Value batches,
                                       Value heads, ValueRange outs,
                                       BatchHeadBody body);

/// Body of a loop carrying (output, state): receives a LinalgBuilder at the
/// insertion point inside the loop, the induction variable and the carried
/// values, and returns their updated values.
using OutStateBody = function_ref<std::pair<Value, Value>(
    LinalgBuilder &lb, Value iv, Value out, Value state)>;

/// Builds `for iv in [lower, upper) step 1` carrying (`out`, `state`), e.g.
/// the loop over the chunks or over the tokens of one head.
scf::ForOp buildOutStateLoop(ImplicitLocOpBuilder &b, Value lower, Value upper,
                             Value out, Value state, OutStateBody body);

} // namespace mlir::mixer

#endif // MIXER_UTILS_SCANLOOPS_H
