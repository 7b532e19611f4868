#!/usr/bin/env python3
"""PyTorch CPU baseline of mixer.ssd: the chunked SSD algorithm of Mamba-2
(the "minimal" einsum + segment-sum formulation), written from the math.

    torch_ssd.py --threads 2 --repeat 10 --case NAME:B,L,H,P,G,N,Q,INIT ...

With --mode fwd+bwd: forward and the gradients of x, log_a, b, c (and
init) under autograd (impl "torch-chunked-fwd+bwd", see torch_common).

Prints one JSON object per line: first {"versions": {...}}, then one row per
case with the fields of mixer-bench's rows (impl "torch-chunked"). Inputs
have the value ranges of mixer-bench (x, b, c uniform in [-1, 1], log_a
uniform in [-1, 0), init uniform in [-1, 1]); the error is measured against
a token-by-token fp64 recurrence computed here.
"""

import torch

from torch_common import (arguments, fwd_bwd, fwd_bwd_row, measure, rel_error,
                          row, uniform)


def segsum(a):
    """a [..., T] -> [..., T, T] with out[i, j] = sum_{k=j+1..i} a[k] for
    i >= j and -inf above the diagonal. Computed from a masked cumulative sum
    (no difference of two large cumulative sums, so no cancellation)."""
    t = a.shape[-1]
    x = a.unsqueeze(-1).expand(*a.shape, t)  # x[..., i, j] = a[i]
    strict = torch.tril(torch.ones(t, t, dtype=torch.bool), diagonal=-1)
    x = x.masked_fill(~strict, 0)
    out = torch.cumsum(x, dim=-2)
    keep = torch.tril(torch.ones(t, t, dtype=torch.bool), diagonal=0)
    return out.masked_fill(~keep, float("-inf"))


def ssd_chunked(x, log_a, b, c, q, init=None):
    """x [B,L,H,P], log_a [B,L,H], b, c [B,L,G,N], init [B,H,P,N] or None.
    Returns y [B,L,H,P] and the final state [B,H,P,N]."""
    bsz, length, heads, p = x.shape
    groups, n = b.shape[2], b.shape[3]
    rep = heads // groups
    # Heads share their group's b and c.
    b = b.repeat_interleave(rep, dim=2)
    c = c.repeat_interleave(rep, dim=2)
    # Pad to whole chunks: x = 0, b = c = 0 and log_a = 0 leave the state
    # unchanged and add nothing.
    pad = (-length) % q
    if pad:
        x = torch.nn.functional.pad(x, (0, 0, 0, 0, 0, pad))
        log_a = torch.nn.functional.pad(log_a, (0, 0, 0, pad))
        b = torch.nn.functional.pad(b, (0, 0, 0, 0, 0, pad))
        c = torch.nn.functional.pad(c, (0, 0, 0, 0, 0, pad))
    chunks = (length + pad) // q
    x = x.reshape(bsz, chunks, q, heads, p)
    b = b.reshape(bsz, chunks, q, heads, n)
    c = c.reshape(bsz, chunks, q, heads, n)
    a = log_a.reshape(bsz, chunks, q, heads).permute(0, 3, 1, 2)  # [B,H,c,Q]
    a_cum = torch.cumsum(a, dim=-1)

    # 1. Intra-chunk (diagonal blocks): y = (C B^T * decay) x.
    decay = torch.exp(segsum(a))  # [B,H,c,Q,Q]
    scores = torch.einsum("bclhn,bcshn->bhcls", c, b) * decay
    y_diag = torch.einsum("bhcls,bcshp->bclhp", scores, x)

    # 2. The state each chunk produces on its own.
    decay_states = torch.exp(a_cum[..., -1:] - a_cum)  # [B,H,c,Q]
    states = torch.einsum("bclhn,bhcl,bclhp->bchpn", b, decay_states, x)

    # 3. Inter-chunk recurrence over the chunk boundaries.
    if init is None:
        init = torch.zeros(bsz, heads, p, n, dtype=x.dtype)
    states = torch.cat([init.unsqueeze(1), states], dim=1)  # [B,c+1,H,P,N]
    chunk_decay = torch.exp(
        segsum(torch.nn.functional.pad(a_cum[..., -1], (1, 0))))  # [B,H,c+1,c+1]
    new_states = torch.einsum("bhzc,bchpn->bzhpn", chunk_decay, states)
    states, final = new_states[:, :-1], new_states[:, -1]

    # 4. The incoming state's contribution to each token.
    state_decay = torch.exp(a_cum)  # [B,H,c,Q]
    y_off = torch.einsum("bclhn,bchpn,bhcl->bclhp", c, states, state_decay)

    y = (y_diag + y_off).reshape(bsz, chunks * q, heads, p)[:, :length]
    return y, final


def ssd_recurrent_fp64(x, log_a, b, c, init):
    """S_t = exp(log_a_t) S_{t-1} + x_t b_t^T, y_t = S_t c_t, in fp64."""
    x, log_a, b, c = x.double(), log_a.double(), b.double(), c.double()
    bsz, length, heads, p = x.shape
    rep = heads // b.shape[2]
    b = b.repeat_interleave(rep, dim=2)
    c = c.repeat_interleave(rep, dim=2)
    s = (init.double() if init is not None else
         torch.zeros(bsz, heads, p, b.shape[-1], dtype=torch.float64))
    ys = []
    for t in range(length):
        s = (torch.exp(log_a[:, t])[..., None, None] * s
             + x[:, t, :, :, None] * b[:, t, :, None, :])
        ys.append(torch.einsum("bhpn,bhn->bhp", s, c[:, t]))
    return torch.stack(ys, dim=1), s


def flops(bsz, length, heads, p, n, q):
    """The nominal count mixer-bench uses (q = min(Q, L))."""
    q = min(q, length)
    return bsz * length * heads * (2 * q * n + 2 * q * p + 4 * n * p)


def main():
    args = arguments(__doc__, None, case_help="NAME:B,L,H,P,G,N,Q,INIT")
    for spec in args.case:
        name, dims = spec.split(":")
        bsz, length, heads, p, groups, n, q, has_init = map(int, dims.split(","))
        shapes = (f"B={bsz} L={length} H={heads} P={p} G={groups} N={n} Q={q}"
                  + (" init" if has_init else ""))
        x = uniform(bsz, length, heads, p)
        log_a = uniform(bsz, length, heads, lo=-1.0, hi=0.0)
        b = uniform(bsz, length, groups, n)
        c = uniform(bsz, length, groups, n)
        init = uniform(bsz, heads, p, n) if has_init else None
        if fwd_bwd():
            fwd_bwd_row("ssd", name, "torch-chunked", shapes,
                        lambda x, la, b, c, *h: ssd_chunked(
                            x, la, b, c, q, h[0] if h else None),
                        [x, log_a, b, c] + ([init] if has_init else []),
                        args.repeat, 1e-4, "scans")
            continue
        out, times = measure(lambda: ssd_chunked(x, log_a, b, c, q, init),
                             args.repeat)
        with torch.inference_mode():
            ref = ssd_recurrent_fp64(x, log_a, b, c, init)
        row("ssd", name, "torch-chunked", shapes, times, rel_error(out, ref),
            1e-4, "scans", flops=flops(bsz, length, heads, p, n, q))


if __name__ == "__main__":
    main()
