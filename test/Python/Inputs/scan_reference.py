"""The scans token by token in float64, from their definitions in
include/mixer/Dialect/Mixer/IR/MixerScanOps.td."""

import numpy as np


def f64(*arrays):
    return [None if a is None else np.asarray(a, dtype=np.float64) for a in arrays]


def selective_scan(u, delta, A, b, c, D=None, z=None, delta_bias=None,
                   delta_softplus=False, init=None):
    u, delta, A, b, c, D, z, delta_bias, init = f64(u, delta, A, b, c, D, z,
                                                    delta_bias, init)
    batch, length, channels = u.shape
    per_group = channels // b.shape[2]
    groups = np.arange(channels) // per_group
    h = np.zeros((batch, channels, A.shape[1])) if init is None else init.copy()
    y = np.zeros((batch, length, channels))
    for t in range(length):
        dt = delta[:, t] + (0 if delta_bias is None else delta_bias)
        if delta_softplus:
            dt = np.where(dt > 20, dt, np.log1p(np.exp(np.minimum(dt, 20))))
        h = (np.exp(dt[:, :, None] * A) * h
             + (dt * u[:, t])[:, :, None] * b[:, t][:, groups])
        y[:, t] = np.einsum("bdn,bdn->bd", h, c[:, t][:, groups])
        if D is not None:
            y[:, t] += D * u[:, t]
        if z is not None:
            y[:, t] *= z[:, t] / (1 + np.exp(-z[:, t]))
    return y, h


def linear_attention(q, k, v, log_decay=None, init=None, window=0, scale=1.0):
    q, k, v, log_decay, init = f64(q, k, v, log_decay, init)
    batch, length, heads, key_dim = q.shape
    state = (np.zeros((batch, heads, key_dim, v.shape[3])) if init is None
             else init.copy())
    states = []  # S_0 .. S_{L-1}
    o = np.zeros(v.shape)
    for t in range(length):
        decay = 1.0 if log_decay is None else np.exp(log_decay[:, t])[:, :, None, None]
        state = decay * state + np.einsum("bhk,bhv->bhkv", k[:, t], v[:, t])
        states.append(state)
        if window == 0:
            read = state
        elif t - window - 1 >= 0:
            read = states[t - window - 1]
        else:
            read = np.zeros_like(state) if init is None else init
        o[:, t] = scale * np.einsum("bhkv,bhk->bhv", read, q[:, t])
    return o, state


def gated_delta_rule(q, k, v, g, beta, init=None, scale=None):
    q, k, v, g, beta, init = f64(q, k, v, g, beta, init)
    batch, length, heads, key_dim = q.shape
    scale = key_dim ** -0.5 if scale is None else scale
    state = (np.zeros((batch, heads, key_dim, v.shape[3])) if init is None
             else init.copy())
    o = np.zeros(v.shape)
    for t in range(length):
        kt, bt = k[:, t], beta[:, t][:, :, None, None]
        # (I - beta k k^T) S = S - beta k (k^T S)
        state = np.exp(g[:, t])[:, :, None, None] * (
            state - bt * np.einsum("bhk,bhv->bhkv", kt, np.einsum("bhk,bhkv->bhv", kt, state)))
        state = state + bt * np.einsum("bhk,bhv->bhkv", kt, v[:, t])
        o[:, t] = scale * np.einsum("bhkv,bhk->bhv", state, q[:, t])
    return o, state
