//===- BuildReplacement.h - replace an op by what it builds ---*- C++ -*-===//
//
// Most lowerings and decompositions always apply: they build the op's
// results from its operands at its location and replace it. Such a rewrite
// is written as a function
//   SmallVector<Value> build(OpT op, ImplicitLocOpBuilder &b)
// and registered with addReplacementPatterns<build, ...>(patterns).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_UTILS_BUILDREPLACEMENT_H
#define MIXER_UTILS_BUILDREPLACEMENT_H

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer {

namespace detail {
/// The op type a build function replaces (declared only, for decltype).
template <typename OpT>
OpT builtOp(SmallVector<Value> (*)(OpT, ImplicitLocOpBuilder &));
} // namespace detail

/// Replaces `op` with the values `Build` makes at its location.
template <auto Build>
LogicalResult replaceWithBuilt(decltype(detail::builtOp(Build)) op,
                               PatternRewriter &rewriter) {
  ImplicitLocOpBuilder b(op.getLoc(), rewriter);
  rewriter.replaceOp(op, Build(op, b));
  return success();
}

/// Adds the pattern replaceWithBuilt<Build> of each build function.
template <auto... Builds>
void addReplacementPatterns(RewritePatternSet &patterns) {
  (patterns.add(replaceWithBuilt<Builds>), ...);
}

} // namespace mlir::mixer

#endif // MIXER_UTILS_BUILDREPLACEMENT_H
