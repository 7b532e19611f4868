"""Shared plumbing of the PyTorch baselines in bench/ (timing, arguments,
JSON rows). Each baseline script is written from the op's math; this module
only measures and prints.

Cases come as --case NAME:K=V,K=V,...,FLAG (mixer-bench's default format);
rows have the fields of mixer-bench's rows.

With --mode fwd+bwd a script times, instead of the forward alone, the
forward and the gradient of every float array input under autograd
(fwd_bwd_row below): impl "<impl>-fwd+bwd". mixer-bench runs such a script
once per case, so that the peak RSS is that case's alone.
"""

import argparse
import json
import re
import resource
import sys
import time

import torch

from bench_cases import parse_case, shape_string  # noqa: F401 (re-exported)


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
    parser.add_argument("--mode", choices=("fwd", "fwd+bwd"), default="fwd",
                        help="time the forward, or forward and backward")
    parser.add_argument("--torch-only", action="store_true",
                        help="PyTorch's rows only, not those of the other "
                        "libraries a script also runs (a second run under "
                        "another PyTorch)")
    args = parser.parse_args()
    global MODE, TORCH_ONLY
    MODE = args.mode
    TORCH_ONLY = args.torch_only
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    print(json.dumps({"versions": {
        "torch": torch.__version__,
        "python": sys.version.split()[0],
        "torch_cpu_capability": torch.backends.cpu.get_cpu_capability()
        if hasattr(torch.backends, "cpu") else "unknown",
    }}), flush=True)
    return args


# "fwd" or "fwd+bwd" (--mode); read by the bench functions through fwd_bwd().
MODE = "fwd"


def fwd_bwd():
    """Whether this run times forward + backward (--mode fwd+bwd)."""
    return MODE == "fwd+bwd"


# Whether only PyTorch's rows are wanted (--torch-only).
TORCH_ONLY = False


def torch_only():
    """Whether this run leaves out the rows of libraries other than PyTorch
    (--torch-only)."""
    return TORCH_ONLY


def run_benches(doc, benches):
    """main() of a script with one subcommand per op: `benches` maps the op
    to its bench(name, dims, flags, repeat), called once per --case."""
    args = arguments(doc, list(benches))
    for spec in args.case:
        name, dims, flags = parse_case(spec)
        benches[args.op](name, dims, flags, args.repeat)


def uniform(*shape, lo=-1.0, hi=1.0):
    # torch.rand() with no sizes is an error; a tuple () gives a 0-d tensor
    # (the OT value's cotangent).
    return torch.rand(shape) * (hi - lo) + lo


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
        flops=None, bytes_=None, library=None):
    """One JSON row, printed; GFLOP/s from `flops`, else GB/s from `bytes_`.
    `library` ({"library", "version"}): a row of another library than
    PyTorch."""
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
    if library:
        r.update(library)
    # The process's peak so far (cases run in order in one process).
    r["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps(r), flush=True)
    return r


# --------------------------------------------------------------------------
# fwd+bwd: forward and the gradients of every float input, under autograd
# --------------------------------------------------------------------------

def _status_kb(field):
    """A field of /proc/self/status in KiB (VmRSS, VmHWM)."""
    with open("/proc/self/status") as f:
        return int(re.search(field + r":\s+(\d+)", f.read()).group(1))


def _reset_peak_rss():
    """Resets VmHWM to the current RSS (Linux >= 4.0), so that the next read
    is the peak of what runs in between; False where not allowed."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _timed(fn, repeat):
    """Warm-up as in measure(), then `repeat` timed calls (autograd on)."""
    start = time.perf_counter()
    fn()
    while time.perf_counter() - start < 0.2:
        t0 = time.perf_counter()
        fn()
        if time.perf_counter() - t0 > 0.05:
            break
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def _gradients(forward, inputs, cotangents):
    """The gradient of sum_k <cotangent_k, out_k> w.r.t. every input."""
    leaves = [t.detach().requires_grad_(True) for t in inputs]
    outs = forward(*leaves)
    pairs = [(o, c) for o, c in zip(outs, cotangents) if o.requires_grad]
    grads = torch.autograd.grad([o for o, _ in pairs], leaves,
                                [c for _, c in pairs], allow_unused=True)
    return [g if g is not None else torch.zeros_like(t)
            for g, t in zip(grads, leaves)]


def fwd_bwd_row(op, name, impl, shapes, forward, inputs, repeat, tolerance,
                tolerance_name):
    """Times forward(*inputs) (a tuple of outputs), then forward and the
    gradients of every tensor of `inputs` for the loss
    sum_k <cotangent_k, out_k> with fixed cotangents uniform in [-1, 1).
    Prints one row, impl "<impl>-fwd+bwd": median_ms etc. of forward +
    backward, fwd_ms (the forward alone, same process), peak_rss_mb (the
    process's ru_maxrss: imports, inputs and everything this case ran),
    work_rss_mb (the peak during the fwd+bwd calls minus the RSS before
    them and minus the size of the gradients: what autograd's saved tensors
    and the temporaries add, as mixer-bench reports for mixer) and
    rel_error, the largest relative error over the gradients against the
    same formulation differentiated in fp64 (max |g - g64| / max |g64| per
    input)."""
    with torch.inference_mode():
        outs = forward(*inputs)
    cotangents = [uniform(*o.shape) for o in outs]
    _, fwd_times = measure(lambda: forward(*inputs), repeat)
    rss_before = _status_kb("VmRSS")
    reset = _reset_peak_rss()
    times = _timed(lambda: _gradients(forward, inputs, cotangents), repeat)
    # mixer writes its gradients into buffers allocated before its timed
    # calls; autograd allocates them within: not counted, as in mixer.
    grad_kb = sum(t.numel() * t.element_size() for t in inputs) / 1024
    work_kb = _status_kb("VmHWM") - rss_before - grad_kb if reset else None
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    grads = _gradients(forward, inputs, cotangents)
    grads64 = _gradients(forward, [t.double() for t in inputs],
                         [c.double() for c in cotangents])
    rel = 0.0
    for g, r in zip(grads, grads64):
        e = rel_error((g,), (r,))
        rel = e if e == "inf" or rel == "inf" else max(rel, e)
    t = torch.tensor(sorted(times), dtype=torch.float64)
    f = torch.tensor(sorted(fwd_times), dtype=torch.float64)
    median = float(torch.quantile(t, 0.5))
    r = {"op": op, "case": name, "impl": impl + "-fwd+bwd", "shapes": shapes,
         "median_ms": median,
         "q1_ms": float(torch.quantile(t, 0.25)),
         "q3_ms": float(torch.quantile(t, 0.75)),
         "fwd_ms": float(torch.quantile(f, 0.5)),
         "compile_s": None, "gflops": None, "rel_error": rel,
         "grad_check": "fp64 autograd", "status": "ok", "reason": "",
         "peak_rss_mb": peak_mb,
         "work_rss_mb": work_kb / 1024.0 if work_kb is not None else None}
    if rel == "inf" or not rel <= tolerance:
        r["status"] = "inaccurate"
        r["reason"] = (f"gradient rel_error above the {tolerance:g} "
                       f"tolerance of {tolerance_name}")
    print(json.dumps(r), flush=True)
    return r
