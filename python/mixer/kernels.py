"""Kernel sums and entropic transport on numpy arrays (float32). Point
counts N, M and the batch Bt are dynamic in the compiled code; the point
dim D and the channels C are static. With return_vjp=True each op returns
(outputs, vjp) (docs/Python.md, "Gradients")."""

import math

import numpy as np

from ._build import Call, check_choice, check_positive_float, check_positive_int

KERNELS = ("gaussian", "laplacian", "matern32", "inverse_multiquadric", "linear")
COSTS = ("sqeuclidean", "gaussian", "laplacian")


def _points(x, y, batched_name="x"):
    """A call with x and y checked as [Bt, N, D] and [Bt, M, D] (or without
    Bt); returns it and the batch prefix of the other operands' dims."""
    call = Call(("Bt", "N", "M"))
    batch = ("Bt",) if isinstance(x, np.ndarray) and x.ndim == 3 else ()
    call.arg(x, "x", batch + ("N", "D"))
    call.arg(y, "y", batch + ("M", "D"))
    return call, batch


def kernel_mv(x, y, v, *, kernel="gaussian", bandwidth=1.0, options="",
              return_vjp=False):
    """out_i = sum_j k(x_i, y_j) v_j (mixer.kernel_mv).

    x [N, D], y [M, D], v [M, C] -> out [N, C]; or all with a leading batch
    dim Bt. Kernels (r = ||x_i - y_j||, h = bandwidth): gaussian
    exp(-r^2 / (2 h^2)), laplacian exp(-r / h), matern32
    (1 + sqrt(3) r / h) exp(-sqrt(3) r / h), inverse_multiquadric
    1 / sqrt(1 + r^2 / h^2), linear <x_i, y_j> (h ignored).
    """
    check_choice(kernel, "kernel", KERNELS)
    if kernel != "linear":
        bandwidth = check_positive_float(bandwidth, "bandwidth")
    call, batch = _points(x, y)
    ins = ["%x", "%y", call.arg(v, "v", batch + ("M", "C")),
           call.scalar(bandwidth, "bandwidth")]
    call.out("out", batch + ("N", "C"))
    return call.run("kernel_mv", call.op(f"mixer.kernel_mv kernel({kernel})", ins),
                    options, return_vjp, ("x", "y", "v"))


def _log_normalization(kernel, dim, bandwidth):
    """log of the constant that makes the kernel a density over R^dim:
    gaussian (2 pi h^2)^(-D/2); laplacian Gamma(D/2) / (2 pi^(D/2) Gamma(D) h^D)
    (the surface of the unit sphere times the integral of r^(D-1) exp(-r/h))."""
    if kernel == "gaussian":
        return -0.5 * dim * math.log(2 * math.pi * bandwidth ** 2)
    return (math.lgamma(dim / 2) - math.log(2) - dim / 2 * math.log(math.pi)
            - math.lgamma(dim) - dim * math.log(bandwidth))


def kde(x, y, *, weights=None, kernel="gaussian", bandwidth=1.0, options="",
        return_vjp=False):
    """Kernel density estimate at the points x of the samples y:

        density_i = sum_j w_j K_h(x_i - y_j) / sum_j w_j

    with K_h the kernel normalized over R^D (see _log_normalization):
    gaussian (2 pi h^2)^(-D/2) exp(-r^2 / (2 h^2)), laplacian
    Gamma(D/2) / (2 pi^(D/2) Gamma(D) h^D) exp(-r / h). Other kernels have
    no standard density normalization in D dims and raise ValueError.
    x [N, D], y [M, D], weights [M] (default: equal) -> density [N]; or all
    with a leading batch dim Bt.
    """
    check_choice(kernel, "kernel", KERNELS)
    if kernel not in ("gaussian", "laplacian"):
        raise ValueError(f"argument 'kernel' is {kernel!r}, but kde supports gaussian and "
                         "laplacian only: the other kernels have no standard "
                         "normalization as a density in D dimensions")
    bandwidth = check_positive_float(bandwidth, "bandwidth")
    call, batch = _points(x, y)
    given = weights is not None
    if not given:
        weights = np.ones(y.shape[:-1], dtype=np.float32)
    call.arg(weights, "weights", batch + ("M",))
    total = weights.astype(np.float64).sum(axis=-1, keepdims=True)
    if not np.all(total > 0):
        raise ValueError("argument 'weights' must have a positive sum (per batch entry)")
    result = kernel_mv(x, y, weights[..., None], kernel=kernel, bandwidth=bandwidth,
                       options=options, return_vjp=return_vjp)
    sums = (result[0] if return_vjp else result)[..., 0]
    scale = math.exp(_log_normalization(kernel, call["D"], bandwidth))
    density = (sums * (scale / total)).astype(np.float32)
    if not return_vjp:
        return density
    mv_vjp = result[1]

    def vjp(d_density):
        # density = sums * scale / total with total = sum_j w_j: the weights
        # get d sums through kernel_mv and - sum_i d density_i density_i / total.
        if d_density is None:
            d_density = np.zeros_like(density)
        d_density = np.asarray(d_density, dtype=np.float64)
        d_sums = (d_density * (scale / total)).astype(np.float32)
        dx, dy, dv = mv_vjp(d_sums[..., None])
        if not given:
            return dx, dy, None
        d_total = -np.sum(d_density * density, axis=-1, keepdims=True) / total
        return dx, dy, (dv[..., 0] + d_total).astype(np.float32)

    return density, vjp


def kernel_lse(x, y, g=None, *, cost="sqeuclidean", eps=1.0, options="",
               return_vjp=False):
    """out_i = log sum_j exp(-c(x_i, y_j) / eps + g_j) (mixer.kernel_lse).

    x [N, D], y [M, D], optional g [M] -> out [N]; or all with a leading
    batch dim Bt. Costs: sqeuclidean r^2, gaussian r^2 / 2, laplacian r.
    M = 0 gives -inf.
    """
    check_choice(cost, "cost", COSTS)
    eps = check_positive_float(eps, "eps")
    call, batch = _points(x, y)
    ins = ["%x", "%y", call.scalar(eps, "eps")]
    clauses = [] if g is None else [("g", call.arg(g, "g", batch + ("M",)))]
    call.out("out", batch + ("N",))
    return call.run("kernel_lse", call.op(f"mixer.kernel_lse kernel({cost})", ins,
                                          clauses), options, return_vjp, ("x", "y", "g"))


def sinkhorn(x, y, log_a, log_b, *, eps, iterations, cost="sqeuclidean", options="",
             return_vjp=False):
    """Log-domain Sinkhorn iterations (mixer.sinkhorn).

    x [N, D] with log-weights log_a [N], y [M, D] with log_b [M]. From
    g = 0, each of `iterations` steps sets
        f_i = -eps log sum_j exp((g_j - C_ij) / eps + log_b_j), then
        g_j = -eps log sum_i exp((f_i - C_ij) / eps + log_a_i).
    Returns (f [N], g [M], transport_cost), transport_cost = sum_ij P_ij C_ij
    with P_ij = exp((f_i + g_j - C_ij) / eps + log_a_i + log_b_j).

    With return_vjp=True, vjp(None, None, d_cost) returns (dx, dy, dlog_a,
    dlog_b), the envelope-theorem gradient of the entropic OT value
    <exp(log_a), f> + <exp(log_b), g> (not of sum P C); f and g have no
    gradient, and nonzero cotangents for them raise an error naming them.
    """
    check_choice(cost, "cost", COSTS)
    eps = check_positive_float(eps, "eps")
    iterations = check_positive_int(iterations, "iterations")
    if isinstance(x, np.ndarray) and x.ndim != 2:
        raise ValueError(f"argument 'x' must have rank 2 [N, D] (sinkhorn has no "
                         f"batched form), got rank {x.ndim}")
    call, _ = _points(x, y)
    ins = ["%x", "%y", call.arg(log_a, "log_a", ("N",)), call.arg(log_b, "log_b", ("M",)),
           call.scalar(eps, "eps")]
    call.out("f", ("N",))
    call.out("g", ("M",))
    call.out("transport_cost", ())
    result = call.run(
        "sinkhorn", call.op(f"mixer.sinkhorn cost({cost}) iterations({iterations})", ins),
        options, return_vjp, ("x", "y", "log_a", "log_b"))
    if return_vjp:
        (f, g, transport), vjp = result
        return (f, g, float(transport)), vjp
    f, g, transport = result
    return f, g, float(transport)
