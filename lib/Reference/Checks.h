//===- Checks.h - Argument checks of the fp64 reference ---------*- C++ -*-===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// Misuse checks shared by the reference implementation files (not part of the
// public API). Every failure prints "mixer::ref::<function>: <message>" to
// stderr and aborts: the project builds without exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_REFERENCE_CHECKS_H
#define MIXER_LIB_REFERENCE_CHECKS_H

#include "mixer/Reference/Reference.h"

#include <string>

namespace mixer::ref::detail {

/// Prints "mixer::ref::<function>: <message>" to stderr and aborts.
[[noreturn]] void fail(const char *function, const std::string &message);

/// "[2, 3, 4]".
std::string shapeToString(const std::vector<int64_t> &shape);

/// Aborts unless `t` has rank `rank`.
void checkRank(const char *function, const char *argument, const Tensor &t,
               int64_t rank);

/// Aborts unless `t` has exactly the shape `expected`.
void checkShape(const char *function, const char *argument, const Tensor &t,
                const std::vector<int64_t> &expected);

/// Aborts unless `condition` holds, with `message`.
inline void check(bool condition, const char *function,
                  const std::string &message) {
  if (!condition)
    fail(function, message);
}

/// The sizes of ssd's operands x [B, L, H, P], log_a [B, L, H], b and c
/// [B, L, G, N] and init [B, H, P, N], which ssd and its gradients check
/// alike.
struct SsdSizes {
  int64_t B, L, H, P, G, N;
};
SsdSizes checkSsdOperands(const char *function, const Tensor &x,
                          const Tensor &logA, const Tensor &b, const Tensor &c,
                          const Tensor *init);

/// Checks the q, k, v [B, L, H, Dk|Dv] and init [B, H, Dk, Dv] operands
/// shared by linear_attention, gated_delta_rule and their gradients.
void checkAttentionOperands(const char *function, const Tensor &q,
                            const Tensor &k, const Tensor &v,
                            const Tensor *init);

/// The sizes of a grouped product of the rows x [T, K] with the expert
/// weights w [E, K, N], which grouped_matmul, grouped_swiglu and their
/// gradients check alike, and the first row of each group (group_sizes: E
/// non-negative counts summing to at most T).
struct GroupedSizes {
  int64_t T, K, E, N;
  std::vector<int64_t> offsets;
};
GroupedSizes checkGroupedOperands(const char *function, const char *xName,
                                  const Tensor &x, const char *wName,
                                  const Tensor &w,
                                  const std::vector<int64_t> &groupSizes);

} // namespace mixer::ref::detail

#endif // MIXER_LIB_REFERENCE_CHECKS_H
