//===- KernelMath.h - the kernel and cost formulas, written once -*- C++ -*-===//
//
// The arith/math ops of k(r^2) for every #mixer.kernel and of the costs
// c(r^2) of the log-domain ops, shared by the blocked lowering
// (convert-mixer-to-linalg), the scalar loops (convert-mixer-to-loops) and
// the decomposition of mixer.sinkhorn. Every function takes and returns
// scalar or vector f32 values of one type; the run-time coefficients
// (kernelCoefficient, negCostCoefficient) are meant to be computed once,
// outside the loops that apply them.
//
//   kernel     k(r^2)                    coefficient a
//   gaussian   exp(min(a r^2, 0))        -1 / (2 h^2)
//   laplacian  exp(min(a r, 0))          -1 / h
//   matern32   (1 + a r) exp(min(-a r, 0)) sqrt(3) / h
//   inverse_multiquadric 1 / sqrt(1 + a r^2)  1 / h^2
//   linear     <x, y> (not a function of r^2)
//
//   cost       c(r^2)      -c / eps as a * base(r^2)
//   gaussian   r^2 / 2     a = -1 / (2 eps), base = r^2
//   laplacian  r           a = -1 / eps,     base = r
//   sqeuclidean r^2        a = -1 / eps,     base = r^2
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_UTILS_KERNELMATH_H
#define MIXER_UTILS_KERNELMATH_H

#include "mixer/Dialect/Mixer/IR/MixerDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::mixer {

class LinalgBuilder;

/// An f32 constant of the type of `like` (a scalar or a splat vector).
Value kernelConstantLike(OpBuilder &b, Location loc, Value like, double value);

/// exp(min(v, 0)): an exp that cannot overflow.
Value expOfNonPositive(OpBuilder &b, Location loc, Value v);

/// The running maximum of an online log-sum-exp: x > acc ? x : acc, one
/// vmaxps on x86, where arith.maximumf's NaN and signed-zero rules take six
/// instructions per vector. A NaN term is skipped by the maximum but still
/// reaches the sum through its exp, so the result is NaN all the same.
Value logSumExpMax(OpBuilder &b, Location loc, Value x, Value acc);

/// The shift of an online log-sum-exp with running maximum m: m, or 0 while
/// every term so far is -inf (so that -inf - -inf is never formed).
Value logSumExpShift(OpBuilder &b, Location loc, Value m);

/// r^2 = max(|x|^2 + |y|^2 - 2 <x, y>, 0) from the squared norms and the dot
/// product (the max absorbs the rounding of the expansion).
Value squaredDistanceFromDot(OpBuilder &b, Location loc, Value xNorm2,
                             Value yNorm2, Value dot);

/// (x - y)^2: one term of a squared distance summed directly.
Value squaredDifference(OpBuilder &b, Location loc, Value x, Value y);

/// Points of at most this dimension get their blocked squared distances as
/// sums of squared differences (sumOfSquaredDifferences); larger ones as the
/// expansion around a dot product (squaredDistanceFromDot), whose blocked
/// contraction is faster there (measured: the direct sum is faster at D = 3
/// and 4, as fast at 8, slower from 12 on). The expansion rounds by about
/// 1e-7 times the squared norms, so it needs centred points (meanPoint), and
/// it still leaves r of about 3e-4 times the norms at coincident points: the
/// kernels and costs of r itself (laplacian, matern32) always sum directly.
constexpr int64_t kMaxDirectDistanceDim = 8;

/// Whether the blocked squared distances of D-dimensional points for the
/// kernel or cost `kind` are summed directly (else expanded). On a GPU
/// (`gpu`) they are expanded at every D where `kind` allows it: the cross
/// term is then a contraction on the tensor cores.
bool sumsSquaredDifferences(KernelKind kind, int64_t D, bool gpu = false);

/// The run-time coefficient a of a distance-based kernel from the bandwidth
/// h (see the table above).
Value kernelCoefficient(OpBuilder &b, Location loc, KernelKind kind,
                        Value bandwidth);

/// k(r^2) of a distance-based kernel with its coefficient a.
Value kernelOfSquaredDistance(OpBuilder &b, Location loc, KernelKind kind,
                              Value coef, Value r2);

/// dk/d(r^2) of a distance-based kernel with its coefficient a (the
/// gradient is grad_x k = 2 dk/d(r^2) (x - y)):
///   gaussian a k;  laplacian a k / (2 r), 0 at r = 0 (where r has no
///   gradient);  matern32 -(a^2 / 2) exp(-a r);  inverse_multiquadric
///   -(a / 2) k^3.
Value kernelSlopeOfSquaredDistance(OpBuilder &b, Location loc, KernelKind kind,
                                   Value coef, Value r2);

/// The factor f of grad_x c(x, y) = f (x - y) of a log-domain cost:
/// sqeuclidean 2, gaussian 1, laplacian 1 / r (0 at r = 0).
Value costGradientFactor(OpBuilder &b, Location loc, KernelKind kind,
                         Value r2);

/// The cost c(r^2) of a log-domain kernel (gaussian, laplacian,
/// sqeuclidean).
Value costOfSquaredDistance(OpBuilder &b, Location loc, KernelKind kind,
                            Value r2);

/// The coefficient a of -c(r^2) / eps = a * base(r^2).
Value negCostCoefficient(OpBuilder &b, Location loc, KernelKind kind,
                         Value eps);

/// -c(r^2) / eps as a * base(r^2), a from negCostCoefficient.
Value negScaledCost(OpBuilder &b, Location loc, KernelKind kind, Value coef,
                    Value r2);

/// The mean of the points [(Bt,) M, D] of every batch entry, [(Bt,) D]
/// (zero for M = 0): the centre subtracted from both point sets before
/// squared distances are expanded, so that the rounding scales with the
/// spread of the points rather than with their distance from the origin.
Value meanPoint(LinalgBuilder &lb, Value points, bool batched);

/// `block` (static [P, D] for pointDim = 1, [D, P] for pointDim = 0) minus
/// the point `centre` [D], as a fresh block.
Value centred(LinalgBuilder &lb, Value block, Value centre, unsigned pointDim);

/// sum_d (x[d] - y[d])^2 over the scalars x and y (as many of each, at
/// least one): exactly zero at coincident points.
Value sumOfSquaredDifferences(OpBuilder &b, Location loc, ValueRange x,
                              ValueRange y);

/// The squared norms of the rows (reducedDim = 1) or columns (reducedDim =
/// 0) of a static 2-D f32 block, as a fresh 1-D tensor.
Value squaredNorms(LinalgBuilder &lb, Value block, unsigned reducedDim);

} // namespace mlir::mixer

#endif // MIXER_UTILS_KERNELMATH_H
