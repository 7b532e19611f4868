#!/usr/bin/env python3
"""Cached decode with mixer.Decoder against recomputing the prefix, for the
four scans, and mamba2-jax's cached decode for ssd:

    decode.py [--threads N] [--contexts 64,256,...] [--batches 1,16]
              [--max-batch-context 4096] [--steps 32] [--ops ssd,...]
              [--json FILE]

For each op, batch B and context C: a prefill over C tokens, then `steps`
tokens one at a time through mixer.Decoder.step (a module compiled for one
token: the recurrent form), the first step (its compilation) not timed.
Each row has the median per-step time (step_us, flat in C when decode is
O(1) per token), the prefill's time, the time of recomputing the whole
prefix for one new token (one call of the op over C + 1 tokens: what a
decoder without a cached state pays per token; recompute_ms) and their
ratio. rel_error compares the steps' outputs with one call of the op over
the whole sequence. B > 1 rows stop at --max-batch-context (memory).

mamba2-jax (impl "mamba2-jax-decode", where the bench venv has it): its
ssd_forward called with one token and the cached state (initial_states),
jitted, per step, on the same inputs; rel_error against mixer's steps.

Prints one JSON row per line; --json writes them all with the settings.
"""

import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

from alt_common import limit_threads, version  # noqa: E402

# op -> shapes of the decode benchmark (one layer of a 1-2B model).
SHAPES = {
    "ssd": dict(H=8, P=64, N=64, chunk=64),
    "selective_scan": dict(D=1536, N=16),
    "linear_attention": dict(H=8, Dk=64, Dv=64, chunk=64),
    "gated_delta_rule": dict(H=8, Dk=64, Dv=64, chunk=64),
}


def make_inputs(op, bsz, length, rng):
    """(per-token arguments [B, L, ...], per-layer arguments, keyword
    arguments, attributes) with mixer-bench's value ranges."""
    s = SHAPES[op]
    u = lambda lo, hi, *shape: rng.uniform(lo, hi, shape).astype(np.float32)  # noqa: E731
    if op == "ssd":
        tokens = [u(-1, 1, bsz, length, s["H"], s["P"]), u(-1, 0, bsz, length, s["H"]),
                  u(-1, 1, bsz, length, 1, s["N"]), u(-1, 1, bsz, length, 1, s["N"])]
        return tokens, {}, {}, {"chunk_size": s["chunk"]}
    if op == "selective_scan":
        tokens = [u(-1, 1, bsz, length, s["D"]), u(0.001, 0.1, bsz, length, s["D"]),
                  None, u(-1, 1, bsz, length, 1, s["N"]), u(-1, 1, bsz, length, 1, s["N"])]
        return tokens, {2: u(-2, -0.5, s["D"], s["N"])}, {}, {}
    q = u(-1, 1, bsz, length, s["H"], s["Dk"])
    k = u(-1, 1, bsz, length, s["H"], s["Dk"])
    k /= np.linalg.norm(k, axis=-1, keepdims=True)
    v = u(-1, 1, bsz, length, s["H"], s["Dv"])
    if op == "linear_attention":
        return ([q, k, v], {}, {"log_decay": u(-1, 0, bsz, length, s["H"])},
                {"chunk_size": s["chunk"], "scale": float(s["Dk"]) ** -0.5})
    return ([q, k, v, u(-1, 0, bsz, length, s["H"]), u(0, 1, bsz, length, s["H"])],
            {}, {}, {"chunk_size": s["chunk"]})


def tokens_slice(tokens, per_layer, kwargs, start, stop):
    """(positional, keyword) arguments of tokens start..stop-1."""
    args = [per_layer[i] if a is None else np.ascontiguousarray(a[:, start:stop])
            for i, a in enumerate(tokens)]
    kw = {k: np.ascontiguousarray(a[:, start:stop]) for k, a in kwargs.items()}
    return args, kw


def rel_error(out, ref):
    out, ref = np.asarray(out, np.float64), np.asarray(ref, np.float64)
    d = np.abs(out - ref)
    if not np.all(np.isfinite(d)):
        return "inf"
    return float(d.max() / max(np.abs(ref).max(), 1e-300))


def quartiles(times_s):
    t = np.asarray(times_s) * 1e6
    return (float(np.quantile(t, 0.5)), float(np.quantile(t, 0.25)),
            float(np.quantile(t, 0.75)))


def machine():
    """The CPU of this machine: its name, with the family and model that
    tell CPUs of one name apart (under a hypervisor the name is often just
    "AMD EPYC"), and its logical CPUs."""
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                info[key.strip()] = value.strip()
    except OSError:
        pass
    cpu = info.get("model name", "unknown CPU")
    if "cpu family" in info and "model" in info:
        cpu += f" (family {info['cpu family']}, model {info['model']})"
    return {"cpu": cpu, "cores": os.cpu_count()}


def mixer_decode(mixer, op, bsz, context, steps, threads, rng):
    tokens, per_layer, kwargs, attrs = make_inputs(op, bsz, context + steps + 1, rng)
    function = getattr(mixer, op)
    options = f"num-threads={threads}"
    d = mixer.Decoder(op, options=options, **attrs)
    a, kw = tokens_slice(tokens, per_layer, kwargs, 0, context)
    t0 = time.perf_counter()
    d.prefill(*a, **kw)
    prefill_ms = (time.perf_counter() - t0) * 1e3
    step_args = [tokens_slice(tokens, per_layer, kwargs, t, t + 1)
                 for t in range(context, context + steps + 1)]
    outs, times = [], []
    for i, (a, kw) in enumerate(step_args):
        t0 = time.perf_counter()
        outs.append(d.step(*a, **kw))
        if i:  # the first step compiles the one-token module
            times.append(time.perf_counter() - t0)
    # Recompute: one call over the prefix and the new token (warm: the
    # prefill compiled the op for these static dimensions).
    a, kw = tokens_slice(tokens, per_layer, kwargs, 0, context + 1)
    t0 = time.perf_counter()
    function(*a, **kw, **attrs, options=options)
    recompute_ms = (time.perf_counter() - t0) * 1e3
    # Check: the steps' outputs against one call over the whole sequence.
    a, kw = tokens_slice(tokens, per_layer, kwargs, 0, context + steps + 1)
    full, _ = function(*a, **kw, **attrs, options=options)
    rel = rel_error(np.concatenate(outs, axis=1), full[:, context:])
    step_us, q1, q3 = quartiles(times)
    return {"op": op, "impl": "mixer-decode", "library": "mixer", "version": "",
            "B": bsz, "context": context, "steps": steps, "step_us": step_us,
            "step_q1_us": q1, "step_q3_us": q3, "prefill_ms": prefill_ms,
            "recompute_ms": recompute_ms,
            "recompute_over_step": recompute_ms * 1e3 / step_us,
            "rel_error": rel, "status": "ok", "reason": ""}, tokens, outs


def mamba2_decode(bsz, context, steps, tokens, mixer_outs):
    """mamba2-jax's cached decode on the inputs of mixer's ssd row."""
    from jax_scans import block, jax_modules, mamba2_arguments, mamba2_ssd
    jax, jnp = jax_modules()
    s = SHAPES["ssd"]
    fn = mamba2_ssd(s["chunk"])
    x, log_a, b, c = (jnp.asarray(t) for t in tokens)
    state = jnp.zeros((bsz, s["H"], s["P"], s["N"]), jnp.float32)
    sl = lambda t0, t1: [a[:, t0:t1] for a in (x, log_a, b, c)]  # noqa: E731
    t0 = time.perf_counter()
    _, state = block(fn(**mamba2_arguments(*sl(0, context), state)))
    prefill_ms = (time.perf_counter() - t0) * 1e3
    step_args = [sl(t, t + 1) for t in range(context, context + steps + 1)]
    outs, times = [], []
    for i, args in enumerate(step_args):
        p = mamba2_arguments(*args, state)  # the reparameterization: not timed
        block(p)
        t0 = time.perf_counter()
        y, state = block(fn(**p))
        if i:
            times.append(time.perf_counter() - t0)
        outs.append(np.asarray(y))
    rel = rel_error(np.concatenate(outs, axis=1), np.concatenate(mixer_outs, axis=1))
    step_us, q1, q3 = quartiles(times)
    return {"op": "ssd", "impl": "mamba2-jax-decode", "library": "mamba2-jax",
            "version": version("mamba2-jax"), "B": bsz, "context": context,
            "steps": steps, "step_us": step_us, "step_q1_us": q1,
            "step_q3_us": q3, "prefill_ms": prefill_ms, "recompute_ms": None,
            "recompute_over_step": None, "rel_error": rel, "status": "ok",
            "reason": "rel_error against mixer's steps"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--contexts", default="64,256,1024,4096,16384")
    parser.add_argument("--batches", default="1,16")
    parser.add_argument("--max-batch-context", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=32)
    parser.add_argument("--ops", default=",".join(SHAPES))
    parser.add_argument("--json")
    args = parser.parse_args()
    limit_threads(args.threads)
    import mixer
    rng = np.random.default_rng(0)
    rows = []

    def emit(r):
        rows.append(r)
        print(json.dumps(r), flush=True)

    for op in args.ops.split(","):
        for bsz in map(int, args.batches.split(",")):
            for context in map(int, args.contexts.split(",")):
                if bsz > 1 and context > args.max_batch_context:
                    continue
                base = {"op": op, "B": bsz, "context": context, "steps": args.steps}
                try:
                    r, tokens, outs = mixer_decode(mixer, op, bsz, context,
                                                   args.steps, args.threads, rng)
                    emit(r)
                except Exception as exc:  # a row that says why
                    emit(base | {"impl": "mixer-decode", "status": "error",
                                 "reason": f"{type(exc).__name__}: {exc}"})
                    continue
                if op != "ssd":
                    continue
                try:
                    emit(mamba2_decode(bsz, context, args.steps, tokens[:4], outs))
                except Exception as exc:
                    emit(base | {"impl": "mamba2-jax-decode", "library": "mamba2-jax",
                                 "version": version("mamba2-jax"), "status": "error",
                                 "reason": f"{type(exc).__name__}: {exc}"})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"threads": args.threads, "steps": args.steps,
                       "machine": machine(),
                       "versions": {"python": sys.version.split()[0],
                                    "numpy": np.__version__,
                                    "jax": version("jax"),
                                    "mamba2-jax": version("mamba2-jax")},
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
