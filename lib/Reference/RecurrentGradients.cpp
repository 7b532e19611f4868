//===- RecurrentGradients.cpp - fp64 gradients of the recurrent scans -----===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// Each (batch, head or channel) runs its recurrence forward once, keeping the
// state after every token, then walks the tokens backwards carrying the
// cotangent of the state: the textbook reverse mode of the recurrence, with
// no chunking, so that it checks the compiled chunked backward independently.
//
//===----------------------------------------------------------------------===//

#include "mixer/Reference/RecurrentGradients.h"

#include "Checks.h"
#include "Recurrences.h"

#include <cmath>

using namespace mixer::ref;
using detail::checkShape;

static double sigmoidOf(double x) { return 1.0 / (1.0 + std::exp(-x)); }

/// The cotangent at flat index `i` of an optional cotangent tensor.
static double cotangentAt(const Tensor *t, int64_t i) {
  return t ? (*t)[i] : 0.0;
}

//===----------------------------------------------------------------------===//
// selective_scan
//===----------------------------------------------------------------------===//

SelectiveScanGrads mixer::ref::selectiveScanVjp(
    const Tensor &u, const Tensor &delta, const Tensor &A, const Tensor &b,
    const Tensor &c, const SelectiveScanOptions &opts, const Tensor *dy,
    const Tensor *dFinal) {
  const char *fn = "selectiveScanVjp";
  // The forward checks every operand's shape.
  (void)selectiveScan(u, delta, A, b, c, opts);
  int64_t B = u.dim(0), L = u.dim(1), D = u.dim(2);
  int64_t N = A.dim(1), G = b.dim(2);
  if (dy)
    checkShape(fn, "dy", *dy, {B, L, D});
  if (dFinal)
    checkShape(fn, "dFinal", *dFinal, {B, D, N});

  SelectiveScanGrads grads;
  grads.u = Tensor(u.shape);
  grads.delta = Tensor(delta.shape);
  grads.A = Tensor(A.shape);
  grads.b = Tensor(b.shape);
  grads.c = Tensor(c.shape);
  if (opts.dSkip)
    grads.dSkip = Tensor(opts.dSkip->shape);
  if (opts.z)
    grads.z = Tensor(opts.z->shape);
  if (opts.deltaBias)
    grads.deltaBias = Tensor(opts.deltaBias->shape);
  if (opts.init)
    grads.init = Tensor(opts.init->shape);

  // Per channel: dt, the pre-gate output and the states h_{-1} .. h_{L-1}.
  std::vector<double> dt(L), pre(L), dtArg(L), h((L + 1) * N), dh(N);
  for (int64_t bi = 0; bi < B; ++bi) {
    for (int64_t d = 0; d < D; ++d) {
      int64_t g = d / (D / G);
      auto bAt = [&](int64_t t) { return ((bi * L + t) * G + g) * N; };
      for (int64_t n = 0; n < N; ++n)
        h[n] = opts.init ? (*opts.init)[(bi * D + d) * N + n] : 0.0;
      for (int64_t t = 0; t < L; ++t) {
        int64_t i = (bi * L + t) * D + d;
        dtArg[t] = delta[i] + (opts.deltaBias ? (*opts.deltaBias)[d] : 0.0);
        dt[t] = opts.deltaSoftplus ? softplus(dtArg[t]) : dtArg[t];
        pre[t] = opts.dSkip ? (*opts.dSkip)[d] * u[i] : 0.0;
        for (int64_t n = 0; n < N; ++n) {
          double &next = h[(t + 1) * N + n];
          next = std::exp(dt[t] * A[d * N + n]) * h[t * N + n] +
                 dt[t] * u[i] * b[bAt(t) + n];
          pre[t] += next * c[bAt(t) + n];
        }
      }
      // Reverse: dh is the cotangent of h_t from the tokens after t.
      for (int64_t n = 0; n < N; ++n)
        dh[n] = dFinal ? (*dFinal)[(bi * D + d) * N + n] : 0.0;
      for (int64_t t = L - 1; t >= 0; --t) {
        int64_t i = (bi * L + t) * D + d;
        double dOut = cotangentAt(dy, i), dPre = dOut;
        if (opts.z) {
          double z = (*opts.z)[i], s = sigmoidOf(z);
          dPre = dOut * z * s;
          grads.z[i] = dOut * pre[t] * s * (1.0 + z * (1.0 - s));
        }
        if (opts.dSkip) {
          grads.dSkip[d] += dPre * u[i];
          grads.u[i] += dPre * (*opts.dSkip)[d];
        }
        double dDt = 0.0;
        for (int64_t n = 0; n < N; ++n) {
          double a = A[d * N + n], decay = std::exp(dt[t] * a);
          grads.c[bAt(t) + n] += h[(t + 1) * N + n] * dPre;
          dh[n] += c[bAt(t) + n] * dPre;
          // h_t = decay h_{t-1} + dt u b.
          grads.b[bAt(t) + n] += dh[n] * dt[t] * u[i];
          grads.u[i] += dh[n] * dt[t] * b[bAt(t) + n];
          double dDecay = dh[n] * h[t * N + n] * decay;
          dDt += dh[n] * u[i] * b[bAt(t) + n] + dDecay * a;
          grads.A[d * N + n] += dDecay * dt[t];
          dh[n] *= decay;
        }
        double dArg = dDt;
        if (opts.deltaSoftplus && dtArg[t] <= 20.0)
          dArg *= sigmoidOf(dtArg[t]);
        grads.delta[i] = dArg;
        if (opts.deltaBias)
          grads.deltaBias[d] += dArg;
      }
      if (opts.init)
        for (int64_t n = 0; n < N; ++n)
          grads.init[(bi * D + d) * N + n] = dh[n];
    }
  }
  return grads;
}

//===----------------------------------------------------------------------===//
// gated_delta_rule
//===----------------------------------------------------------------------===//

GatedDeltaRuleGrads mixer::ref::gatedDeltaRuleVjp(
    const Tensor &q, const Tensor &k, const Tensor &v, const Tensor &g,
    const Tensor &beta, const Tensor *init, double scale, const Tensor *dO,
    const Tensor *dFinal) {
  const char *fn = "gatedDeltaRuleVjp";
  (void)gatedDeltaRule(q, k, v, g, beta, init, scale);
  int64_t B = q.dim(0), L = q.dim(1), H = q.dim(2), Dk = q.dim(3);
  int64_t Dv = v.dim(3), S2 = Dk * Dv;
  if (dO)
    checkShape(fn, "dO", *dO, {B, L, H, Dv});
  if (dFinal)
    checkShape(fn, "dFinal", *dFinal, {B, H, Dk, Dv});

  GatedDeltaRuleGrads grads{Tensor(q.shape), Tensor(k.shape),
                            Tensor(v.shape), Tensor(g.shape),
                            Tensor(beta.shape), Tensor()};
  if (init)
    grads.init = Tensor(init->shape);

  // States S_{-1} .. S_{L-1} of one head, [Dk, Dv] each.
  std::vector<double> S((L + 1) * S2), dS(S2), dP(S2), kS(Dv), dkS(Dv);
  for (int64_t bi = 0; bi < B; ++bi) {
    for (int64_t h = 0; h < H; ++h) {
      int64_t stateOffset = (bi * H + h) * S2;
      std::vector<double> initial = detail::stateOrZeros(init, stateOffset, S2);
      std::copy(initial.begin(), initial.end(), S.begin());
      for (int64_t t = 0; t < L; ++t) {
        int64_t i = (bi * L + t) * H + h;
        detail::gatedDeltaUpdate(S.data() + t * S2, S.data() + (t + 1) * S2,
                                 k.data.data() + i * Dk, v.data.data() + i * Dv,
                                 std::exp(g[i]), beta[i], Dk, Dv, kS.data());
      }
      dS = detail::stateOrZeros(dFinal, stateOffset, S2);
      for (int64_t t = L - 1; t >= 0; --t) {
        int64_t i = (bi * L + t) * H + h;
        const double *qt = q.data.data() + i * Dk;
        const double *kt = k.data.data() + i * Dk;
        const double *vt = v.data.data() + i * Dv;
        const double *prev = S.data() + t * S2;
        const double *cur = S.data() + (t + 1) * S2;
        double gate = std::exp(g[i]), bt = beta[i];
        // o_t = scale S_t^T q_t.
        for (int64_t a = 0; a < Dk; ++a)
          for (int64_t j = 0; j < Dv; ++j) {
            double dOut = cotangentAt(dO, i * Dv + j);
            grads.q[i * Dk + a] += scale * cur[a * Dv + j] * dOut;
            dS[a * Dv + j] += scale * qt[a] * dOut;
          }
        // S_t = gate P + beta k v^T with P = S_{t-1} - beta k kS^T and
        // kS = S_{t-1}^T k.
        detail::keyRead(kt, prev, Dk, Dv, kS.data());
        double dGate = 0.0, dBeta = 0.0;
        for (int64_t j = 0; j < Dv; ++j)
          dkS[j] = 0.0;
        for (int64_t a = 0; a < Dk; ++a)
          for (int64_t j = 0; j < Dv; ++j) {
            double ds = dS[a * Dv + j];
            double p = prev[a * Dv + j] - bt * kt[a] * kS[j];
            dGate += ds * p;
            dP[a * Dv + j] = gate * ds;
            grads.v[i * Dv + j] += bt * kt[a] * ds;
            grads.k[i * Dk + a] += bt * vt[j] * ds - bt * kS[j] * gate * ds;
            dBeta += ds * kt[a] * vt[j] - gate * ds * kt[a] * kS[j];
            dkS[j] -= bt * kt[a] * gate * ds;
          }
        grads.g[i] = dGate * gate;
        grads.beta[i] = dBeta;
        // Through kS = S_{t-1}^T k: dk += S_{t-1} dkS, dS_{t-1} += k dkS^T.
        for (int64_t a = 0; a < Dk; ++a)
          for (int64_t j = 0; j < Dv; ++j) {
            grads.k[i * Dk + a] += prev[a * Dv + j] * dkS[j];
            dS[a * Dv + j] = dP[a * Dv + j] + kt[a] * dkS[j];
          }
      }
      if (init)
        std::copy(dS.begin(), dS.end(), grads.init.data.begin() + stateOffset);
    }
  }
  return grads;
}
