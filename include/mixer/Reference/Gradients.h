//===- Gradients.h - fp64 reference gradients of the mixer ops --*- C++ -*-===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// The vector-Jacobian product of each differentiable op, in double, written
// from the op's recurrence (backpropagation through it, token by token) and
// sharing no code with the compiler: the oracle of the compiled backward ops.
// A null cotangent is zero. Misuse aborts with a message, as in Reference.h.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_REFERENCE_GRADIENTS_H
#define MIXER_REFERENCE_GRADIENTS_H

#include "mixer/Reference/Reference.h"

namespace mixer::ref {

//===----------------------------------------------------------------------===//
// ssd and linear_attention
//===----------------------------------------------------------------------===//

/// The gradients of ssd, each of the shape of its input; dinit has shape
/// {0} when there is no init.
struct SsdGradients {
  Tensor dx, dlogA, db, dc, dinit;
};

/// The gradients of ssd(x, logA, b, c, init) (see ref::ssd) for the output
/// cotangents dy [B,L,H,P] and dFinalState [B,H,P,N] (null: zero).
SsdGradients ssdGradients(const Tensor &x, const Tensor &logA, const Tensor &b,
                          const Tensor &c, const Tensor *init,
                          const Tensor *dy, const Tensor *dFinalState);

/// The gradients of linearAttention; dlogDecay has shape {0} without a
/// logDecay, dinit without an init.
struct LinearAttentionGradients {
  Tensor dq, dk, dv, dlogDecay, dinit;
};

/// The gradients of linearAttention(q, k, v, logDecay, init, window, scale)
/// for the cotangents dout [B,L,H,Dv] and dFinalState [B,H,Dk,Dv] (null:
/// zero).
LinearAttentionGradients
linearAttentionGradients(const Tensor &q, const Tensor &k, const Tensor &v,
                         const Tensor *logDecay, const Tensor *init,
                         int64_t window, double scale, const Tensor *dout,
                         const Tensor *dFinalState);

} // namespace mixer::ref

#endif // MIXER_REFERENCE_GRADIENTS_H
