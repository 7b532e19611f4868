//===- KernelMoEGradients.h - fp64 gradients of the kernel and MoE ops -*- C++ -*-===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// The vector-Jacobian products of the kernel sums and the MoE ops, in fp64,
// written from the op definitions (dense double sums over every pair, plain
// loops over the groups): given a cotangent of each result, the gradient of
// every array input. Like the forward reference, they share no code with
// the compiler; the unit tests check them by central finite differences of
// the forward reference.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_REFERENCE_KERNELMOEGRADIENTS_H
#define MIXER_REFERENCE_KERNELMOEGRADIENTS_H

#include "mixer/Reference/Reference.h"

namespace mixer::ref {

/// Gradients of kernelMv: dx [(Bt,)N,D], dy [(Bt,)M,D], dv [(Bt,)M,C] and
/// the bandwidth's dh (0 for the linear kernel).
struct KernelMvGradients {
  Tensor dx, dy, dv;
  double dBandwidth = 0.0;
};
/// With out_i = sum_j k(x_i, y_j) v_j and the cotangent dout [(Bt,)N,C]:
///   dx_i = sum_j <dout_i, v_j> grad_x k(x_i, y_j)
///   dy_j = sum_i <dout_i, v_j> grad_y k(x_i, y_j)
///   dv_j = sum_i k(x_i, y_j) dout_i
///   dh   = sum_ij <dout_i, v_j> dk(x_i, y_j)/dh
/// The laplacian's gradient at coincident points is taken as 0.
KernelMvGradients kernelMvBackward(Kernel kind, const Tensor &x,
                                   const Tensor &y, const Tensor &v,
                                   double bandwidth, const Tensor &dout);

/// Gradients of kernelLse: dx, dy and dg (eps gets none).
struct KernelLseGradients {
  Tensor dx, dy, dg;
};
/// With out_i = log sum_j exp(s_ij), s_ij = -c(x_i, y_j)/eps + g_j, the
/// softmax P_ij = exp(s_ij - out_i) and the cotangent dout [(Bt,)N]:
///   dx_i = -(dout_i / eps) sum_j P_ij grad_x c(x_i, y_j)
///   dy_j = -(1 / eps) sum_i dout_i P_ij grad_y c(x_i, y_j)
///   dg_j = sum_i dout_i P_ij
/// g null means g = 0 (dg is still returned).
KernelLseGradients kernelLseBackward(Kernel kind, const Tensor &x,
                                     const Tensor &y, const Tensor *g,
                                     double eps, const Tensor &dout);

/// Gradients of sinkhorn's transport cost: dx [N,D], dy [M,D], dlogA [N],
/// dlogB [M] (eps gets none).
struct SinkhornGradients {
  Tensor dx, dy, dlogA, dlogB;
};
/// The envelope-theorem gradient of the entropic OT value
/// OT = <a, f> + <b, g> (a = exp(logA), b = exp(logB)) at the potentials f
/// [N], g [M] of sinkhorn(), times the cotangent dCost, with the plan
/// P_ij = exp((f_i + g_j - C_ij) / eps + logA_i + logB_j):
///   dx_i    = dCost sum_j P_ij grad_x c(x_i, y_j)
///   dy_j    = dCost sum_i P_ij grad_y c(x_i, y_j)
///   dlogA_i = dCost a_i f_i,   dlogB_j = dCost b_j g_j
/// Exact for converged potentials; OT is defined only for balanced weights
/// (sum a = sum b), so dlogA and dlogB are exact along log-weight changes
/// that keep both sums fixed.
SinkhornGradients sinkhornBackward(Kernel costKind, const Tensor &x,
                                   const Tensor &y, const Tensor &logA,
                                   const Tensor &logB, double eps,
                                   const Tensor &f, const Tensor &g,
                                   double dCost);

/// Gradients of groupedMatmul: dlhs [T,K] and drhs [E,K,N].
struct GroupedMatmulGradients {
  Tensor dlhs, drhs;
};
/// dlhs rows of group e = dout rows times rhs[e]^T (rows past the sum 0);
/// drhs[e] = (lhs rows of e)^T (dout rows of e).
GroupedMatmulGradients
groupedMatmulBackward(const Tensor &lhs, const Tensor &rhs,
                      const std::vector<int64_t> &groupSizes,
                      const Tensor &dout);

/// Gradients of groupedSwiglu: dx [T,K], dwGate, dwUp [E,K,F].
struct GroupedSwigluGradients {
  Tensor dx, dwGate, dwUp;
};
/// With gate = x wGate[e], up = x wUp[e] per row of group e and the cotangent
/// dout [T,F]: dgate = dout * up * silu'(gate), dup = dout * silu(gate);
/// dx = dgate wGate[e]^T + dup wUp[e]^T, dwGate[e] = x^T dgate,
/// dwUp[e] = x^T dup (sums over the rows of group e).
GroupedSwigluGradients
groupedSwigluBackward(const Tensor &x, const Tensor &wGate, const Tensor &wUp,
                      const std::vector<int64_t> &groupSizes,
                      const Tensor &dout);

/// Gradients of moeCombine: dExpertOut [T*k,N] and dWeights [T,k].
struct MoeCombineGradients {
  Tensor dExpertOut, dWeights;
};
/// For the row r with permutation[r] = t*k + j: dExpertOut[r] =
/// weights[t,j] dout[t], dWeights[t,j] = <dout[t], expertOut[r]>.
MoeCombineGradients moeCombineBackward(const Tensor &expertOut,
                                       const std::vector<int32_t> &permutation,
                                       const Tensor &weights,
                                       const Tensor &dout);

} // namespace mixer::ref

#endif // MIXER_REFERENCE_KERNELMOEGRADIENTS_H
