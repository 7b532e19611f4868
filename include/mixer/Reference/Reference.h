//===- Reference.h - fp64 reference of every mixer op ----*- C++ -*-===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// A plain fp64 implementation of every mixer op, written from the math of the
// op definitions (the design's "The ops" and the op spec): token-by-token
// recurrences for the scans, dense double sums for the kernel reductions,
// straightforward loops for the MoE ops. It is the oracle of every numerical
// test and benchmark, so it shares no code with the compiler and depends on the
// C++17 standard library only. Clarity comes before speed.
//
// Misuse (a shape mismatch, an out-of-range id) prints a message naming the
// function and the argument to stderr and calls std::abort(); the library
// throws no exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_REFERENCE_REFERENCE_H
#define MIXER_REFERENCE_REFERENCE_H

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <vector>

namespace mixer::ref {

//===----------------------------------------------------------------------===//
// Tensors and test helpers
//===----------------------------------------------------------------------===//

/// Dense row-major fp64 array. A rank-0 tensor (empty shape) holds one value.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<double> data;

  Tensor() = default;
  /// A tensor of the given shape with every element set to `fill`. Aborts on
  /// a negative dimension.
  explicit Tensor(std::vector<int64_t> shape, double fill = 0.0);

  /// Number of elements: the product of the dimensions (1 for rank 0).
  int64_t numel() const;
  int64_t rank() const;
  /// Size of dimension `i`, 0 <= i < rank(); aborts otherwise.
  int64_t dim(int64_t i) const;

  /// Flat (row-major) element access, unchecked.
  double &operator[](int64_t i) { return data[i]; }
  double operator[](int64_t i) const { return data[i]; }

  /// Row-major flat offset of a multi-index; aborts on a wrong rank or an
  /// index out of bounds.
  int64_t offset(std::initializer_list<int64_t> index) const;
  /// Bounds-checked multi-index access, e.g. `t.at({b, l, h, p})`.
  double &at(std::initializer_list<int64_t> index) {
    return data[offset(index)];
  }
  double at(std::initializer_list<int64_t> index) const {
    return data[offset(index)];
  }
};

/// A tensor of `shape` holding `values` (numel(shape) floats) widened to
/// double.
Tensor fromFloats(std::vector<int64_t> shape, const float *values);
/// The values of `t` rounded to float, in row-major order.
std::vector<float> toFloats(const Tensor &t);

/// The elements of `t` whose index along dimension `dim` is in
/// [begin, end); the other dimensions are kept whole.
Tensor slice(const Tensor &t, int64_t dim, int64_t begin, int64_t end);

/// max_i |out_i - ref_i| / max_i |ref_i|, or the absolute max error
/// max_i |out_i - ref_i| when max_i |ref_i| == 0. `out` has ref.numel()
/// values. Returns +infinity when any difference is not finite (a NaN or an
/// infinity in `out`), so that every form of `error <= tolerance` fails.
double relativeError(const float *out, const Tensor &ref);

/// Deterministic random numbers for test and benchmark inputs. The engine is
/// std::mt19937_64 (whose sequence the standard fixes); the uniform and
/// normal transforms are written out here (53-bit mantissa, Box-Muller)
/// rather than taken from <random> distributions, whose output differs
/// between standard libraries.
class Rng {
public:
  explicit Rng(uint64_t seed);
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi);
  /// Normal with the given mean and standard deviation.
  double normal(double mean, double stddev);
  Tensor uniformTensor(std::vector<int64_t> shape, double lo, double hi);
  Tensor normalTensor(std::vector<int64_t> shape, double mean, double stddev);

private:
  std::mt19937_64 engine;
  /// Box-Muller makes normals in pairs; the second one waits here.
  double spareNormal = 0.0;
  bool hasSpareNormal = false;
};

//===----------------------------------------------------------------------===//
// Scalar functions shared by the op definitions
//===----------------------------------------------------------------------===//

/// silu(x) = x / (1 + exp(-x)).
double silu(double x);
/// softplus(x) = log1p(exp(x)), and x itself for x > 20.
double softplus(double x);

/// log(sum_i exp(a_i)) accumulated one term at a time with a running maximum,
/// so that no exp overflows. Terms equal to -infinity contribute nothing; the
/// value of an empty (or all -infinity) sum is -infinity.
class OnlineLogSumExp {
public:
  void add(double a);
  double value() const;

private:
  double max = -std::numeric_limits<double>::infinity();
  /// sum_i exp(a_i - max).
  double sum = 0.0;
};

//===----------------------------------------------------------------------===//
// Chunked scans (computed here token by token)
//===----------------------------------------------------------------------===//

/// The per-token outputs and the state after the last token.
struct ScanResult {
  Tensor out, finalState;
};

/// mixer.ssd (Mamba-2). x [B,L,H,P], logA [B,L,H], b, c [B,L,G,N],
/// H % G == 0, optional init [B,H,P,N] (null: zero). Per head h of group
/// g = h / (H/G):  S_t = exp(logA_t) S_{t-1} + x_t b_t^T,  y_t = S_t c_t.
/// Returns y [B,L,H,P] and S_{L-1} [B,H,P,N].
ScanResult ssd(const Tensor &x, const Tensor &logA, const Tensor &b,
               const Tensor &c, const Tensor *init);

/// The optional operands and the flag of mixer.selective_scan.
struct SelectiveScanOptions {
  const Tensor *dSkip = nullptr;     ///< [D]
  const Tensor *z = nullptr;         ///< [B,L,D]
  const Tensor *deltaBias = nullptr; ///< [D]
  const Tensor *init = nullptr;      ///< [B,D,N]
  bool deltaSoftplus = false;
};

/// mixer.selective_scan (Mamba-1). u, delta [B,L,D], A [D,N], b, c [B,L,G,N]
/// with D % G == 0 (channel d uses group d / (D/G)).
///   dt = delta + deltaBias, then softplus(dt) if deltaSoftplus;
///   h_t[d,n] = exp(dt[d] A[d,n]) h_{t-1}[d,n] + dt[d] u[d] b_t[n];
///   y_t[d] = sum_n h_t[d,n] c_t[n] + dSkip[d] u[d], times silu(z[d]) if z.
/// Returns y [B,L,D] and h_{L-1} [B,D,N].
ScanResult selectiveScan(const Tensor &u, const Tensor &delta, const Tensor &A,
                         const Tensor &b, const Tensor &c,
                         const SelectiveScanOptions &opts);

/// mixer.linear_attention. q, k [B,L,H,Dk], v [B,L,H,Dv], optional
/// logDecay [B,L,H] (null: 0), optional init [B,H,Dk,Dv] (null: zero),
/// window >= 0.  S_t = exp(logDecay_t) S_{t-1} + k_t v_t^T;
/// o_t = scale * S_t^T q_t when window == 0, and
/// o_t = scale * S_{t-window-1}^T q_t when window > 0, where S_j for j < 0 is
/// the initial state. Returns o [B,L,H,Dv] and S_{L-1} [B,H,Dk,Dv].
ScanResult linearAttention(const Tensor &q, const Tensor &k, const Tensor &v,
                           const Tensor *logDecay, const Tensor *init,
                           int64_t window, double scale);

/// mixer.gated_delta_rule (Gated DeltaNet). q, k [B,L,H,Dk], v [B,L,H,Dv],
/// g, beta [B,L,H], optional init [B,H,Dk,Dv] (null: zero).
///   S_t = exp(g_t) (I - beta_t k_t k_t^T) S_{t-1} + beta_t k_t v_t^T,
///   o_t = scale * S_t^T q_t.
/// Returns o [B,L,H,Dv] and S_{L-1} [B,H,Dk,Dv].
ScanResult gatedDeltaRule(const Tensor &q, const Tensor &k, const Tensor &v,
                          const Tensor &g, const Tensor &beta,
                          const Tensor *init, double scale);

//===----------------------------------------------------------------------===//
// Kernel reductions (dense sums here)
//===----------------------------------------------------------------------===//

/// The kinds of #mixer.kernel<...>.
enum class Kernel {
  Gaussian,
  Laplacian,
  Matern32,
  InverseMultiquadric,
  Linear,
  SqEuclidean
};

/// The `#mixer.kernel<...>` keyword of `kind` ("gaussian", ...).
const char *kernelName(Kernel kind);

/// k(x, y) for d-dimensional points, with r = ||x - y||_2 and h = bandwidth:
///   Gaussian exp(-r^2 / (2 h^2)), Laplacian exp(-r / h),
///   Matern32 (1 + sqrt(3) r / h) exp(-sqrt(3) r / h),
///   InverseMultiquadric 1 / sqrt(1 + r^2 / h^2), Linear <x, y> (h ignored).
/// SqEuclidean is a cost, not a kernel: aborts.
double kernelValue(Kernel kind, const double *x, const double *y, int64_t d,
                   double bandwidth);

/// c(x, y) of the kinds kernel_lse and sinkhorn accept: SqEuclidean r^2,
/// Gaussian r^2 / 2, Laplacian r. Aborts for the other kinds.
double cost(Kernel kind, const double *x, const double *y, int64_t d);

/// mixer.kernel_mv: out_i = sum_j k(x_i, y_j) v_j. Either x [N,D], y [M,D],
/// v [M,C] -> [N,C], or all batched: x [Bt,N,D], y [Bt,M,D], v [Bt,M,C]
/// -> [Bt,N,C].
Tensor kernelMv(Kernel kind, const Tensor &x, const Tensor &y, const Tensor &v,
                double bandwidth);

/// mixer.kernel_lse: out_i = log sum_j exp(-c(x_i, y_j) / eps + g_j), with the
/// running-max trick. x [N,D], y [M,D], optional g [M] -> [N], or batched
/// x [Bt,N,D], y [Bt,M,D], g [Bt,M] -> [Bt,N]. g null means g = 0.
Tensor kernelLse(Kernel kind, const Tensor &x, const Tensor &y, const Tensor *g,
                 double eps);

/// mixer.transport_cost: out_i = sum_j P_ij C_ij with
/// P_ij = exp(logU_i + logV_j - C_ij / eps), C_ij = cost(kind, x_i, y_j).
/// x [N,D], y [M,D], logU [N], logV [M] -> [N], or batched x [Bt,N,D],
/// y [Bt,M,D], logU [Bt,N], logV [Bt,M] -> [Bt,N].
Tensor transportCost(Kernel kind, const Tensor &x, const Tensor &y,
                     const Tensor &logU, const Tensor &logV, double eps);

/// The dual potentials and the transport cost sum_ij P_ij C_ij.
struct SinkhornResult {
  Tensor f, g;
  double cost;
};

/// mixer.sinkhorn, log domain. x [N,D], y [M,D], logA [N], logB [M].
/// g starts at 0; each of the `iterations` (> 0) iterations does
///   f_i = -eps log sum_j exp((g_j - C_ij) / eps + logB_j), then
///   g_j = -eps log sum_i exp((f_i - C_ij) / eps + logA_i).
/// cost = sum_ij P_ij C_ij, P_ij = exp((f_i + g_j - C_ij) / eps + logA_i +
/// logB_j), C_ij = cost(costKind, x_i, y_j).
SinkhornResult sinkhorn(Kernel costKind, const Tensor &x, const Tensor &y,
                        const Tensor &logA, const Tensor &logB, double eps,
                        int64_t iterations);

//===----------------------------------------------------------------------===//
// Mixture of experts
//===----------------------------------------------------------------------===//

/// mixer.grouped_matmul. lhs [T,K] (rows sorted by group), rhs [E,K,N],
/// groupSizes [E] (each >= 0, sum <= T) -> [T,N]. Rows offset_e ..
/// offset_e + size_e - 1 (offsets: exclusive prefix sum) are lhs rows times
/// rhs[e]; rows past the sum are zero.
Tensor groupedMatmul(const Tensor &lhs, const Tensor &rhs,
                     const std::vector<int64_t> &groupSizes);

/// mixer.grouped_swiglu. x [T,K], wGate, wUp [E,K,F], groupSizes [E] ->
/// [T,F]: silu(x wGate[e]) * (x wUp[e]) on the rows of group e, rows past the
/// sum zero.
Tensor groupedSwiglu(const Tensor &x, const Tensor &wGate, const Tensor &wUp,
                     const std::vector<int64_t> &groupSizes);

/// Top-k routing: weights [T,k] and expert ids (T*k values, row-major [T,k]).
struct Routing {
  Tensor weights;
  std::vector<int32_t> expertIds;
};

/// mixer.topk_router. logits [T,E], 1 <= k <= E. probs = softmax(logits)
/// over E; the k largest probs in descending order (ties: lower expert index
/// first); weights = those probs, divided by their sum when `normalize`.
Routing topkRouter(const Tensor &logits, int64_t k, bool normalize);

/// Tokens sorted by expert: sorted [T*k,K], groupSizes [E], permutation [T*k].
struct Dispatch {
  Tensor sorted;
  std::vector<int64_t> groupSizes;
  std::vector<int32_t> permutation;
};

/// mixer.moe_dispatch. x [T,K], expertIds (T*k values in [0, numExperts)).
/// Slot a = t*k + j goes to expert expertIds[a]; slots are stably sorted by
/// expert; permutation[r] is the slot of sorted row r and sorted row r holds
/// x[permutation[r] / k].
Dispatch moeDispatch(const Tensor &x, const std::vector<int32_t> &expertIds,
                     int64_t k, int64_t numExperts);

/// mixer.moe_combine. expertOut [T*k,N], permutation [T*k] (a permutation of
/// the slots), weights [T,k] -> [T,N]:
/// out[t] = sum_j weights[t,j] * expertOut[r] where permutation[r] = t*k + j.
Tensor moeCombine(const Tensor &expertOut,
                  const std::vector<int32_t> &permutation,
                  const Tensor &weights);

/// A dropless MoE layer composed of the ops above. x [T,K], logits [T,E],
/// wGate, wUp [E,K,F], wDown [E,F,K] -> [T,K]:
/// route, dispatch, grouped_swiglu, grouped_matmul with wDown, combine.
Tensor moeLayer(const Tensor &x, const Tensor &logits, int64_t k,
                bool normalize, const Tensor &wGate, const Tensor &wUp,
                const Tensor &wDown);

} // namespace mixer::ref

#endif // MIXER_REFERENCE_REFERENCE_H
