#!/usr/bin/env python3
"""PyTorch CPU baselines of mixer's kernel reductions, written from the
math of each op:

    torch_kernels.py kernel_lse --threads 2 --repeat 10 --case NAME:N=1024,M=1024,D=3,sqeuclidean[,g]
    torch_kernels.py kernel_mv  ... --case NAME:N=1024,M=1024,D=3,C=16,gaussian
    torch_kernels.py sinkhorn   ... --case NAME:N=1024,M=1024,D=3,I=20,sqeuclidean
    torch_kernels.py transport_cost ... --case NAME:N=1024,M=1024,D=3,sqeuclidean

Two forms of kernel_lse and kernel_mv: torch-dense materializes the N x M
cost or kernel matrix (torch.cdist, then exp and a matmul, or logsumexp);
torch-blocked does the same on blocks of rows, so that a block stays in
cache. sinkhorn (torch-dense) builds the cost matrix once per call, then
iterates log-domain updates with logsumexp. transport_cost (torch-dense,
torch-blocked) forms the cost matrix and the plan exp(log_u + log_v - C / eps),
then sums P * C over each row.

With --mode fwd+bwd, kernel_lse and kernel_mv are timed forward and
backward under autograd, w.r.t. x, y and g or v (impl "<impl>-fwd+bwd",
see torch_common). sinkhorn's is mixer's formulation: the iterations
without autograd, then the envelope-theorem gradient of the OT value
<a, f> + <b, g> w.r.t. x, y, log_a and log_b through a surrogate whose
autograd gives sum_j P_ij grad c and a_i f_i (the plan and the potentials
held fixed).

Inputs have mixer-bench's value ranges (points uniform in the unit cube,
v and g uniform in [-1, 1), eps 0.1, bandwidth 0.5, uniform marginals,
log_u and log_v uniform within 1 of -log(n)); the
error is measured against an fp64 dense computation done here. Prints
{"versions": ...} and one JSON row per case and form.
"""

import math

import torch

from torch_common import (fwd_bwd, fwd_bwd_row, measure, rel_error, row,
                          run_benches, shape_string, uniform)

TOL = 1e-5
EPS = 0.1
BANDWIDTH = 0.5
ROW_BLOCK = 256
KINDS = ("gaussian", "laplacian", "matern32", "inverse_multiquadric", "linear",
         "sqeuclidean")


def kind_of(flags):
    kinds = [f for f in flags if f in KINDS]
    return kinds[0] if kinds else "sqeuclidean"


def sq_dist(x, y):
    """||x_i - y_j||^2 [N,M], clamped at 0 (cdist's matmul form may round
    below)."""
    return torch.cdist(x, y).square().clamp_min(0)


def cost(kind, x, y):
    """c(x, y) of kernel_lse and sinkhorn."""
    r2 = sq_dist(x, y)
    if kind == "sqeuclidean":
        return r2
    if kind == "gaussian":
        return 0.5 * r2
    if kind == "laplacian":
        return r2.sqrt()
    raise ValueError(f"{kind} is not a cost")


def kernel(kind, x, y, h):
    """k(x, y) of kernel_mv."""
    if kind == "linear":
        return x @ y.T
    r2 = sq_dist(x, y)
    if kind == "gaussian":
        return torch.exp(r2 * (-0.5 / (h * h)))
    r = r2.sqrt()
    if kind == "laplacian":
        return torch.exp(-r / h)
    if kind == "matern32":
        s = math.sqrt(3.0) * r / h
        return (1 + s) * torch.exp(-s)
    if kind == "inverse_multiquadric":
        return torch.rsqrt(1 + r2 / (h * h))
    raise ValueError(f"{kind} is not a kernel")


def blocked(fn, x, *rest):
    """fn on blocks of ROW_BLOCK rows of x, concatenated."""
    return torch.cat([fn(x[i:i + ROW_BLOCK], *rest)
                      for i in range(0, x.shape[0], ROW_BLOCK)])


# --------------------------------------------------------------------------
# kernel_lse: out_i = log sum_j exp(-c(x_i, y_j) / eps + g_j)
# --------------------------------------------------------------------------

def kernel_lse(kind, x, y, g, eps):
    a = cost(kind, x, y) / -eps
    if g is not None:
        a = a + g
    return torch.logsumexp(a, dim=1)


def bench_kernel_lse(name, d, flags, repeat):
    n, m, dim = d["N"], d["M"], d["D"]
    kind = kind_of(flags)
    x, y = uniform(n, dim, lo=0.0), uniform(m, dim, lo=0.0)
    g = uniform(m) if "g" in flags else None
    if fwd_bwd():
        inputs = [x, y] + ([g] if g is not None else [])
        for impl, fn in (
                ("torch-dense", lambda x, y, *g: (kernel_lse(
                    kind, x, y, g[0] if g else None, EPS),)),
                ("torch-blocked", lambda x, y, *g: (blocked(
                    lambda xb: kernel_lse(kind, xb, y, g[0] if g else None,
                                          EPS), x),))):
            fwd_bwd_row("kernel_lse", name, impl, shape_string(d, flags), fn,
                        inputs, repeat, TOL, "kernel sums")
        return
    ref = kernel_lse(kind, x.double(), y.double(),
                     g.double() if g is not None else None, EPS)
    flops = n * m * (3 * dim + 3)
    for impl, fn in (("torch-dense", lambda: kernel_lse(kind, x, y, g, EPS)),
                     ("torch-blocked", lambda: blocked(
                         lambda xb: kernel_lse(kind, xb, y, g, EPS), x))):
        out, times = measure(fn, repeat)
        row("kernel_lse", name, impl, shape_string(d, flags), times,
            rel_error((out,), (ref,)), TOL, "kernel sums", flops=flops)


# --------------------------------------------------------------------------
# kernel_mv: out_i = sum_j k(x_i, y_j) v_j
# --------------------------------------------------------------------------

def bench_kernel_mv(name, d, flags, repeat):
    n, m, dim, ch = d["N"], d["M"], d["D"], d["C"]
    kind = kind_of(flags)
    x, y = uniform(n, dim, lo=0.0), uniform(m, dim, lo=0.0)
    v = uniform(m, ch)
    if fwd_bwd():
        for impl, fn in (
                ("torch-dense",
                 lambda x, y, v: (kernel(kind, x, y, BANDWIDTH) @ v,)),
                ("torch-blocked", lambda x, y, v: (blocked(
                    lambda xb: kernel(kind, xb, y, BANDWIDTH) @ v, x),))):
            fwd_bwd_row("kernel_mv", name, impl, shape_string(d, flags), fn,
                        [x, y, v], repeat, TOL, "kernel sums")
        return
    ref = kernel(kind, x.double(), y.double(), BANDWIDTH) @ v.double()
    flops = n * m * (3 * dim + 2 + 2 * ch)
    for impl, fn in (("torch-dense", lambda: kernel(kind, x, y, BANDWIDTH) @ v),
                     ("torch-blocked", lambda: blocked(
                         lambda xb: kernel(kind, xb, y, BANDWIDTH) @ v, x))):
        out, times = measure(fn, repeat)
        row("kernel_mv", name, impl, shape_string(d, flags), times,
            rel_error((out,), (ref,)), TOL, "kernel sums", flops=flops)


# --------------------------------------------------------------------------
# transport_cost: out_i = sum_j exp(log_u_i + log_v_j - C_ij / eps) C_ij
# --------------------------------------------------------------------------

def transport_cost(kind, x, y, log_u, log_v, eps):
    c = cost(kind, x, y)
    return (torch.exp(log_u[:, None] + log_v - c / eps) * c).sum(dim=1)


def bench_transport_cost(name, d, flags, repeat):
    n, m, dim = d["N"], d["M"], d["D"]
    kind = kind_of(flags)
    x, y = uniform(n, dim, lo=0.0), uniform(m, dim, lo=0.0)
    log_u = uniform(n) - math.log(n)
    log_v = uniform(m) - math.log(m)
    ref = transport_cost(kind, x.double(), y.double(), log_u.double(),
                         log_v.double(), EPS)
    flops = n * m * (3 * dim + 5)
    for impl, fn in (
            ("torch-dense",
             lambda: transport_cost(kind, x, y, log_u, log_v, EPS)),
            ("torch-blocked", lambda: torch.cat([
                transport_cost(kind, x[i:i + ROW_BLOCK], y,
                               log_u[i:i + ROW_BLOCK], log_v, EPS)
                for i in range(0, n, ROW_BLOCK)]))):
        out, times = measure(fn, repeat)
        row("transport_cost", name, impl, shape_string(d, flags), times,
            rel_error((out,), (ref,)), TOL, "kernel sums", flops=flops)


# --------------------------------------------------------------------------
# sinkhorn, log domain
# --------------------------------------------------------------------------

def sinkhorn(kind, x, y, log_a, log_b, eps, iterations):
    c = cost(kind, x, y)
    g = torch.zeros(y.shape[0], dtype=x.dtype)
    for _ in range(iterations):
        f = -eps * torch.logsumexp((g - c) / eps + log_b, dim=1)
        g = -eps * torch.logsumexp((f[:, None] - c) / eps + log_a[:, None], dim=0)
    p = torch.exp((f[:, None] + g - c) / eps + log_a[:, None] + log_b)
    return f, g, (p * c).sum()


def sinkhorn_ot(kind, x, y, log_a, log_b, eps, iterations):
    """The OT value <a, f> + <b, g> at the potentials of `iterations` steps,
    whose autograd is the envelope gradient: the plan P and the potentials
    are computed without autograd, then value = <a, f> + <b, g> +
    sum P C - (sum P C held fixed)."""
    with torch.no_grad():
        f, g, _ = sinkhorn(kind, x, y, log_a, log_b, eps, iterations)
        p = torch.exp((f[:, None] + g - cost(kind, x, y)) / eps + log_a[:, None] + log_b)
    plan_cost = (p * cost(kind, x, y)).sum()
    return ((torch.exp(log_a) * f).sum() + (torch.exp(log_b) * g).sum()
            + plan_cost - plan_cost.detach())


def bench_sinkhorn(name, d, flags, repeat):
    n, m, dim, iters = d["N"], d["M"], d["D"], d["I"]
    kind = kind_of(flags)
    x, y = uniform(n, dim, lo=0.0), uniform(m, dim, lo=0.0)
    log_a = torch.full((n,), -math.log(n))
    log_b = torch.full((m,), -math.log(m))
    if fwd_bwd():
        fwd_bwd_row("sinkhorn", name, "torch-dense", shape_string(d, flags),
                    lambda x, y, la, lb: (sinkhorn_ot(kind, x, y, la, lb, EPS, iters),),
                    [x, y, log_a, log_b], repeat, 1e-3, "implicit gradients")
        return
    ref = sinkhorn(kind, x.double(), y.double(), log_a.double(), log_b.double(),
                   EPS, iters)
    flops = n * m * (3 * dim + 10 * iters + 6)
    out, times = measure(
        lambda: sinkhorn(kind, x, y, log_a, log_b, EPS, iters), repeat)
    row("sinkhorn", name, "torch-dense", shape_string(d, flags), times,
        rel_error(out, ref), TOL, "kernel sums", flops=flops)


BENCHES = {
    "kernel_lse": bench_kernel_lse,
    "kernel_mv": bench_kernel_mv,
    "sinkhorn": bench_sinkhorn,
    "transport_cost": bench_transport_cost,
}


if __name__ == "__main__":
    run_benches(__doc__, BENCHES)
