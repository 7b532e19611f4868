//===- Scans.cpp - Token-by-token reference of the scans ------------------===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// ssd, selective_scan, linear_attention and gated_delta_rule computed by their
// recurrences, one token at a time, in double. Each (batch, head) pair keeps
// its state in a small local array: the cost is O(B * L * H * state size).
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "Recurrences.h"

#include <algorithm>
#include <cmath>

using namespace mixer::ref;
using detail::check;
using detail::checkRank;
using detail::checkShape;

detail::SsdSizes detail::checkSsdOperands(const char *fn, const Tensor &x,
                                          const Tensor &logA, const Tensor &b,
                                          const Tensor &c, const Tensor *init) {
  checkRank(fn, "x", x, 4);
  checkRank(fn, "b", b, 4);
  int64_t B = x.dim(0), L = x.dim(1), H = x.dim(2), P = x.dim(3);
  int64_t G = b.dim(2), N = b.dim(3);
  checkShape(fn, "log_a", logA, {B, L, H});
  checkShape(fn, "b", b, {B, L, G, N});
  checkShape(fn, "c", c, {B, L, G, N});
  check(G > 0 && H % G == 0, fn,
        "heads (" + std::to_string(H) + ") not a multiple of groups (" +
            std::to_string(G) + ")");
  if (init)
    checkShape(fn, "init", *init, {B, H, P, N});
  return {B, L, H, P, G, N};
}

//===----------------------------------------------------------------------===//
// ssd
//===----------------------------------------------------------------------===//

ScanResult mixer::ref::ssd(const Tensor &x, const Tensor &logA, const Tensor &b,
                           const Tensor &c, const Tensor *init) {
  detail::SsdSizes sizes = detail::checkSsdOperands("ssd", x, logA, b, c, init);
  int64_t B = sizes.B, L = sizes.L, H = sizes.H, P = sizes.P, G = sizes.G,
          N = sizes.N;

  ScanResult result{Tensor({B, L, H, P}), Tensor({B, H, P, N})};
  for (int64_t bi = 0; bi < B; ++bi) {
    for (int64_t h = 0; h < H; ++h) {
      int64_t g = h / (H / G);
      // S is [P, N].
      std::vector<double> S =
          detail::stateOrZeros(init, (bi * H + h) * P * N, P * N);
      for (int64_t t = 0; t < L; ++t) {
        double decay = std::exp(logA[(bi * L + t) * H + h]);
        const double *xt = x.data.data() + ((bi * L + t) * H + h) * P;
        const double *bt = b.data.data() + ((bi * L + t) * G + g) * N;
        const double *ct = c.data.data() + ((bi * L + t) * G + g) * N;
        double *yt = result.out.data.data() + ((bi * L + t) * H + h) * P;
        for (int64_t p = 0; p < P; ++p) {
          double y = 0.0;
          for (int64_t n = 0; n < N; ++n) {
            double &s = S[p * N + n];
            s = decay * s + xt[p] * bt[n];
            y += s * ct[n];
          }
          yt[p] = y;
        }
      }
      std::copy(S.begin(), S.end(),
                result.finalState.data.begin() + (bi * H + h) * P * N);
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// selective_scan
//===----------------------------------------------------------------------===//

ScanResult mixer::ref::selectiveScan(const Tensor &u, const Tensor &delta,
                                     const Tensor &A, const Tensor &b,
                                     const Tensor &c,
                                     const SelectiveScanOptions &opts) {
  const char *fn = "selectiveScan";
  checkRank(fn, "u", u, 3);
  checkRank(fn, "A", A, 2);
  checkRank(fn, "b", b, 4);
  int64_t B = u.dim(0), L = u.dim(1), D = u.dim(2);
  int64_t N = A.dim(1), G = b.dim(2);
  checkShape(fn, "delta", delta, {B, L, D});
  checkShape(fn, "A", A, {D, N});
  checkShape(fn, "b", b, {B, L, G, N});
  checkShape(fn, "c", c, {B, L, G, N});
  check(G > 0 && D % G == 0, fn,
        "channels (" + std::to_string(D) + ") not a multiple of groups (" +
            std::to_string(G) + ")");
  if (opts.dSkip)
    checkShape(fn, "D_skip", *opts.dSkip, {D});
  if (opts.z)
    checkShape(fn, "z", *opts.z, {B, L, D});
  if (opts.deltaBias)
    checkShape(fn, "delta_bias", *opts.deltaBias, {D});
  if (opts.init)
    checkShape(fn, "init", *opts.init, {B, D, N});

  ScanResult result{Tensor({B, L, D}), Tensor({B, D, N})};
  for (int64_t bi = 0; bi < B; ++bi) {
    for (int64_t d = 0; d < D; ++d) {
      int64_t g = d / (D / G);
      // h is [N].
      std::vector<double> h =
          detail::stateOrZeros(opts.init, (bi * D + d) * N, N);
      for (int64_t t = 0; t < L; ++t) {
        int64_t i = (bi * L + t) * D + d;
        double dt = delta[i];
        if (opts.deltaBias)
          dt += (*opts.deltaBias)[d];
        if (opts.deltaSoftplus)
          dt = softplus(dt);
        const double *bt = b.data.data() + ((bi * L + t) * G + g) * N;
        const double *ct = c.data.data() + ((bi * L + t) * G + g) * N;
        double y = 0.0;
        for (int64_t n = 0; n < N; ++n) {
          h[n] = std::exp(dt * A[d * N + n]) * h[n] + dt * u[i] * bt[n];
          y += h[n] * ct[n];
        }
        if (opts.dSkip)
          y += (*opts.dSkip)[d] * u[i];
        if (opts.z)
          y *= silu((*opts.z)[i]);
        result.out[i] = y;
      }
      std::copy(h.begin(), h.end(),
                result.finalState.data.begin() + (bi * D + d) * N);
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// linear_attention
//===----------------------------------------------------------------------===//

void detail::checkAttentionOperands(const char *fn, const Tensor &q,
                                    const Tensor &k, const Tensor &v,
                                    const Tensor *init) {
  checkRank(fn, "q", q, 4);
  checkRank(fn, "v", v, 4);
  int64_t B = q.dim(0), L = q.dim(1), H = q.dim(2), Dk = q.dim(3);
  int64_t Dv = v.dim(3);
  checkShape(fn, "k", k, {B, L, H, Dk});
  checkShape(fn, "v", v, {B, L, H, Dv});
  if (init)
    checkShape(fn, "init", *init, {B, H, Dk, Dv});
}

/// S = decay * S + k v^T for S [Dk, Dv].
static void decayAndAddOuter(std::vector<double> &S, double decay,
                             const double *k, const double *v, int64_t Dk,
                             int64_t Dv) {
  for (int64_t i = 0; i < Dk; ++i)
    for (int64_t j = 0; j < Dv; ++j)
      S[i * Dv + j] = decay * S[i * Dv + j] + k[i] * v[j];
}

/// o = scale * S^T q for S [Dk, Dv].
static void readOut(const std::vector<double> &S, const double *q, double scale,
                    int64_t Dk, int64_t Dv, double *o) {
  for (int64_t j = 0; j < Dv; ++j) {
    double sum = 0.0;
    for (int64_t i = 0; i < Dk; ++i)
      sum += S[i * Dv + j] * q[i];
    o[j] = scale * sum;
  }
}

ScanResult mixer::ref::linearAttention(const Tensor &q, const Tensor &k,
                                       const Tensor &v, const Tensor *logDecay,
                                       const Tensor *init, int64_t window,
                                       double scale) {
  const char *fn = "linearAttention";
  detail::checkAttentionOperands(fn, q, k, v, init);
  int64_t B = q.dim(0), L = q.dim(1), H = q.dim(2), Dk = q.dim(3);
  int64_t Dv = v.dim(3);
  if (logDecay)
    checkShape(fn, "log_decay", *logDecay, {B, L, H});
  check(window >= 0, fn, "window " + std::to_string(window) + " is negative");

  ScanResult result{Tensor({B, L, H, Dv}), Tensor({B, H, Dk, Dv})};
  for (int64_t bi = 0; bi < B; ++bi) {
    for (int64_t h = 0; h < H; ++h) {
      int64_t stateOffset = (bi * H + h) * Dk * Dv;
      // S = S_t, the state after token t.
      std::vector<double> S = detail::stateOrZeros(init, stateOffset, Dk * Dv);
      // With a window, `lagged` is S_{t-w-1}: it starts as the initial state
      // (S_j for j < 0) and takes token t-w-1 once that token exists.
      std::vector<double> lagged = S;
      auto tokenUpdate = [&](std::vector<double> &state, int64_t t) {
        int64_t i = (bi * L + t) * H + h;
        double decay = logDecay ? std::exp((*logDecay)[i]) : 1.0;
        decayAndAddOuter(state, decay, k.data.data() + i * Dk,
                         v.data.data() + i * Dv, Dk, Dv);
      };
      for (int64_t t = 0; t < L; ++t) {
        int64_t i = (bi * L + t) * H + h;
        tokenUpdate(S, t);
        if (window == 0) {
          readOut(S, q.data.data() + i * Dk, scale, Dk, Dv,
                  result.out.data.data() + i * Dv);
          continue;
        }
        if (t - window - 1 >= 0)
          tokenUpdate(lagged, t - window - 1);
        readOut(lagged, q.data.data() + i * Dk, scale, Dk, Dv,
                result.out.data.data() + i * Dv);
      }
      std::copy(S.begin(), S.end(),
                result.finalState.data.begin() + stateOffset);
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// gated_delta_rule
//===----------------------------------------------------------------------===//

ScanResult mixer::ref::gatedDeltaRule(const Tensor &q, const Tensor &k,
                                      const Tensor &v, const Tensor &g,
                                      const Tensor &beta, const Tensor *init,
                                      double scale) {
  const char *fn = "gatedDeltaRule";
  detail::checkAttentionOperands(fn, q, k, v, init);
  int64_t B = q.dim(0), L = q.dim(1), H = q.dim(2), Dk = q.dim(3);
  int64_t Dv = v.dim(3);
  checkShape(fn, "g", g, {B, L, H});
  checkShape(fn, "beta", beta, {B, L, H});

  ScanResult result{Tensor({B, L, H, Dv}), Tensor({B, H, Dk, Dv})};
  std::vector<double> kS(Dv);
  for (int64_t bi = 0; bi < B; ++bi) {
    for (int64_t h = 0; h < H; ++h) {
      int64_t stateOffset = (bi * H + h) * Dk * Dv;
      std::vector<double> S = detail::stateOrZeros(init, stateOffset, Dk * Dv);
      for (int64_t t = 0; t < L; ++t) {
        int64_t i = (bi * L + t) * H + h;
        double gate = std::exp(g[i]), bt = beta[i];
        const double *kt = k.data.data() + i * Dk;
        const double *vt = v.data.data() + i * Dv;
        detail::gatedDeltaUpdate(S.data(), S.data(), kt, vt, gate, bt, Dk, Dv,
                                 kS.data());
        readOut(S, q.data.data() + i * Dk, scale, Dk, Dv,
                result.out.data.data() + i * Dv);
      }
      std::copy(S.begin(), S.end(),
                result.finalState.data.begin() + stateOffset);
    }
  }
  return result;
}
