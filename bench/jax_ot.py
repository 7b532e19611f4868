#!/usr/bin/env python3
"""ott-jax's Sinkhorn solver (JAX on CPU) against mixer's sinkhorn, on
mixer-bench's inputs (see alt_common.py):

    jax_ot.py sinkhorn --threads N --repeat N --data DIR --case NAME:N=..,M=..,D=..,I=..

impl "ott-jax": ott.solvers.linear.sinkhorn.Sinkhorn in log-sum-exp mode
on a PointCloud geometry with the squared Euclidean cost, exactly I
iterations (min = max = I, checked every iteration), jitted, then the
transport cost <P, C>. ott's potentials carry the log-weights (f_ott = f +
eps log a, g_ott = g + eps log b) and it updates g before f: it is given the
point clouds swapped (its first update is then mixer's f update) and
initial potentials that are mixer's zeros.
"""

import functools

from alt_common import measure, run, timed_row
from jax_scans import block, jax_modules


def solve(x, y, log_a, log_b, eps, iterations):
    """mixer's (f, g, cost) after `iterations` of ott's Sinkhorn."""
    _, jnp = jax_modules()
    from ott.geometry import pointcloud
    from ott.problems.linear import linear_problem
    from ott.solvers.linear import sinkhorn
    # Swapped: ott's "a" side is mixer's y (its g), updated second by mixer.
    geom = pointcloud.PointCloud(y, x, epsilon=eps)
    prob = linear_problem.LinearProblem(geom, a=jnp.exp(log_b), b=jnp.exp(log_a))
    solver = sinkhorn.Sinkhorn(lse_mode=True, min_iterations=iterations,
                               max_iterations=iterations, inner_iterations=1,
                               threshold=-1.0)
    out = solver(prob, init=(eps * log_b, eps * log_a))
    g = out.f - eps * log_b
    f = out.g - eps * log_a
    cost = jnp.sum(out.matrix * geom.cost_matrix)
    return f, g, cost


def bench_sinkhorn(case, repeat):
    jax, jnp = jax_modules()
    x, y, log_a, log_b, eps = (jnp.asarray(a) for a in case.args[:5])
    fn = jax.jit(functools.partial(solve, eps=float(case.args[4]),
                                   iterations=case["I"]))
    (f, g, cost), times = measure(lambda: fn(x, y, log_a, log_b), repeat, block)
    i_f, i_g, i_cost = case.output_indices()
    timed_row(case, "ott-jax", "ott-jax", "ott-jax", times,
              {i_f: f, i_g: g, i_cost: cost})


if __name__ == "__main__":
    run(__doc__, {"sinkhorn": [("ott-jax", "ott-jax", "ott-jax", bench_sinkhorn)]})
