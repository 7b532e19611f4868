#!/usr/bin/env python3
"""JAX (XLA on CPU) comparisons of mixer's grouped GEMMs, on mixer-bench's
inputs (see alt_common.py for the protocol):

    jax_moe.py grouped_matmul --threads N --repeat N --data DIR --case NAME:T=..,K=..,N=..,E=..
    jax_moe.py grouped_swiglu --threads N --repeat N --data DIR --case NAME:T=..,K=..,F=..,E=..

impl "jax-ragged-dot": jax.lax.ragged_dot, XLA's grouped GEMM (rows of
lhs in group order, one rhs matrix per group); grouped_swiglu is
silu(ragged_dot(x, w_gate)) * ragged_dot(x, w_up) in one jitted function.
"""

from alt_common import measure, run, timed_row
from jax_scans import block, jax_modules


def bench_grouped_matmul(case, repeat):
    jax, jnp = jax_modules()
    lhs, rhs = (jnp.asarray(a) for a in case.args[:2])
    sizes = jnp.asarray(case.args[2].astype("int32"))
    fn = jax.jit(jax.lax.ragged_dot)
    out, times = measure(lambda: fn(lhs, rhs, sizes), repeat, block)
    (i,) = case.output_indices()
    timed_row(case, "jax-ragged-dot", "jax", "jax", times, {i: out})


def swiglu(x, w_gate, w_up, sizes):
    jax, _ = jax_modules()
    gate = jax.lax.ragged_dot(x, w_gate, sizes)
    return jax.nn.silu(gate) * jax.lax.ragged_dot(x, w_up, sizes)


def bench_grouped_swiglu(case, repeat):
    jax, jnp = jax_modules()
    x, w_gate, w_up = (jnp.asarray(a) for a in case.args[:3])
    sizes = jnp.asarray(case.args[3].astype("int32"))
    fn = jax.jit(swiglu)
    out, times = measure(lambda: fn(x, w_gate, w_up, sizes), repeat, block)
    (i,) = case.output_indices()
    timed_row(case, "jax-ragged-dot", "jax", "jax", times, {i: out})


if __name__ == "__main__":
    run(__doc__, {
        "grouped_matmul": [("jax-ragged-dot", "jax", "jax", bench_grouped_matmul)],
        "grouped_swiglu": [("jax-ragged-dot", "jax", "jax", bench_grouped_swiglu)],
    })
