//===- SsdGradients.cpp - reference gradients of ssd and linear attention -===//
//
// Part of the mixer project.
//
//===----------------------------------------------------------------------===//
//
// Backpropagation through the recurrences of ssd and linear_attention, token
// by token in double. Each (batch, head) pair runs its forward recurrence
// keeping every state (the reference trades memory for clarity), then walks
// back carrying the state cotangent D = dLoss/dS_t:
//
//   D += (the cotangent S_t receives from the outputs that read it)
//   d(inputs of token t) from D and S_{t-1};   D <- exp(log_a_t) D
//
// after which D is the cotangent of the initial state.
//
//===----------------------------------------------------------------------===//

#include "mixer/Reference/Gradients.h"

#include "Checks.h"
#include "Recurrences.h"

#include <cmath>

using namespace mixer::ref;
using detail::check;
using detail::checkRank;
using detail::checkShape;

/// S_{-1} .. S_{L-1} of the forward recurrence S_t = decay(t) S_{t-1} + u_t
/// w_t^T of ssd (x_t b_t^T) and linear attention (k_t v_t^T), each [rows,
/// cols], outer(t, i, j) = u_t[i] w_t[j]: element t + 1 is S_t, element 0
/// `initial`.
template <typename Decay, typename Outer>
static std::vector<std::vector<double>>
forwardStates(std::vector<double> initial, int64_t L, int64_t rows,
              int64_t cols, Decay decay, Outer outer) {
  std::vector<std::vector<double>> states = {std::move(initial)};
  for (int64_t t = 0; t < L; ++t) {
    const std::vector<double> &prev = states.back();
    std::vector<double> next(rows * cols);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        next[i * cols + j] = decay(t) * prev[i * cols + j] + outer(t, i, j);
    states.push_back(std::move(next));
  }
  return states;
}

/// An empty tensor, for the gradient of an absent operand.
static Tensor none() { return Tensor({0}); }

SsdGradients mixer::ref::ssdGradients(const Tensor &x, const Tensor &logA,
                                      const Tensor &b, const Tensor &c,
                                      const Tensor *init, const Tensor *dy,
                                      const Tensor *dFinalState) {
  const char *fn = "ssdGradients";
  detail::SsdSizes sizes = detail::checkSsdOperands(fn, x, logA, b, c, init);
  int64_t B = sizes.B, L = sizes.L, H = sizes.H, P = sizes.P, G = sizes.G,
          N = sizes.N;
  if (dy)
    checkShape(fn, "dy", *dy, {B, L, H, P});
  if (dFinalState)
    checkShape(fn, "d_final_state", *dFinalState, {B, H, P, N});

  SsdGradients g{Tensor(x.shape), Tensor(logA.shape), Tensor(b.shape),
                 Tensor(c.shape), init ? Tensor(init->shape) : none()};
  for (int64_t bi = 0; bi < B; ++bi) {
    for (int64_t h = 0; h < H; ++h) {
      int64_t grp = h / (H / G);
      auto xAt = [&](int64_t t, int64_t p) {
        return x[((bi * L + t) * H + h) * P + p];
      };
      auto bAt = [&](int64_t t, int64_t n) {
        return b[((bi * L + t) * G + grp) * N + n];
      };
      auto cAt = [&](int64_t t, int64_t n) {
        return c[((bi * L + t) * G + grp) * N + n];
      };
      auto dyAt = [&](int64_t t, int64_t p) {
        return dy ? (*dy)[((bi * L + t) * H + h) * P + p] : 0.0;
      };
      auto decayAt = [&](int64_t t) {
        return std::exp(logA[(bi * L + t) * H + h]);
      };
      int64_t stateOffset = (bi * H + h) * P * N;
      std::vector<std::vector<double>> states =
          forwardStates(detail::stateOrZeros(init, stateOffset, P * N), L, P, N,
                        decayAt, [&](int64_t t, int64_t p, int64_t n) {
                          return xAt(t, p) * bAt(t, n);
                        });

      std::vector<double> D =
          detail::stateOrZeros(dFinalState, stateOffset, P * N);
      for (int64_t t = L - 1; t >= 0; --t) {
        const std::vector<double> &S = states[t + 1], &prev = states[t];
        // y_t = S_t c_t: S_t receives dy_t c_t^T, c_t receives S_t^T dy_t.
        for (int64_t p = 0; p < P; ++p)
          for (int64_t n = 0; n < N; ++n) {
            D[p * N + n] += dyAt(t, p) * cAt(t, n);
            g.dc[((bi * L + t) * G + grp) * N + n] += S[p * N + n] * dyAt(t, p);
          }
        // S_t = a_t S_{t-1} + x_t b_t^T.
        double dDecay = 0.0;
        for (int64_t p = 0; p < P; ++p)
          for (int64_t n = 0; n < N; ++n) {
            double d = D[p * N + n];
            g.dx[((bi * L + t) * H + h) * P + p] += d * bAt(t, n);
            g.db[((bi * L + t) * G + grp) * N + n] += d * xAt(t, p);
            dDecay += d * prev[p * N + n];
          }
        double a = decayAt(t);
        g.dlogA[(bi * L + t) * H + h] = a * dDecay;
        for (double &d : D)
          d *= a;
      }
      if (init)
        for (int64_t i = 0; i < P * N; ++i)
          g.dinit[stateOffset + i] = D[i];
    }
  }
  return g;
}

LinearAttentionGradients mixer::ref::linearAttentionGradients(
    const Tensor &q, const Tensor &k, const Tensor &v, const Tensor *logDecay,
    const Tensor *init, int64_t window, double scale, const Tensor *dout,
    const Tensor *dFinalState) {
  const char *fn = "linearAttentionGradients";
  detail::checkAttentionOperands(fn, q, k, v, init);
  int64_t B = q.dim(0), L = q.dim(1), H = q.dim(2), Dk = q.dim(3);
  int64_t Dv = v.dim(3);
  check(window >= 0, fn, "window must be non-negative");
  if (logDecay)
    checkShape(fn, "log_decay", *logDecay, {B, L, H});
  if (dout)
    checkShape(fn, "dout", *dout, {B, L, H, Dv});
  if (dFinalState)
    checkShape(fn, "d_final_state", *dFinalState, {B, H, Dk, Dv});
  // o_t reads the state `lag` tokens back (S_j for j < 0 is the init).
  int64_t lag = window > 0 ? window + 1 : 0;

  LinearAttentionGradients g{Tensor(q.shape), Tensor(k.shape),
                             Tensor(v.shape),
                             logDecay ? Tensor(logDecay->shape) : none(),
                             init ? Tensor(init->shape) : none()};
  for (int64_t bi = 0; bi < B; ++bi) {
    for (int64_t h = 0; h < H; ++h) {
      auto at = [&](const Tensor &t, int64_t l, int64_t i, int64_t width) {
        return t[((bi * L + l) * H + h) * width + i];
      };
      auto doutAt = [&](int64_t t, int64_t j) {
        return dout ? at(*dout, t, j, Dv) : 0.0;
      };
      auto decayAt = [&](int64_t t) {
        return logDecay ? std::exp((*logDecay)[(bi * L + t) * H + h]) : 1.0;
      };
      int64_t stateOffset = (bi * H + h) * Dk * Dv;
      std::vector<std::vector<double>> states =
          forwardStates(detail::stateOrZeros(init, stateOffset, Dk * Dv), L, Dk,
                        Dv, decayAt, [&](int64_t t, int64_t i, int64_t j) {
                          return at(k, t, i, Dk) * at(v, t, j, Dv);
                        });

      // o_t = scale S_{t-lag}^T q_t: q_t receives scale S_{t-lag} do_t.
      std::vector<double> dinit(Dk * Dv, 0.0);
      for (int64_t t = 0; t < L; ++t) {
        const std::vector<double> &S = states[std::max<int64_t>(t - lag, -1) + 1];
        for (int64_t i = 0; i < Dk; ++i) {
          double sum = 0.0;
          for (int64_t j = 0; j < Dv; ++j)
            sum += S[i * Dv + j] * doutAt(t, j);
          g.dq[((bi * L + t) * H + h) * Dk + i] = scale * sum;
        }
        // Queries before the window has passed read the init itself.
        if (t - lag < 0 && lag > 0)
          for (int64_t i = 0; i < Dk; ++i)
            for (int64_t j = 0; j < Dv; ++j)
              dinit[i * Dv + j] += scale * at(q, t, i, Dk) * doutAt(t, j);
      }

      std::vector<double> D =
          detail::stateOrZeros(dFinalState, stateOffset, Dk * Dv);
      for (int64_t t = L - 1; t >= 0; --t) {
        // S_t is read by o_{t+lag}.
        if (t + lag < L)
          for (int64_t i = 0; i < Dk; ++i)
            for (int64_t j = 0; j < Dv; ++j)
              D[i * Dv + j] +=
                  scale * at(q, t + lag, i, Dk) * doutAt(t + lag, j);
        // S_t = d_t S_{t-1} + k_t v_t^T.
        double dDecay = 0.0;
        for (int64_t i = 0; i < Dk; ++i)
          for (int64_t j = 0; j < Dv; ++j) {
            double d = D[i * Dv + j];
            g.dk[((bi * L + t) * H + h) * Dk + i] += d * at(v, t, j, Dv);
            g.dv[((bi * L + t) * H + h) * Dv + j] += d * at(k, t, i, Dk);
            dDecay += d * states[t][i * Dv + j];
          }
        double a = decayAt(t);
        if (logDecay)
          g.dlogDecay[(bi * L + t) * H + h] = a * dDecay;
        for (double &d : D)
          d *= a;
      }
      if (init)
        for (int64_t i = 0; i < Dk * Dv; ++i)
          g.dinit[stateOffset + i] = D[i] + dinit[i];
    }
  }
  return g;
}
