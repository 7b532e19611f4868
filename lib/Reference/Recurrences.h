//===- Recurrences.h - State updates of the reference scans -----*- C++ -*-===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// Pieces of the per-token recurrences that the scans (Scans.cpp) run and
// their gradients replay (not part of the public API): written once, so that
// a gradient differentiates exactly the recurrence of the forward.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_REFERENCE_RECURRENCES_H
#define MIXER_LIB_REFERENCE_RECURRENCES_H

#include "mixer/Reference/Reference.h"

#include <vector>

namespace mixer::ref::detail {

/// The state of one (batch, head) pair: `size` values of `t` at `offset`,
/// or zeros when `t` is absent (no init, a zero cotangent).
inline std::vector<double> stateOrZeros(const Tensor *t, int64_t offset,
                                        int64_t size) {
  if (!t)
    return std::vector<double>(size, 0.0);
  return std::vector<double>(t->data.begin() + offset,
                             t->data.begin() + offset + size);
}

/// kS = S^T k for S [Dk, Dv]: what the key reads from the state.
inline void keyRead(const double *k, const double *S, int64_t Dk, int64_t Dv,
                    double *kS) {
  for (int64_t j = 0; j < Dv; ++j) {
    kS[j] = 0.0;
    for (int64_t a = 0; a < Dk; ++a)
      kS[j] += k[a] * S[a * Dv + j];
  }
}

/// One token of gated_delta_rule, S' = gate (S - beta k (k^T S)) + beta k
/// v^T with S [Dk, Dv], from `prev` into `next` (which may be `prev`).
/// (I - beta k k^T) S = S - beta k (k^T S): k^T S [Dv] is formed first, in
/// `kS`, so that the update stays O(Dk * Dv).
inline void gatedDeltaUpdate(const double *prev, double *next, const double *k,
                             const double *v, double gate, double beta,
                             int64_t Dk, int64_t Dv, double *kS) {
  keyRead(k, prev, Dk, Dv, kS);
  for (int64_t a = 0; a < Dk; ++a)
    for (int64_t j = 0; j < Dv; ++j)
      next[a * Dv + j] =
          gate * (prev[a * Dv + j] - beta * k[a] * kS[j]) + beta * k[a] * v[j];
}

} // namespace mixer::ref::detail

#endif // MIXER_LIB_REFERENCE_RECURRENCES_H
