"""Shared plumbing of the comparison scripts of the bench venv's libraries
(scripts/setup.sh --bench): JAX, mamba2-jax, ott-jax, pykeops, geomloss and
flash-linear-attention. The same protocol as the PyTorch scripts
(torch_common.py), except that the inputs come from mixer-bench:

    SCRIPT OP --threads N --repeat N --data DIR --case NAME:K=V,...,FLAG ...

DIR/NAME/manifest.json lists the case's arguments in mixer's call order
(argI.npy, outputs zero-filled) and, for each output, its fp64 reference
(referenceI.npy): the inputs of mixer's row. Each implementation prints one
JSON row per case with its library and version and its relative error
against that reference; one that cannot be imported or fails prints a row
with status "error" and the reason, never nothing.

Threads: the process is pinned to N cores before any library is imported
(XLA, OpenMP and PyTorch size their pools from the affinity mask), and a
single thread is asked for explicitly where N is 1.
"""

import argparse
import importlib.metadata
import json
import os
import resource
import sys
import time
import traceback

import numpy as np

from bench_cases import parse_case, shape_string


def limit_threads(n):
    """Pins this process to n of its cores and tells the runtimes (before
    they are imported)."""
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, cpus[:max(1, min(n, len(cpus)))])
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = str(n)
    flags = os.environ.get("XLA_FLAGS", "")
    if n == 1:
        flags += (" --xla_cpu_multi_thread_eigen=false"
                  " intra_op_parallelism_threads=1")
    os.environ["XLA_FLAGS"] = flags.strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")


def version(dist):
    """The installed version of a distribution, or "not installed"."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


class Case:
    """One --case with the arrays of DIR/NAME: `args` in mixer's call order,
    `references` {argument index: fp64 array}."""

    def __init__(self, spec, data_dir):
        self.name, self.dims, self.flags = parse_case(spec)
        self.shapes = shape_string(self.dims, self.flags)
        case_dir = os.path.join(data_dir, self.name)
        with open(os.path.join(case_dir, "manifest.json")) as f:
            manifest = json.load(f)
        self.op = manifest["op"]
        self.tolerance = manifest["tolerance"]
        self.tolerance_name = manifest["tolerance_name"]
        self.args, self.references = [], {}
        for i, entry in enumerate(manifest["args"]):
            self.args.append(np.load(os.path.join(case_dir, entry["file"])))
            if entry["reference"]:
                self.references[i] = np.load(os.path.join(case_dir, entry["reference"]))

    def __getitem__(self, dim):
        return self.dims[dim]

    def has(self, flag):
        return flag in self.flags

    def output_indices(self):
        """The indices of the arguments that have a reference, in order."""
        return sorted(self.references)


def measure(fn, repeat, sync=lambda out: out):
    """Warm-up (compilation included: at least one call, up to 0.2 s, one
    call when a call takes longer), then `repeat` timed calls, each ended by
    `sync` on its result (jax's block_until_ready). Returns (last result,
    times in ms)."""
    start = time.perf_counter()
    out = sync(fn())
    while time.perf_counter() - start < 0.2:
        t0 = time.perf_counter()
        out = sync(fn())
        if time.perf_counter() - t0 > 0.05:
            break
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = sync(fn())
        times.append((time.perf_counter() - t0) * 1e3)
    return out, times


def rel_error(case, outs):
    """max |out - ref| / max |ref| over the outputs together, in fp64, as
    mixer-bench's Instance::relativeError; `outs` maps an argument index to
    the library's value of that output. "inf" when one is not finite."""
    diff = scale = 0.0
    for index, out in outs.items():
        ref = case.references[index]
        out = np.asarray(out, dtype=np.float64).reshape(ref.shape)
        d = np.abs(out - ref)
        if not np.all(np.isfinite(d)):
            return "inf"
        if d.size:
            diff = max(diff, float(d.max()))
            scale = max(scale, float(np.abs(ref).max()))
    return diff / scale if scale > 0 else diff


def emit(r):
    r["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps(r), flush=True)
    return r


def base_row(case, impl, library, dist):
    return {"op": case.op, "case": case.name, "impl": impl,
            "shapes": case.shapes, "library": library,
            "version": version(dist), "median_ms": None, "q1_ms": None,
            "q3_ms": None, "compile_s": None, "gflops": None,
            "rel_error": None, "status": "ok", "reason": ""}


def timed_row(case, impl, library, dist, times, outs, compile_s=None,
              note=""):
    """One row: the quartiles of `times`, the error of `outs` (see
    rel_error) and status "inaccurate" above the case's tolerance."""
    t = np.sort(np.asarray(times, dtype=np.float64))
    r = base_row(case, impl, library, dist)
    r.update(median_ms=float(np.quantile(t, 0.5)),
             q1_ms=float(np.quantile(t, 0.25)),
             q3_ms=float(np.quantile(t, 0.75)), compile_s=compile_s)
    rel = rel_error(case, outs)
    r["rel_error"] = rel
    if rel == "inf" or not rel <= case.tolerance:
        r["status"] = "inaccurate"
        r["reason"] = (f"rel_error above the {case.tolerance:g} tolerance of "
                       f"{case.tolerance_name}")
    if note:
        r["reason"] = (r["reason"] + "; " if r["reason"] else "") + note
    return emit(r)


def status_row(case, impl, library, dist, status, reason):
    """A row without a time: status "error" (the library failed) or
    "skipped" (it has no form of this op), with the reason in words."""
    r = base_row(case, impl, library, dist)
    r.update(status=status, reason=reason)
    return emit(r)


def describe(exc):
    """An exception in one line, with the frame it came from."""
    frame = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
    where = f" (at {os.path.basename(frame[0].filename)}:{frame[0].lineno})" if frame else ""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:300]}{where}"


def run(doc, benches, setup=None):
    """main(): `benches` maps an op to a list of (impl, library,
    distribution, fn); fn(case, repeat) prints the impl's row for the case
    (timed_row or status_row). An exception becomes an error row.
    `setup(threads)` runs once the threads are limited (a runtime's own
    thread setting)."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("op", choices=list(benches))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--data", required=True,
                        help="the directory of the cases' .npy files")
    parser.add_argument("--case", action="append", default=[],
                        help="NAME:K=V,...,FLAG")
    args = parser.parse_args()
    limit_threads(args.threads)
    if setup:
        setup(args.threads)
    impls = benches[args.op]
    print(json.dumps({"versions": {
        dist: version(dist) for _, _, dist, _ in impls} | {
        "python": sys.version.split()[0]}}), flush=True)
    for spec in args.case:
        case = Case(spec, args.data)
        for impl, library, dist, fn in impls:
            try:
                fn(case, args.repeat)
            except Exception as exc:  # a row that says why, never a gap
                status_row(case, impl, library, dist, "error", describe(exc))
