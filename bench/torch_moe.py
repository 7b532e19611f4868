#!/usr/bin/env python3
"""PyTorch CPU baselines of mixer's MoE ops, written from the math of each op:

    torch_moe.py grouped_matmul --threads 2 --repeat 10 --case NAME:T=4096,K=512,N=512,E=8
    torch_moe.py grouped_swiglu ... --case NAME:T=4096,K=512,F=1024,E=8
    torch_moe.py topk_router    ... --case NAME:T=4096,E=8,k=2[,normalize]
    torch_moe.py moe_dispatch   ... --case NAME:T=4096,K=512,E=8,k=2
    torch_moe.py moe_combine    ... --case NAME:T=4096,N=512,E=8,k=2

grouped_matmul and grouped_swiglu (impl torch-loop): a loop over experts,
one torch.mm per expert on its slab of rows. The group sizes are uneven and
the same as mixer-bench's (group_sizes below). Beside it (forward only),
impl openblas-loop (not with --torch-only): the same loop of numpy
matmuls on numpy's OpenBLAS
(openblas_loop.py), with its version, core type and threads; a row with
the reason when numpy or OpenBLAS is missing. The routing ops
(impl torch): softmax + topk; a stable argsort of the expert ids and a
gather; a weighted index_add.

With --mode fwd+bwd, grouped_matmul, grouped_swiglu and moe_combine are
timed forward and backward under autograd, w.r.t. their float inputs
(impl "<impl>-fwd+bwd", see torch_common; grouped_matmul then writes its
groups with torch.cat, as torch.mm(out=) takes no gradient).

Inputs have mixer-bench's value ranges (activations and weights uniform in
[-1, 1) scaled by 1/sqrt(K), logits uniform in [-2, 2)); the error is
measured against an fp64 computation done here. Prints {"versions": ...}
and one JSON row per case.
"""

import json
import math

import torch
import torch.nn.functional as F

import openblas_loop

from torch_common import (fwd_bwd, fwd_bwd_row, measure, rel_error, row,
                          run_benches, shape_string, torch_only, uniform)

TOL = 1e-5


def group_sizes(tokens, experts):
    """Uneven sizes summing to `tokens`: proportional to 1 + (5 e mod E)
    (a permutation of 1..E when E is odd or a power of two), the rounding
    remainder on the last group. mixer-bench's MoE families use the same."""
    w = [1 + (5 * e) % experts for e in range(experts)]
    sizes = [tokens * we // sum(w) for we in w]
    sizes[-1] += tokens - sum(sizes)
    return sizes


def grouped_matmul(lhs, rhs, sizes):
    """lhs [T,K] sorted by group, rhs [E,K,N] -> [T,N]; rows past the sum of
    the sizes are zero."""
    out = torch.zeros(lhs.shape[0], rhs.shape[2], dtype=lhs.dtype)
    start = 0
    for e, size in enumerate(sizes):
        if size:
            torch.mm(lhs[start:start + size], rhs[e], out=out[start:start + size])
        start += size
    return out


def grouped_matmul_differentiable(lhs, rhs, sizes):
    """grouped_matmul with the groups concatenated (autograd-friendly)."""
    parts, start = [], 0
    for e, size in enumerate(sizes):
        parts.append(lhs[start:start + size] @ rhs[e])
        start += size
    rest = lhs.shape[0] - start
    if rest:
        parts.append(lhs.new_zeros(rest, rhs.shape[2]))
    return torch.cat(parts)


def grouped_swiglu(x, w_gate, w_up, sizes):
    """silu(x W_gate[e]) * (x W_up[e]) on the rows of group e."""
    out = torch.zeros(x.shape[0], w_gate.shape[2], dtype=x.dtype)
    start = 0
    for e, size in enumerate(sizes):
        if size:
            rows = x[start:start + size]
            out[start:start + size] = F.silu(rows @ w_gate[e]) * (rows @ w_up[e])
        start += size
    return out


def openblas_row(op, name, shapes, flops, ref, run, repeat):
    """The openblas-loop row of a case: `run(np)` returns the loop's output
    (fp32) after setting up its arrays; `ref` the fp64 torch reference.
    Nothing with --torch-only."""
    if torch_only():
        return
    try:
        np, info = openblas_loop.openblas()
    except RuntimeError as e:
        print(json.dumps({"op": op, "case": name, "impl": "openblas-loop",
                          "shapes": shapes, "library": "openblas",
                          "version": "not installed", "status": "error",
                          "reason": str(e)}), flush=True)
        return
    print(json.dumps({"versions": {"openblas": info["version"],
                                   "openblas_core": info["core"],
                                   "openblas_threads": info["threads"]}}),
          flush=True)
    call = run(np)
    out, times = measure(call, repeat)
    row(op, name, "openblas-loop", shapes, times,
        rel_error((torch.from_numpy(out),), (ref,)), TOL, "grouped GEMM",
        flops=flops, library={"library": "openblas",
                              "version": f"{info['version']} ({info['core']}, "
                                         f"{info['threads']} threads)"})


def bench_grouped_matmul(name, d, flags, repeat):
    t, k, n, e = d["T"], d["K"], d["N"], d["E"]
    sizes = group_sizes(t, e)
    lhs = uniform(t, k)
    rhs = uniform(e, k, n) / math.sqrt(k)
    if fwd_bwd():
        fwd_bwd_row("grouped_matmul", name, "torch-loop", shape_string(d, flags),
                    lambda lhs, rhs: (grouped_matmul_differentiable(lhs, rhs, sizes),),
                    [lhs, rhs], repeat, TOL, "grouped GEMM")
        return
    out, times = measure(lambda: grouped_matmul(lhs, rhs, sizes), repeat)
    ref = grouped_matmul(lhs.double(), rhs.double(), sizes)
    flops = 2 * sum(sizes) * k * n
    row("grouped_matmul", name, "torch-loop", shape_string(d, flags), times,
        rel_error((out,), (ref,)), TOL, "grouped GEMM", flops=flops)

    def run(np):
        a, w = lhs.numpy(), rhs.numpy()
        o = np.empty((t, n), np.float32)
        return lambda: openblas_loop.grouped_matmul(np, a, w, sizes, o)
    openblas_row("grouped_matmul", name, shape_string(d, flags), flops, ref,
                 run, repeat)


def bench_grouped_swiglu(name, d, flags, repeat):
    t, k, f, e = d["T"], d["K"], d["F"], d["E"]
    sizes = group_sizes(t, e)
    x = uniform(t, k)
    w_gate = uniform(e, k, f) / math.sqrt(k)
    w_up = uniform(e, k, f) / math.sqrt(k)
    if fwd_bwd():
        fwd_bwd_row("grouped_swiglu", name, "torch-loop", shape_string(d, flags),
                    lambda x, wg, wu: (grouped_swiglu(x, wg, wu, sizes),),
                    [x, w_gate, w_up], repeat, TOL, "grouped GEMM")
        return
    out, times = measure(lambda: grouped_swiglu(x, w_gate, w_up, sizes), repeat)
    ref = grouped_swiglu(x.double(), w_gate.double(), w_up.double(), sizes)
    flops = 4 * sum(sizes) * k * f
    row("grouped_swiglu", name, "torch-loop", shape_string(d, flags), times,
        rel_error((out,), (ref,)), TOL, "grouped GEMM", flops=flops)

    def run(np):
        a, wg, wu = x.numpy(), w_gate.numpy(), w_up.numpy()
        gate, up, o = (np.empty((t, f), np.float32) for _ in range(3))
        return lambda: openblas_loop.grouped_swiglu(np, a, wg, wu, sizes,
                                                    gate, up, o)
    openblas_row("grouped_swiglu", name, shape_string(d, flags), flops, ref,
                 run, repeat)


def topk_router(logits, k, normalize):
    probs = torch.softmax(logits, dim=-1)
    weights, ids = torch.topk(probs, k, dim=-1)  # descending
    if normalize:
        weights = weights / weights.sum(-1, keepdim=True)
    return weights, ids.to(torch.int32)


def bench_topk_router(name, d, flags, repeat):
    t, e, k = d["T"], d["E"], d["k"]
    normalize = "normalize" in flags
    logits = uniform(t, e, lo=-2.0, hi=2.0)
    (w, ids), times = measure(lambda: topk_router(logits, k, normalize), repeat)
    w_ref, ids_ref = topk_router(logits.double(), k, normalize)
    rel = rel_error((w,), (w_ref,))
    if rel != "inf" and not torch.equal(ids, ids_ref):
        rel = max(rel, 1.0)  # a wrong expert
    bytes_ = t * e * 4 + t * k * 8
    row("topk_router", name, "torch", shape_string(d, flags), times, rel, TOL,
        "moe routing", bytes_=bytes_)


def moe_dispatch(x, ids, experts):
    """Slots a = t*k + j stably sorted by expert; sorted row r = x[perm[r] // k]."""
    k = ids.shape[1]
    flat = ids.reshape(-1).long()
    perm = torch.sort(flat, stable=True).indices
    sizes = torch.bincount(flat, minlength=experts)
    return x[perm // k], sizes, perm.to(torch.int32)


def routing_ids(t, e, k):
    """k distinct experts per token, drawn uniformly."""
    return torch.rand(t, e).argsort(dim=-1)[:, :k].to(torch.int32)


def bench_moe_dispatch(name, d, flags, repeat):
    t, kdim, e, k = d["T"], d["K"], d["E"], d["k"]
    x = uniform(t, kdim)
    ids = routing_ids(t, e, k)
    (s, sizes, perm), times = measure(lambda: moe_dispatch(x, ids, e), repeat)
    s_ref, sizes_ref, perm_ref = moe_dispatch(x.double(), ids, e)
    rel = rel_error((s,), (s_ref,))
    if rel != "inf" and not (torch.equal(sizes, sizes_ref) and torch.equal(perm, perm_ref)):
        rel = max(rel, 1.0)
    bytes_ = 2 * t * k * kdim * 4 + t * k * 8
    row("moe_dispatch", name, "torch", shape_string(d, flags), times, rel, TOL,
        "moe routing", bytes_=bytes_)


def moe_combine(expert_out, perm, weights):
    """out[t] = sum_j weights[t, j] expert_out[r] where perm[r] = t*k + j."""
    t, k = weights.shape
    p = perm.long()
    scaled = expert_out * weights.reshape(-1)[p][:, None]
    out = torch.zeros(t, expert_out.shape[1], dtype=expert_out.dtype)
    return out.index_add_(0, p // k, scaled)


def bench_moe_combine(name, d, flags, repeat):
    t, n, e, k = d["T"], d["N"], d["E"], d["k"]
    ids = routing_ids(t, e, k)
    perm = torch.sort(ids.reshape(-1).long(), stable=True).indices.to(torch.int32)
    expert_out = uniform(t * k, n)
    weights = uniform(t, k, lo=0.0, hi=1.0)
    if fwd_bwd():
        fwd_bwd_row("moe_combine", name, "torch", shape_string(d, flags),
                    lambda eo, w: (moe_combine(eo, perm, w),),
                    [expert_out, weights], repeat, TOL, "moe routing")
        return
    out, times = measure(lambda: moe_combine(expert_out, perm, weights), repeat)
    ref = moe_combine(expert_out.double(), perm, weights.double())
    bytes_ = t * k * n * 4 + t * n * 4 + t * k * 8
    row("moe_combine", name, "torch", shape_string(d, flags), times,
        rel_error((out,), (ref,)), TOL, "moe routing", bytes_=bytes_)


BENCHES = {
    "grouped_matmul": bench_grouped_matmul,
    "grouped_swiglu": bench_grouped_swiglu,
    "topk_router": bench_topk_router,
    "moe_dispatch": bench_moe_dispatch,
    "moe_combine": bench_moe_combine,
}


if __name__ == "__main__":
    run_benches(__doc__, BENCHES)
