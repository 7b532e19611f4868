"""Shared plumbing of the PyTorch baselines in bench/ (timing, arguments,
JSON rows). Each baseline script is written from the op's math; this module
only measures and prints.

Cases come as --case NAME:K=V,K=V,...,FLAG (mixer-bench's default format);
rows have the fields of mixer-bench's rows.
"""

import argparse
import json
import resource
import sys
import time

import torch


def parse_case(spec):
    """'la-L512:B=1,L=512,decay' -> ('la-L512', {'B': 1, 'L': 512}, ['decay'])"""
    name, _, rest = spec.partition(":")
    dims, flags = {}, []
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if eq:
            dims[key] = int(value)
        else:
            flags.append(key)
    return name, dims, flags


def shape_string(dims, flags):
    """The shapes field, as mixer-bench prints it ("B=1 L=512 decay")."""
    return " ".join([f"{k}={v}" for k, v in dims.items()] + list(flags))


def arguments(doc, ops, case_help="NAME:K=V,...,FLAG"):
    """--threads, --repeat, --case and the op subcommand (none when `ops` is
    None)."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    if ops is not None:
        parser.add_argument("op", choices=ops)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--case", action="append", default=[],
                        help=case_help)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    print(json.dumps({"versions": {
        "torch": torch.__version__,
        "python": sys.version.split()[0],
        "torch_cpu_capability": torch.backends.cpu.get_cpu_capability()
        if hasattr(torch.backends, "cpu") else "unknown",
    }}), flush=True)
    return args


def run_benches(doc, benches):
    """main() of a script with one subcommand per op: `benches` maps the op
    to its bench(name, dims, flags, repeat), called once per --case."""
    args = arguments(doc, list(benches))
    for spec in args.case:
        name, dims, flags = parse_case(spec)
        benches[args.op](name, dims, flags, args.repeat)


def uniform(*shape, lo=-1.0, hi=1.0):
    return torch.rand(*shape) * (hi - lo) + lo


def measure(fn, repeat):
    """Warm-up (at least one call, up to 0.2 s, one call when a call takes
    longer), then `repeat` timed calls. Returns (last result, times in ms)."""
    with torch.inference_mode():
        start = time.perf_counter()
        out = fn()
        while time.perf_counter() - start < 0.2:
            t0 = time.perf_counter()
            out = fn()
            if time.perf_counter() - t0 > 0.05:
                break
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            out = fn()
            times.append((time.perf_counter() - t0) * 1e3)
    return out, times


def rel_error(outs, refs):
    """max |out - ref| / max |ref| over several outputs together (fp64);
    "inf" when an output is not finite."""
    diff = scale = 0.0
    for o, r in zip(outs, refs):
        d = (o.double() - r.double()).abs()
        if not torch.isfinite(d).all():
            return "inf"
        diff = max(diff, d.max().item() if d.numel() else 0.0)
        scale = max(scale, r.abs().max().item() if r.numel() else 0.0)
    return diff / scale if scale > 0 else diff


def row(op, name, impl, shapes, times, rel, tolerance, tolerance_name,
        flops=None, bytes_=None):
    """One JSON row, printed; GFLOP/s from `flops`, else GB/s from `bytes_`."""
    t = torch.tensor(sorted(times), dtype=torch.float64)
    median = float(torch.quantile(t, 0.5))
    r = {"op": op, "case": name, "impl": impl, "shapes": shapes,
         "median_ms": median,
         "q1_ms": float(torch.quantile(t, 0.25)),
         "q3_ms": float(torch.quantile(t, 0.75)),
         "compile_s": None, "gflops": None, "rel_error": rel,
         "status": "ok", "reason": ""}
    if flops:
        r["gflops"] = flops / (median * 1e-3) * 1e-9
    elif bytes_:
        r["gbps"] = bytes_ / (median * 1e-3) * 1e-9
    if rel == "inf" or not rel <= tolerance:
        r["status"] = "inaccurate"
        r["reason"] = f"rel_error above the {tolerance:g} tolerance of {tolerance_name}"
    # The process's peak so far (cases run in order in one process).
    r["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps(r), flush=True)
    return r
