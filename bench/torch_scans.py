#!/usr/bin/env python3
"""PyTorch CPU baselines of mixer's scans other than ssd, written from the
math of each op:

    torch_scans.py linear_attention --threads 2 --repeat 10 --case NAME:B=1,L=512,H=8,Dk=64,Dv=64,Q=64,decay
    torch_scans.py selective_scan   ... --case NAME:B=1,L=512,D=1536,G=1,N=16,options
    torch_scans.py gated_delta_rule ... --case NAME:B=1,L=512,H=8,Dk=64,Dv=64,Q=64

- linear_attention (impl torch-chunked): the chunked form with einsum:
  intra-chunk scores (q k^T masked by the decay between positions), chunk
  states, a loop over chunk boundaries, and the incoming state's part.
- selective_scan (impl torch-loop): a sequential loop over L, each step
  vectorized over B, D and N (Mamba-1's recurrence, without materializing
  exp(dt A) for every token).
- gated_delta_rule (impl torch-loop): the recurrent delta rule, a loop over
  L vectorized over B and H.

With --mode fwd+bwd each op is timed forward and backward under autograd,
w.r.t. every float input (impl "<impl>-fwd+bwd", see torch_common).

Inputs have mixer-bench's value ranges (see the *Bench.cpp files); the error
is measured against an fp64 token-by-token recurrence computed here. Prints
{"versions": ...} and one JSON row per case.
"""

import math

import torch
import torch.nn.functional as F

from torch_common import (fwd_bwd, fwd_bwd_row, measure, rel_error, row,
                          run_benches, shape_string, uniform)

TOL = 1e-4


# --------------------------------------------------------------------------
# linear_attention:  S_t = exp(a_t) S_{t-1} + k_t v_t^T,  o_t = scale S_t^T q_t
# --------------------------------------------------------------------------

def within_chunk_decay(a):
    """a [..., Q] (log decays of one chunk) -> [..., Q, Q] with
    out[i, j] = exp(sum_{m=j+1..i} a[m]) for i >= j and 0 above the diagonal.
    The sums are taken along masked columns (no difference of two long
    cumulative sums, so no cancellation)."""
    q = a.shape[-1]
    below = torch.tril(torch.ones(q, q, dtype=torch.bool), diagonal=-1)
    cols = a.unsqueeze(-1).expand(*a.shape, q).masked_fill(~below, 0.0)
    sums = torch.cumsum(cols, dim=-2)  # sums[i, j] = sum_{m=j+1..i} a[m]
    causal = torch.tril(torch.ones(q, q, dtype=torch.bool))
    return torch.exp(sums).masked_fill(~causal, 0.0)


def linear_attention_chunked(q, k, v, log_decay, init, chunk, scale):
    """q, k [B,L,H,Dk], v [B,L,H,Dv], log_decay [B,L,H] or None, init
    [B,H,Dk,Dv] or None -> o [B,L,H,Dv], final state [B,H,Dk,Dv]."""
    bsz, length, heads, dk = q.shape
    dv = v.shape[-1]
    if log_decay is None:
        log_decay = torch.zeros(bsz, length, heads, dtype=q.dtype)
    pad = (-length) % chunk
    if pad:  # zero q, k, v and zero log decay leave the state unchanged
        q, k, v = (F.pad(t, (0, 0, 0, 0, 0, pad)) for t in (q, k, v))
        log_decay = F.pad(log_decay, (0, 0, 0, pad))
    n = (length + pad) // chunk
    q = q.reshape(bsz, n, chunk, heads, dk)
    k = k.reshape(bsz, n, chunk, heads, dk)
    v = v.reshape(bsz, n, chunk, heads, dv)
    a = log_decay.reshape(bsz, n, chunk, heads).permute(0, 3, 1, 2)  # [B,H,n,Q]
    a_cum = torch.cumsum(a, dim=-1)

    # Within each chunk: o_i += sum_{j<=i} decay(i, j) (q_i . k_j) v_j.
    scores = torch.einsum("bcihd,bcjhd->bhcij", q, k) * within_chunk_decay(a)
    o = torch.einsum("bhcij,bcjhe->bcihe", scores, v)

    # The state each chunk adds on its own (decayed to the chunk's end).
    to_end = torch.exp(a_cum[..., -1:] - a_cum)  # [B,H,n,Q]
    chunk_states = torch.einsum("bcjhd,bhcj,bcjhe->bchde", k, to_end, v)

    # Across chunk boundaries, one chunk at a time.
    s = (init.clone() if init is not None
         else torch.zeros(bsz, heads, dk, dv, dtype=q.dtype))
    incoming = []
    chunk_decay = torch.exp(a_cum[..., -1])  # [B,H,n]
    for c in range(n):
        incoming.append(s)
        s = chunk_decay[:, :, c, None, None] * s + chunk_states[:, c]
    incoming = torch.stack(incoming, dim=1)  # [B,n,H,Dk,Dv]

    # The incoming state seen from each position, decayed from the start.
    from_start = torch.exp(a_cum)  # [B,H,n,Q]
    o = o + torch.einsum("bcihd,bchde,bhci->bcihe", q, incoming, from_start)
    o = (scale * o).reshape(bsz, n * chunk, heads, dv)[:, :length]
    return o, s


def linear_attention_fp64(q, k, v, log_decay, init, scale):
    q, k, v = q.double(), k.double(), v.double()
    bsz, length, heads, dk = q.shape
    s = (init.double() if init is not None
         else torch.zeros(bsz, heads, dk, v.shape[-1], dtype=torch.float64))
    outs = []
    for t in range(length):
        if log_decay is not None:
            s = torch.exp(log_decay[:, t].double())[..., None, None] * s
        s = s + k[:, t, :, :, None] * v[:, t, :, None, :]
        outs.append(scale * torch.einsum("bhde,bhd->bhe", s, q[:, t]))
    return torch.stack(outs, dim=1), s


def bench_linear_attention(name, d, flags, repeat):
    bsz, length, heads, dk, dv, chunk = (d[x] for x in ("B", "L", "H", "Dk", "Dv", "Q"))
    scale = 1.0 / math.sqrt(dk)
    q = uniform(bsz, length, heads, dk)
    k = uniform(bsz, length, heads, dk)
    v = uniform(bsz, length, heads, dv)
    log_decay = uniform(bsz, length, heads, lo=-1.0, hi=0.0) if "decay" in flags else None
    init = uniform(bsz, heads, dk, dv) if "init" in flags else None
    if fwd_bwd():
        inputs = [t for t in (q, k, v, log_decay, init) if t is not None]

        def forward(q, k, v, *rest):
            rest = list(rest)
            la = rest.pop(0) if log_decay is not None else None
            h = rest.pop(0) if init is not None else None
            return linear_attention_chunked(q, k, v, la, h, chunk, scale)
        fwd_bwd_row("linear_attention", name, "torch-chunked",
                    shape_string(d, flags), forward, inputs, repeat, TOL,
                    "scans")
        return
    (o, s), times = measure(
        lambda: linear_attention_chunked(q, k, v, log_decay, init, chunk, scale), repeat)
    ref = linear_attention_fp64(q, k, v, log_decay, init, scale)
    qq = min(chunk, length)
    flops = bsz * length * heads * (2 * qq * (dk + dv) + 4 * dk * dv)
    row("linear_attention", name, "torch-chunked", shape_string(d, flags), times,
        rel_error((o, s), ref), TOL, "scans", flops=flops)


# --------------------------------------------------------------------------
# selective_scan (Mamba-1)
# --------------------------------------------------------------------------

def selective_scan_loop(u, delta, A, b, c, d_skip, z, delta_bias, init, softplus):
    """u, delta [B,L,D], A [D,N], b, c [B,L,G,N]; the optional operands may
    be None. A loop over L; every step works on [B,D,N] at once."""
    bsz, length, dim = u.shape
    groups, n = b.shape[2], b.shape[3]
    dt = delta if delta_bias is None else delta + delta_bias
    if softplus:
        dt = F.softplus(dt)  # log1p(exp(x)), x itself above 20
    dtu = dt * u
    # Channel d reads group d // (D / G).
    group_of = torch.arange(dim) // (dim // groups)
    h = (init.clone() if init is not None
         else torch.zeros(bsz, dim, n, dtype=u.dtype))
    ys = torch.empty(bsz, length, dim, dtype=u.dtype)
    for t in range(length):
        decay = torch.exp(dt[:, t, :, None] * A)  # [B,D,N]
        bt = b[:, t][:, group_of]  # [B,D,N]
        ct = c[:, t][:, group_of]
        h = decay * h + dtu[:, t, :, None] * bt
        ys[:, t] = (h * ct).sum(-1)
    if d_skip is not None:
        ys = ys + d_skip * u
    if z is not None:
        ys = ys * F.silu(z)
    return ys, h


def selective_scan_inputs(bsz, length, dim, groups, n, options):
    """mixer-bench's ranges: with the options, dt = softplus(delta + bias)
    with delta in [-1, 1) and bias in [-4, -2); without, delta in
    [0.001, 0.1) is dt itself. A in [-2, -0.5)."""
    u = uniform(bsz, length, dim)
    if options:
        delta = uniform(bsz, length, dim)
    else:
        delta = uniform(bsz, length, dim, lo=0.001, hi=0.1)
    A = uniform(dim, n, lo=-2.0, hi=-0.5)
    b = uniform(bsz, length, groups, n)
    c = uniform(bsz, length, groups, n)
    extra = (None, None, None)
    if options:
        extra = (uniform(dim), uniform(bsz, length, dim), uniform(dim, lo=-4.0, hi=-2.0))
    return u, delta, A, b, c, extra


def bench_selective_scan(name, d, flags, repeat):
    bsz, length, dim, groups, n = (d[x] for x in ("B", "L", "D", "G", "N"))
    options = "options" in flags
    u, delta, A, b, c, (d_skip, z, bias) = selective_scan_inputs(
        bsz, length, dim, groups, n, options)
    init = uniform(bsz, dim, n) if "init" in flags else None
    if fwd_bwd():
        optional = (d_skip, z, bias, init)
        inputs = [u, delta, A, b, c] + [t for t in optional if t is not None]

        def forward(u, delta, A, b, c, *rest):
            rest = list(rest)
            opt = [rest.pop(0) if t is not None else None for t in optional]
            return selective_scan_loop(u, delta, A, b, c, *opt, options)
        fwd_bwd_row("selective_scan", name, "torch-loop",
                    shape_string(d, flags), forward, inputs, repeat, TOL,
                    "scans")
        return
    (y, h), times = measure(
        lambda: selective_scan_loop(u, delta, A, b, c, d_skip, z, bias, init, options),
        repeat)
    dbl = lambda t: t.double() if t is not None else None
    ref = selective_scan_loop(*(dbl(t) for t in (u, delta, A, b, c, d_skip, z, bias, init)),
                              options)
    flops = 6 * bsz * length * dim * n
    row("selective_scan", name, "torch-loop", shape_string(d, flags), times,
        rel_error((y, h), ref), TOL, "scans", flops=flops)


# --------------------------------------------------------------------------
# gated_delta_rule:  S_t = exp(g_t) (I - beta_t k_t k_t^T) S_{t-1} + beta_t k_t v_t^T
# --------------------------------------------------------------------------

def gated_delta_rule_loop(q, k, v, g, beta, init, scale):
    """The recurrence written as a delta-rule correction: with
    S' = exp(g_t) S_{t-1},  S_t = S' + beta_t k_t (v_t - S'^T k_t)^T."""
    bsz, length, heads, dk = q.shape
    dv = v.shape[-1]
    s = (init.clone() if init is not None
         else torch.zeros(bsz, heads, dk, dv, dtype=q.dtype))
    outs = torch.empty(bsz, length, heads, dv, dtype=q.dtype)
    decay = torch.exp(g)
    for t in range(length):
        s = decay[:, t, :, None, None] * s
        kt = k[:, t]  # [B,H,Dk]
        predicted = torch.einsum("bhde,bhd->bhe", s, kt)
        correction = beta[:, t, :, None] * (v[:, t] - predicted)  # [B,H,Dv]
        s = s + kt[..., None] * correction[:, :, None, :]
        outs[:, t] = scale * torch.einsum("bhde,bhd->bhe", s, q[:, t])
    return outs, s


def gated_delta_rule_inputs(bsz, length, heads, dk, dv):
    """q, v in [-1, 1); k in [-1, 1) scaled to unit length per head (as the
    models do, so that I - beta k k^T is a contraction); g in [-1, 0);
    beta in [0, 1)."""
    q = uniform(bsz, length, heads, dk)
    k = uniform(bsz, length, heads, dk)
    k = k / k.norm(dim=-1, keepdim=True)
    v = uniform(bsz, length, heads, dv)
    g = uniform(bsz, length, heads, lo=-1.0, hi=0.0)
    beta = uniform(bsz, length, heads, lo=0.0, hi=1.0)
    return q, k, v, g, beta


def bench_gated_delta_rule(name, d, flags, repeat):
    bsz, length, heads, dk, dv = (d[x] for x in ("B", "L", "H", "Dk", "Dv"))
    scale = 1.0 / math.sqrt(dk)
    q, k, v, g, beta = gated_delta_rule_inputs(bsz, length, heads, dk, dv)
    init = uniform(bsz, heads, dk, dv) if "init" in flags else None
    if fwd_bwd():
        fwd_bwd_row("gated_delta_rule", name, "torch-loop",
                    shape_string(d, flags),
                    lambda q, k, v, g, beta, *h: gated_delta_rule_loop(
                        q, k, v, g, beta, h[0] if h else None, scale),
                    [q, k, v, g, beta] + ([init] if init is not None else []),
                    repeat, TOL, "scans")
        return
    (o, s), times = measure(
        lambda: gated_delta_rule_loop(q, k, v, g, beta, init, scale), repeat)
    ref = gated_delta_rule_loop(*(t.double() for t in (q, k, v, g, beta)),
                                init.double() if init is not None else None, scale)
    flops = 6 * bsz * length * heads * dk * dv
    row("gated_delta_rule", name, "torch-loop", shape_string(d, flags), times,
        rel_error((o, s), ref), TOL, "scans", flops=flops)


BENCHES = {
    "linear_attention": bench_linear_attention,
    "selective_scan": bench_selective_scan,
    "gated_delta_rule": bench_gated_delta_rule,
}


if __name__ == "__main__":
    run_benches(__doc__, BENCHES)
