#!/usr/bin/env python3
"""JAX (XLA on CPU) comparisons of mixer's ssd and selective_scan, on
mixer-bench's inputs (see alt_common.py for the protocol):

    jax_scans.py ssd            --threads N --repeat N --data DIR --case NAME:B=..,L=..,H=..,P=..,G=..,N=..,Q=..[,init]
    jax_scans.py selective_scan --threads N --repeat N --data DIR --case NAME:B=..,L=..,D=..,G=..,N=..[,options][,init]

- ssd, impl "jax-chunked": the chunked SSD of Mamba-2 in jnp (segment sums,
  the four einsum steps, the inter-chunk recurrence as one decay matrix),
  under jax.jit: the formulation of the compiler-first SSD work in JAX.
- ssd, impl "mamba2-jax": the package mamba2-jax's own chunked SSD.
- selective_scan, impl "jax-associative-scan": jax.lax.associative_scan of
  (exp(dt A), dt u b) pairs over L, then the readout;
  impl "jax-scan": jax.lax.scan over L, one token per step.

Every function is jitted and compiled before the timing (warm-up calls
excluded); the process runs on --threads cores (alt_common.limit_threads).
"""

import functools

from alt_common import measure, run, status_row, timed_row

_jax = None


def jax_modules():
    """jax and jax.numpy, imported on first use (after the thread limit)."""
    global _jax
    if _jax is None:
        import jax
        import jax.numpy as jnp
        jax.config.update("jax_platforms", "cpu")
        _jax = (jax, jnp)
    return _jax


def block(out):
    jax, _ = jax_modules()
    return jax.block_until_ready(out)


def jax_inputs(case, count):
    """The first `count` arguments of the case as device arrays."""
    _, jnp = jax_modules()
    return [jnp.asarray(a) for a in case.args[:count]]


# --------------------------------------------------------------------------
# ssd: S_t = exp(log_a_t) S_{t-1} + x_t b_t^T,  y_t = S_t c_t
# --------------------------------------------------------------------------

def segsum(a):
    """a [..., T] -> [..., T, T]: out[i, j] = sum_{k=j+1..i} a[k] for i >= j,
    -inf above the diagonal (sums of masked columns: no cancellation)."""
    _, jnp = jax_modules()
    t = a.shape[-1]
    x = jnp.broadcast_to(a[..., None], a.shape + (t,))
    x = jnp.where(jnp.tril(jnp.ones((t, t), bool), -1), x, 0.0)
    out = jnp.cumsum(x, axis=-2)
    return jnp.where(jnp.tril(jnp.ones((t, t), bool)), out, -jnp.inf)


def ssd_chunked(x, log_a, b, c, init, chunk):
    """x [B,L,H,P], log_a [B,L,H], b, c [B,L,G,N], init [B,H,P,N] ->
    y [B,L,H,P], final state [B,H,P,N]."""
    _, jnp = jax_modules()
    bsz, length, heads, p = x.shape
    groups, n = b.shape[2], b.shape[3]
    b = jnp.repeat(b, heads // groups, axis=2)
    c = jnp.repeat(c, heads // groups, axis=2)
    pad = (-length) % chunk
    if pad:  # zero inputs and zero log decay leave the state unchanged
        x = jnp.pad(x, ((0, 0), (0, pad), (0, 0), (0, 0)))
        log_a = jnp.pad(log_a, ((0, 0), (0, pad), (0, 0)))
        b = jnp.pad(b, ((0, 0), (0, pad), (0, 0), (0, 0)))
        c = jnp.pad(c, ((0, 0), (0, pad), (0, 0), (0, 0)))
    k = (length + pad) // chunk
    x = x.reshape(bsz, k, chunk, heads, p)
    b = b.reshape(bsz, k, chunk, heads, n)
    c = c.reshape(bsz, k, chunk, heads, n)
    a = log_a.reshape(bsz, k, chunk, heads).transpose(0, 3, 1, 2)  # [B,H,k,Q]
    a_cum = jnp.cumsum(a, axis=-1)
    # 1. Within chunks.
    scores = jnp.einsum("bclhn,bcshn->bhcls", c, b) * jnp.exp(segsum(a))
    y_diag = jnp.einsum("bhcls,bcshp->bclhp", scores, x)
    # 2. Each chunk's own state.
    decay_states = jnp.exp(a_cum[..., -1:] - a_cum)
    states = jnp.einsum("bclhn,bhcl,bclhp->bchpn", b, decay_states, x)
    # 3. Across chunk boundaries.
    states = jnp.concatenate([init[:, None], states], axis=1)
    chunk_decay = jnp.exp(segsum(jnp.pad(a_cum[..., -1], ((0, 0), (0, 0), (1, 0)))))
    new_states = jnp.einsum("bhzc,bchpn->bzhpn", chunk_decay, states)
    states, final = new_states[:, :-1], new_states[:, -1]
    # 4. The incoming state's part of each token.
    y_off = jnp.einsum("bclhn,bchpn,bhcl->bclhp", c, states, jnp.exp(a_cum))
    y = (y_diag + y_off).reshape(bsz, k * chunk, heads, p)[:, :length]
    return y, final


def ssd_init(case):
    _, jnp = jax_modules()
    if case.has("init"):
        return jnp.asarray(case.args[4])
    return jnp.zeros((case["B"], case["H"], case["P"], case["N"]), jnp.float32)


def bench_ssd_jnp(case, repeat):
    jax, _ = jax_modules()
    x, log_a, b, c = jax_inputs(case, 4)
    init = ssd_init(case)
    fn = jax.jit(functools.partial(ssd_chunked, chunk=case["Q"]))
    (y, s), times = measure(lambda: fn(x, log_a, b, c, init), repeat, block)
    iy, istate = case.output_indices()
    timed_row(case, "jax-chunked", "jax", "jax", times, {iy: y, istate: s})


def mamba2_arguments(x, log_a, b, c, init):
    """mixer's ssd arguments in mamba2-jax's parameterization: with A = -1
    per head, dt = -log_a (given before its softplus, as softplus^-1, with
    no bias and no clamp) and x / dt (ssd_forward multiplies x by dt), the
    package's recurrence S_t = exp(A dt_t) S + dt_t x_t b_t^T is mixer's.
    Computed outside the timing."""
    _, jnp = jax_modules()
    dt = -log_a
    heads = x.shape[2]
    rep = heads // b.shape[2]
    return dict(x=x / dt[..., None], dt=jnp.log(jnp.expm1(dt)),
                A=-jnp.ones((heads,), jnp.float32),
                B_mat=jnp.repeat(b, rep, axis=2), C_mat=jnp.repeat(c, rep, axis=2),
                D=jnp.zeros((heads,), jnp.float32),
                dt_bias=jnp.zeros((heads,), jnp.float32),
                initial_states=init[:, None])


def mamba2_ssd(chunk):
    """mamba2_jax.ssd_forward, jitted, returning (y, final state)."""
    jax, _ = jax_modules()
    import mamba2_jax
    return jax.jit(functools.partial(mamba2_jax.ssd_forward, chunk_size=chunk,
                                     dt_min=0.0, dt_max=float("inf"),
                                     return_final_states=True))


def bench_ssd_mamba2(case, repeat):
    """mamba2_jax.ssd_forward, the package's chunked SSD (its prefill)."""
    p = mamba2_arguments(*jax_inputs(case, 4), ssd_init(case))
    fn = mamba2_ssd(case["Q"])
    (y, s), times = measure(lambda: fn(**p), repeat, block)
    iy, istate = case.output_indices()
    timed_row(case, "mamba2-jax", "mamba2-jax", "mamba2-jax", times,
              {iy: y, istate: s})


# --------------------------------------------------------------------------
# selective_scan: h_t = exp(dt_t A) h_{t-1} + dt_t u_t b_t,
#                 y_t = (h_t c_t + D u_t) silu(z_t)
# --------------------------------------------------------------------------

def sscan_inputs(case):
    """(u, dt, A, b, c, D, z, init) with dt after bias and softplus, b and c
    repeated per channel [B,L,D,N]; D, z None without the options."""
    jax, jnp = jax_modules()
    u, delta, A, b, c = jax_inputs(case, 5)
    i = 5
    d_skip = z = bias = None
    if case.has("options"):
        d_skip, z, bias = (jnp.asarray(a) for a in case.args[5:8])
        i = 8
    if case.has("init"):
        init = jnp.asarray(case.args[i])
    else:
        init = jnp.zeros((case["B"], case["D"], case["N"]), jnp.float32)
    return u, delta, A, b, c, d_skip, z, bias, init


def sscan_prepare(u, delta, A, b, c, bias, softplus):
    jax, jnp = jax_modules()
    dt = delta + bias if bias is not None else delta
    if softplus:
        dt = jax.nn.softplus(dt)
    rep = u.shape[2] // b.shape[2]
    b = jnp.repeat(b, rep, axis=2)  # [B,L,D,N]
    c = jnp.repeat(c, rep, axis=2)
    decay = jnp.exp(dt[..., None] * A)  # [B,L,D,N]
    drive = (dt * u)[..., None] * b
    return decay, drive, c


def sscan_readout(h, c, u, d_skip, z):
    jax, jnp = jax_modules()
    y = jnp.einsum("bldn,bldn->bld", h, c)
    if d_skip is not None:
        y = y + d_skip * u
    if z is not None:
        y = y * jax.nn.silu(z)
    return y


def sscan_associative(u, delta, A, b, c, d_skip, z, bias, init, softplus):
    jax, jnp = jax_modules()
    decay, drive, c = sscan_prepare(u, delta, A, b, c, bias, softplus)
    drive = drive.at[:, 0].add(decay[:, 0] * init)

    def combine(left, right):
        a1, b1 = left
        a2, b2 = right
        return a1 * a2, a2 * b1 + b2

    _, h = jax.lax.associative_scan(combine, (decay, drive), axis=1)
    return sscan_readout(h, c, u, d_skip, z), h[:, -1]


def sscan_sequential(u, delta, A, b, c, d_skip, z, bias, init, softplus):
    jax, jnp = jax_modules()
    decay, drive, c = sscan_prepare(u, delta, A, b, c, bias, softplus)

    def step(h, t):
        a_t, x_t, c_t = t
        h = a_t * h + x_t
        return h, jnp.einsum("bdn,bdn->bd", h, c_t)

    xs = tuple(jnp.moveaxis(t, 1, 0) for t in (decay, drive, c))
    final, ys = jax.lax.scan(step, init, xs)
    y = jnp.moveaxis(ys, 0, 1)
    if d_skip is not None:
        y = y + d_skip * u
    if z is not None:
        y = y * jax.nn.silu(z)
    return y, final


def bench_sscan(impl, function):
    def bench(case, repeat):
        jax, _ = jax_modules()
        args = sscan_inputs(case)
        fn = jax.jit(functools.partial(function, softplus=case.has("options")))
        (y, s), times = measure(lambda: fn(*args), repeat, block)
        iy, istate = case.output_indices()
        timed_row(case, impl, "jax", "jax", times, {iy: y, istate: s})
    return bench


if __name__ == "__main__":
    run(__doc__, {
        "ssd": [("jax-chunked", "jax", "jax", bench_ssd_jnp),
                ("mamba2-jax", "mamba2-jax", "mamba2-jax", bench_ssd_mamba2)],
        "selective_scan": [
            ("jax-associative-scan", "jax", "jax",
             bench_sscan("jax-associative-scan", sscan_associative)),
            ("jax-scan", "jax", "jax", bench_sscan("jax-scan", sscan_sequential)),
        ],
    })
