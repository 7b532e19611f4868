#!/usr/bin/env python3
"""pykeops (CPU) and geomloss comparisons of mixer's kernel ops, on
mixer-bench's inputs (see alt_common.py):

    keops_kernels.py kernel_mv  --threads N --repeat N --data DIR --case NAME:N=..,M=..,D=..,C=..
    keops_kernels.py kernel_lse --threads N --repeat N --data DIR --case NAME:N=..,M=..,D=..
    keops_kernels.py sinkhorn   --threads N --repeat N --data DIR --case NAME:N=..,M=..,D=..,I=..

- kernel_mv (impl "pykeops"): the symbolic Gaussian kernel matrix
  exp(-|x_i - y_j|^2 / (2 h^2)) times v, a KeOps reduction compiled for the
  CPU (OpenMP, the system C++ compiler) and never materialized.
- kernel_lse: "pykeops" (logsumexp_j(g_j - |x_i - y_j|^2 / eps) as a KeOps
  reduction), "geomloss-tensorized" and "geomloss-online" (geomloss's
  softmin on a dense cost matrix, and through KeOps: the C-transform of its
  Sinkhorn loop, which is mixer's kernel_lse).
- sinkhorn, "geomloss": a row saying why not: geomloss's Sinkhorn loop
  averages the two potentials' updates and anneals eps (eps-scaling); it
  has no fixed-eps alternating form to compare.

The KeOps formulas are compiled during the warm-up (cached on disk), with
-march=native added through CXXFLAGS (KeOps's documented way to pass
compiler flags; its CPU default is -O3 alone) into a build folder of their
own.
"""

import numpy as np

from alt_common import measure, run, status_row, timed_row

_torch = None


def setup(threads):
    global _torch
    import os
    os.environ["CXXFLAGS"] = (os.environ.get("CXXFLAGS", "") + " -march=native").strip()
    import pykeops
    pykeops.set_build_folder(os.path.join(
        os.path.expanduser("~"), ".cache", "keops-mixer-bench-march-native"))
    import torch
    torch.set_num_threads(threads)
    _torch = torch


def keops_lazy():
    from pykeops.numpy import LazyTensor
    return LazyTensor


def bench_kernel_mv(case, repeat):
    LazyTensor = keops_lazy()
    x, y, v, bandwidth = case.args[:4]
    h = float(bandwidth)
    x_i = LazyTensor(np.ascontiguousarray(x[:, None, :]))
    y_j = LazyTensor(np.ascontiguousarray(y[None, :, :]))
    coef = np.float32(-1.0 / (2.0 * h * h))

    def fn():
        d2 = ((x_i - y_j) ** 2).sum(-1)
        return (d2 * coef).exp() @ v

    out, times = measure(fn, repeat)
    (i,) = case.output_indices()
    timed_row(case, "pykeops", "pykeops", "pykeops", times, {i: out})


def bench_kernel_lse(case, repeat):
    LazyTensor = keops_lazy()
    x, y, eps, g = case.args[:4]
    inv_eps = np.float32(1.0 / float(eps))
    x_i = LazyTensor(np.ascontiguousarray(x[:, None, :]))
    y_j = LazyTensor(np.ascontiguousarray(y[None, :, :]))
    g_j = LazyTensor(np.ascontiguousarray(g[None, :, None]))

    def fn():
        d2 = ((x_i - y_j) ** 2).sum(-1)
        return (g_j - d2 * inv_eps).logsumexp(dim=1)

    out, times = measure(fn, repeat)
    (i,) = case.output_indices()
    timed_row(case, "pykeops", "pykeops", "pykeops", times, {i: out})


def bench_geomloss_softmin(online):
    """geomloss's softmin(eps, C, h) = -eps log sum_j exp(h_j - C_ij / eps),
    the C-transform its SamplesLoss Sinkhorn loop calls
    (geomloss._legacy.sinkhorn_samples): mixer's kernel_lse is -softmin / eps
    with h = g. The tensorized form takes the cost matrix (computed in each
    call, as mixer does); the online form a KeOps reduction of the cost
    formula, here SqDist(X,Y)."""
    def bench(case, repeat):
        torch = _torch
        from geomloss._legacy import sinkhorn_samples as gs
        x, y, eps, g = (torch.from_numpy(np.ascontiguousarray(a))
                        for a in case.args[:4])
        eps = float(eps)
        if online:
            log_conv = gs.keops_lse("SqDist(X,Y)", x.shape[1])
            fn = lambda: gs.softmin_online(eps, (x, y), g, log_conv).view(-1)  # noqa: E731
        else:
            xb, yb, gb = x[None], y[None], g[None]

            def fn():
                c = ((xb[:, :, None, :] - yb[:, None, :, :]) ** 2).sum(-1)
                return gs.softmin_tensorized(eps, c, gb)[0]
        with torch.inference_mode():
            out, times = measure(fn, repeat)
        (i,) = case.output_indices()
        impl = "geomloss-online" if online else "geomloss-tensorized"
        timed_row(case, impl, "geomloss", "geomloss", times,
                  {i: -out.numpy() / eps})
    return bench


def geomloss_sinkhorn(case, repeat):
    status_row(case, "geomloss", "geomloss", "geomloss", "skipped",
               "geomloss's Sinkhorn loop (sinkhorn_divergence.sinkhorn_loop) "
               "averages the updates of f and g and anneals eps; it has no "
               "fixed-eps alternating Sinkhorn of a given iteration count")


if __name__ == "__main__":
    run(__doc__, {
        "kernel_mv": [("pykeops", "pykeops", "pykeops", bench_kernel_mv)],
        "kernel_lse": [
            ("pykeops", "pykeops", "pykeops", bench_kernel_lse),
            ("geomloss-tensorized", "geomloss", "geomloss",
             bench_geomloss_softmin(False)),
            ("geomloss-online", "geomloss", "geomloss",
             bench_geomloss_softmin(True)),
        ],
        "sinkhorn": [("geomloss", "geomloss", "geomloss", geomloss_sinkhorn)],
    }, setup=setup)
