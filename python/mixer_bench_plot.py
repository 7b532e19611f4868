#!/usr/bin/env python3
"""Turns mixer-bench JSON into SVG figures and docs/Benchmarks.md.

    /usr/bin/python3 python/mixer_bench_plot.py bench/results/cpu.json \
        [--train bench/results/train.json] [--decode bench/results/decode.json] \
        [--figures bench/figures] [--doc docs/Benchmarks.md]

Figures: OP_time.svg per op (median time against the op's size, one line
per implementation and setting of the other dimensions) and ratio.svg (per
case of every op, each other implementation's median time over mixer's).
The fwd+bwd rows (of --train, the train suite, and of the main file) get a
section of their own: forward and forward + backward times, peak RSS and
gradient error. The bench venv's libraries get a table of mixer's time over
the fastest alternative, and --decode (bench/decode.py's JSON) the decode
table (python/mixer_bench_alternatives.py).
"""

import argparse
import json
import os
import math

import matplotlib

from mixer_bench_alternatives import load_decode, write_alternatives, write_decode

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path) as f:
        return json.load(f)


def ok(row):
    return row["status"] == "ok" and row.get("median_ms") is not None


def is_fwd_bwd(row):
    """A row that times forward + backward (impl "...-fwd+bwd")."""
    return row["impl"].endswith("fwd+bwd")


# The size each op's figure puts on the x axis.
SIZE_DIM = {
    "ssd": "L",
    "linear_attention": "L",
    "selective_scan": "L",
    "gated_delta_rule": "L",
    "kernel_lse": "N",
    "kernel_mv": "N",
    "sinkhorn": "N",
    "grouped_matmul": "E",
    "grouped_swiglu": "T",
    "topk_router": "T",
    "moe_dispatch": "T",
    "moe_combine": "T",
}


def ops_in_order(rows):
    return list(dict.fromkeys(r["op"] for r in rows))


def shape_words(shapes):
    """'B=1 L=2 init' -> ({'B': 1, 'L': 2}, ['init'])"""
    dims, flags = {}, []
    for word in shapes.split():
        key, eq, value = word.partition("=")
        if eq and value.lstrip("-").isdigit():
            dims[key] = int(value)
        else:
            flags.append(word)
    return dims, flags


def size_dim(op, rows):
    """The op's x axis: SIZE_DIM, else the first dimension that varies."""
    if op in SIZE_DIM:
        return SIZE_DIM[op]
    shapes = [shape_words(r["shapes"])[0] for r in rows if r["op"] == op]
    for key in (shapes[0] if shapes else {}):
        if len({s.get(key) for s in shapes}) > 1:
            return key
    return next(iter(shapes[0]), None) if shapes else None


def plot_time_vs_size(rows, op, out):
    """Median time against the op's size, one line per implementation and
    setting of the other dimensions (named only when they vary)."""
    op_rows = [r for r in rows if r["op"] == op]
    x_dim = size_dim(op, rows)
    parsed = [shape_words(r["shapes"]) for r in op_rows]
    # Dimensions tied to the size (M = N) are not part of the labels.
    keys = {k for dims, _ in parsed for k in dims
            if k != x_dim and any(dims.get(k) != dims.get(x_dim)
                                  for dims, _ in parsed)}
    varying = sorted(k for k in keys
                     if len({dims.get(k) for dims, _ in parsed}) > 1)
    flag_sets = {tuple(flags) for _, flags in parsed}
    series = {}
    for r, (dims, flags) in zip(op_rows, parsed):
        if not ok(r) or x_dim not in dims:
            continue
        label = " ".join(f"{k}={dims[k]}" for k in varying if k in dims)
        if len(flag_sets) > 1 and flags:
            label += " " + " ".join(flags)
        key = (r["impl"], label.strip())
        series.setdefault(key, []).append((dims[x_dim], r["median_ms"]))
    fig, ax = plt.subplots(figsize=(8, 4))
    impls = sorted({impl for impl, _ in series})
    colors = {impl: f"C{i}" for i, impl in enumerate(impls)}
    markers = "osD^v<>p*h"
    labels = sorted({label for _, label in series})
    for (impl, label), pts in sorted(series.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts],
                marker=markers[labels.index(label) % len(markers)],
                color=colors[impl],
                linestyle="-" if len(pts) > 1 else "none",
                label=f"{impl} ({label})" if label else impl)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    fixed = {k: parsed[0][0][k] for k in sorted(keys)
             if k not in varying and parsed and k in parsed[0][0]}
    ax.set_xlabel(f"{x_dim}" + (" (" + ", ".join(f"{k}={v}" for k, v in fixed.items())
                                + ")" if fixed else ""))
    ax.set_ylabel("median time per call (ms)")
    ax.set_title(f"mixer.{op} on the CPU")
    ax.grid(True, which="both", alpha=0.3)
    if series:
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def ratios(rows):
    """[(case, impl, other_ms / mixer_ms)] for every other implementation."""
    mixer = {r["case"]: r for r in rows if r["impl"] == "mixer" and ok(r)}
    out = []
    for r in rows:
        if r["impl"] != "mixer" and ok(r) and r["case"] in mixer:
            out.append((r["case"], r["impl"],
                        r["median_ms"] / mixer[r["case"]]["median_ms"]))
    return out


def plot_ratio(rows, out):
    """Per case (grouped by op), each other implementation's median time
    over mixer's, on a log axis."""
    data = ratios(rows)
    op_of = {r["case"]: r["op"] for r in rows}
    cases = list(dict.fromkeys(c for c, _, _ in data))
    impls = sorted({i for _, i, _ in data})
    fig, ax = plt.subplots(figsize=(max(7, 0.45 * len(cases) + 2), 4.5))
    width = 0.8 / max(1, len(impls))
    for k, impl in enumerate(impls):
        xs, ys = [], []
        for j, case in enumerate(cases):
            for c, i, v in data:
                if c == case and i == impl:
                    xs.append(j + k * width)
                    ys.append(v)
        ax.bar(xs, ys, width=width, label=impl)
    # A line between ops, the op's name above its cases.
    for j, case in enumerate(cases):
        if j and op_of[case] != op_of[cases[j - 1]]:
            ax.axvline(j - 0.1 - width / 2, color="grey", linewidth=0.6,
                       linestyle=":")
    starts = [j for j, c in enumerate(cases)
              if j == 0 or op_of[c] != op_of[cases[j - 1]]]
    for j in starts:
        ax.text(j - width / 2, 1.01, op_of[cases[j]], fontsize=7,
                transform=ax.get_xaxis_transform(), rotation=30,
                va="bottom", ha="left")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks([j + width * (len(impls) - 1) / 2 for j in range(len(cases))])
    ax.set_xticklabels(cases, rotation=35, ha="right", fontsize=7)
    ax.set_ylabel("time / mixer time (> 1: mixer faster)")
    ax.set_title("Other implementations relative to mixer, every op", pad=40)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def fmt(v, spec):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return format(v, spec)


# What each op's implementations and inputs are, for the methodology.
OP_NOTES = {
    "ssd": "Mamba-2's scan. `torch-chunked` (`bench/torch_ssd.py`): the "
           "chunked SSD algorithm with einsum and segment sums. Inputs: x, b, "
           "c uniform in [-1, 1), log_a in [-1, 0), init in [-1, 1).",
    "linear_attention": "`torch-chunked` (`bench/torch_scans.py`): the "
           "chunked form with einsum (masked intra-chunk scores, chunk states, "
           "a loop over chunk boundaries). Inputs: q, k, v uniform in [-1, 1), "
           "log_decay in [-1, 0), init in [-1, 1), scale 1/sqrt(Dk).",
    "selective_scan": "Mamba-1's scan. `torch-loop` (`bench/torch_scans.py`): "
           "a loop over L, each step vectorized over B, D, N. Inputs: u, b, c, "
           "D_skip, z uniform in [-1, 1), A in [-2, -0.5); with the options "
           "dt = softplus(delta + delta_bias), delta in [-1, 1), delta_bias in "
           "[-4, -2); without them delta in [0.001, 0.1).",
    "gated_delta_rule": "`torch-loop` (`bench/torch_scans.py`): the "
           "recurrent delta rule, a loop over L vectorized over B and H. "
           "Inputs: q, v uniform in [-1, 1), k uniform then unit length, "
           "g in [-1, 0), beta in [0, 1), scale 1/sqrt(Dk).",
    "kernel_lse": "`torch-dense` / `torch-blocked` (`bench/torch_kernels.py`): "
           "torch.cdist, then logsumexp over the whole N x M matrix or over "
           "blocks of 256 rows. Inputs: points uniform in the unit cube, "
           "g in [-1, 1), eps 0.1, squared Euclidean cost.",
    "kernel_mv": "`torch-dense` / `torch-blocked` (`bench/torch_kernels.py`): "
           "torch.cdist, exp and a matmul with v, whole or by blocks of 256 "
           "rows. Inputs: points uniform in the unit cube, v in [-1, 1), "
           "Gaussian kernel of bandwidth 0.5.",
    "sinkhorn": "`torch-dense` (`bench/torch_kernels.py`): the cost matrix, "
           "then log-domain iterations with logsumexp. Inputs: points uniform "
           "in the unit cube, uniform weights, eps 0.1.",
    "grouped_matmul": "`torch-loop` (`bench/torch_moe.py`): one torch.mm per "
           "expert on its rows. Uneven group sizes proportional to "
           "1 + (5e mod E), summing to T. Inputs: lhs uniform in [-1, 1), "
           "rhs in [-1, 1)/sqrt(K).",
    "grouped_swiglu": "`torch-loop` (`bench/torch_moe.py`): per expert "
           "silu(x W_gate) * (x W_up) with two matmuls. Group sizes as "
           "grouped_matmul; x uniform in [-1, 1), weights in [-1, 1)/sqrt(K).",
}


def geomean_by_op(rows):
    """{op: (geometric mean of fastest alternative / mixer, cases)}. The
    alternatives are the other libraries' rows; mixer's own naive lowering
    counts only for a case that has none (as mixer-bench's summary)."""
    best = {}
    mixer = {r["case"]: r for r in rows if r["impl"] == "mixer" and ok(r)}
    external = {r["case"] for r in rows
                if not r["impl"].startswith("mixer") and ok(r)}
    for r in rows:
        if r["impl"] == "mixer" or not ok(r) or r["case"] not in mixer:
            continue
        if r["impl"].startswith("mixer") and r["case"] in external:
            continue
        v = r["median_ms"] / mixer[r["case"]]["median_ms"]
        best[r["case"]] = min(best.get(r["case"], v), v)
    out = {}
    for case, v in best.items():
        out.setdefault(mixer[case]["op"], []).append(v)
    return {op: (math.exp(sum(math.log(v) for v in vs) / len(vs)), len(vs))
            for op, vs in out.items()}


def rate(r):
    if r.get("gbps") is not None:
        return fmt(r.get("gbps"), ".1f") + " GB/s"
    return fmt(r.get("gflops"), ".1f")


def cpu_words(m):
    """The CPU's name, with LLVM's name for it where the file has it (the
    vendors' strings under a hypervisor say little: "AMD EPYC")."""
    if m.get("host_cpu_name"):
        return f"{m.get('cpu')} (LLVM: {m['host_cpu_name']})"
    return f"{m.get('cpu')}"


def machine_words(m, cfg):
    """The machine a JSON file's numbers come from, in one line."""
    words = (f"{cpu_words(m)}, {m.get('cores')} cores, {cfg.get('threads')} "
             "threads used")
    if m.get("fma_isa"):
        words += f", {m['fma_isa']}"
    if m.get("fma_peak_gflops") is not None:
        words += f"; FMA peak {fmt(m.get('fma_peak_gflops'), '.1f')} GFLOP/s"
    if m.get("target_cpu", "host") != "host":
        words += f"; code for {m['target_cpu']}"
    if m.get("unsteady"):
        words += (f"; unsteady: its FMA peak drifted "
                  f"{fmt(100 * m.get('fma_drift', 0), '.0f')}% during the run")
    return words


def calibration_words(m):
    """The calibrations before the cases, between their rounds (when any)
    and after them, in a few words."""
    def words(c):
        return (f"FMA {fmt(c.get('fma_peak_gflops'), '.1f')}, triad "
                f"{fmt(c.get('triad_gbps'), '.1f')}, exp "
                f"{fmt(c.get('exp_gps'), '.2f')}")
    between = "".join(f"; before round {i + 2} {words(c)}"
                      for i, c in enumerate(
                          m.get("calibration_between_rounds", [])))
    return (f"before {words(m['calibration_before'])}{between}; after "
            f"{words(m['calibration_after'])}")


def code_target_words(m):
    """The CPU the code was compiled for (mixer-bench --mcpu), when it is
    not the machine's own; None otherwise and in files without it."""
    if m.get("target_cpu", "host") == "host":
        return None
    return (f"- Code: compiled for {m['target_cpu']} "
            f"({m.get('target_isa')}, {m.get('target_vector_registers')} "
            f"registers of {m.get('target_vector_width')} f32 lanes"
            + (f", {m['target_l1_cache_bytes'] // 1024} KiB L1d and "
               f"{m['target_l2_cache_bytes'] // 1024} KiB L2 per core"
               if m.get("target_l1_cache_bytes") else "")
            + "; PyTorch "
            f"with ATEN_CPU_CAPABILITY={m.get('aten_cpu_capability')}), run "
            f"on this machine ({m.get('host_cpu_name')}); the FMA peak is of "
            "that vector ISA")


def write_training(w, train_rows, train_paths):
    """The fwd+bwd section: one row per fwd+bwd row, mixer's and PyTorch's."""
    w("")
    w("## Training: forward + backward")
    w("")
    for path in train_paths:
        cfg = load(path)["config"]
        data = load(path)
        w(f"- `{os.path.relpath(path)}` (measured on "
          f"{machine_words(data['machine'], cfg)}): "
          "`build/bin/mixer-bench --suite "
          f"{cfg.get('suite')}" + (" --isolate" if cfg.get("isolate") else "")
          + f" --threads {cfg.get('threads')} "
          f"--repeat {cfg.get('repeat')}"
          + (f" --filter {cfg['filter']}" if cfg.get("filter") else "")
          + (f" --op {cfg['op']}" if cfg.get("op") else "")
          + (" --grad-check fd" if cfg.get("grad_check") == "fd" else "")
          + f" --json {os.path.relpath(path)}`")
    if train_paths:
        w("")
    w("| case | impl | shapes | fwd ms | fwd+bwd ms | fwd+bwd / fwd | "
      "peak RSS MB | work RSS MB | grad error | checked against | status |")
    w("|---|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    for r in train_rows:
        ratio = None
        if r.get("median_ms") is not None and r.get("fwd_ms"):
            ratio = r["median_ms"] / r["fwd_ms"]
        status = r["status"] + (f" ({r['reason']})" if r.get("reason") else "")
        w(f"| {r['case']} | {r['impl']} | {r.get('shapes', '')} | "
          f"{fmt(r.get('fwd_ms'), '.3f')} | {fmt(r.get('median_ms'), '.3f')} | "
          f"{fmt(ratio, '.2f')} | {fmt(r.get('peak_rss_mb'), '.0f')} | "
          f"{fmt(r.get('work_rss_mb'), '.0f')} | "
          f"{fmt(r.get('rel_error'), '.1e')} | {r.get('grad_check', '')} | "
          f"{status} |")


def mixer_share(r):
    """A mixer row's median and share of its ceiling, in one cell."""
    pf = r.get("peak_fraction")
    share = (f", {pf * 100:.1f}%" + (f" {r['peak']}" if r.get("peak") else "")
             if pf is not None else "")
    return f"{fmt(r.get('median_ms'), '.3f')} ms{share}"


def write_code_targets(w, data, json_path, target_runs):
    """mixer's rows of the main file beside those of runs compiled for other
    CPUs (`mixer-bench --mcpu`) or measured on other machines: one column per
    file, each named by its machine, so every number says where it is from."""
    runs = [(json_path, data)] + [(p, load(p)) for p in target_runs]
    w("")
    w("## Per machine and code target")
    w("")
    w("mixer's median time and share of the ceiling, one column per run:")
    w("")
    for i, (path, run) in enumerate(runs):
        w(f"- run {i + 1}: `{os.path.relpath(path)}`, "
          f"{machine_words(run['machine'], run['config'])}")
    w("")
    w("| case | " + " | ".join(f"run {i + 1}" for i in range(len(runs))) + " |")
    w("|---|" + "---:|" * len(runs))
    cells = [{r["case"]: mixer_share(r) for r in run["rows"]
              if r["impl"] == "mixer" and ok(r) and not is_fwd_bwd(r)}
             for _, run in runs]
    for case in dict.fromkeys(c for run in cells for c in run):
        w(f"| {case} | " + " | ".join(run.get(case, "-") for run in cells)
          + " |")
    write_named_comparisons(w, runs)


# The comparisons the per-machine section gives for every run: the op, the
# rows that stand for the other implementation, and its name.
NAMED_COMPARISONS = [
    ("grouped_matmul", ("openblas-loop",), "a per-expert OpenBLAS loop"),
    ("topk_router", ("torch", "torch2.15"), "torch.topk"),
]


def named_comparison(rows, case, impls):
    """The fastest of `impls`' accurate rows of `case` over mixer's median
    (> 1: mixer is faster), as a cell; "-" when the run lacks either."""
    mine = [r for r in rows if r["case"] == case and r["impl"] == "mixer"
            and ok(r)]
    theirs = [r for r in rows if r["case"] == case and r["impl"] in impls
              and ok(r)]
    if not mine or not theirs:
        return "-"
    fastest = min(theirs, key=lambda r: r["median_ms"])
    return (f"{fastest['median_ms'] / mine[0]['median_ms']:.2f}x "
            f"({fastest['impl']})")


def write_named_comparisons(w, runs):
    """Per run, mixer against a per-expert OpenBLAS loop and torch.topk."""
    w("")
    w("Per run, a per-expert OpenBLAS loop's (grouped_matmul) and "
      "torch.topk's (topk_router) median time over mixer's (> 1: mixer is "
      "faster), on the same threads, OpenBLAS and PyTorch set for the vector "
      "ISA of mixer's code:")
    w("")
    w("| case | compared with | " +
      " | ".join(f"run {i + 1}" for i in range(len(runs))) + " |")
    w("|---|---|" + "---:|" * len(runs))
    for op, impls, name in NAMED_COMPARISONS:
        cases = dict.fromkeys(r["case"] for _, run in runs for r in run["rows"]
                              if r.get("op") == op and r["impl"] == "mixer"
                              and not is_fwd_bwd(r))
        for case in cases:
            w(f"| {case} | {name} | " + " | ".join(
                named_comparison(run["rows"], case, impls) for _, run in runs)
              + " |")


def write_doc(data, json_path, fig_dir, doc, figures, train_rows=(),
              train_paths=(), decode=None, target_runs=()):
    m, cfg = data["machine"], data["config"]
    rows = [r for r in data["rows"] if not is_fwd_bwd(r)]
    rel_fig = os.path.relpath(fig_dir, os.path.dirname(doc))
    lines = []
    w = lines.append
    w("# Benchmarks")
    w("")
    w("Generated by `python/mixer_bench_plot.py` from "
      f"`{os.path.relpath(json_path)}`; do not edit by hand.")
    w("")
    w("## Reproduce")
    w("")
    w("```sh")
    w("scripts/bench.sh          # setup --bench, build, run the cpu suite, plot")
    w("# or step by step:")
    w("build/bin/mixer-bench --suite cpu --isolate --rounds 3 --json bench/results/cpu.json")
    w("build/bin/mixer-bench --suite train --isolate --json bench/results/train.json")
    w("# code for another CPU that this one can run, as a column of its own:")
    w("build/bin/mixer-bench --suite cpu --isolate --rounds 3 --mcpu znver3 --no-alternatives "
      "--json bench/results/cpu-znver3.json")
    w(".venv-bench/bin/python bench/decode.py --json bench/results/decode.json")
    w("/usr/bin/python3 python/mixer_bench_plot.py bench/results/cpu.json \\")
    w("    --train bench/results/train.json --decode bench/results/decode.json \\")
    w("    --target-run bench/results/cpu-znver3.json")
    w("```")
    w("")
    w("## Machine")
    w("")
    w("Every number in the Summary and Results sections was measured on this "
      f"machine, in one run (`{os.path.relpath(json_path)}`); the per-machine "
      "and training sections name the machine of each of their files. The machines this "
      "project is measured on change (AVX2-only AMD Zen 3, AVX-512 AMD Zen 4 and Zen 5, "
      "AVX-512 Intel with AMX): compare numbers only within one file.")
    w("")
    w(f"- CPU: {cpu_words(m)}, {m.get('cores')} cores; "
      f"{cfg.get('threads')} threads used")
    if code_target_words(m):
        w(code_target_words(m))
    fma = f"- fp32 FMA peak (measured): {fmt(m.get('fma_peak_gflops'), '.1f')} GFLOP/s"
    if m.get("fma_isa"):
        fma += (f" ({m['fma_isa']}, {m.get('fma_accumulators')} accumulators; "
                f"compiled loop {fmt(m.get('fma_compiled_gflops'), '.1f')}, "
                f"hand-written {fmt(m.get('fma_hand_written_gflops'), '.1f')})")
    fma += f"; STREAM triad: {fmt(m.get('triad_gbps'), '.1f')} GB/s"
    if "exp_gps" in m:
        fma += f"; the pipeline's exp: {fmt(m.get('exp_gps'), '.2f')} G/s"
    if m.get("calibration_before") and m.get("calibration_after"):
        which = ("the highest of the calibrations before the cases, "
                 "between their rounds and after them"
                 if m.get("calibration_between_rounds") else
                 "the higher of the calibrations before and after the cases")
        fma += f" (each {which}: " + calibration_words(m) + ")"
    w(fma)
    if m.get("unsteady"):
        w(f"- **Unsteady machine.** mixer-bench: {m['unsteady']}.")
    vers = data.get("versions", {})
    w("- Versions: " + ", ".join(f"{k} {v}" for k, v in sorted(vers.items())))
    w("")
    w("## Summary")
    w("")
    w("Per op, the geometric mean over its cases of the fastest "
      "alternative's median time over mixer's (> 1: mixer is faster). The "
      "alternatives are the other libraries' rows; mixer's naive lowering "
      "stands in only for a case that has none:")
    w("")
    w("| op | fastest alternative / mixer | cases |")
    w("|---|---:|---:|")
    means = geomean_by_op(rows)
    for op in ops_in_order(rows):
        if op in means:
            w(f"| {op} | {means[op][0]:.2f} | {means[op][1]} |")
    w("")
    w(f"![ratio]({rel_fig}/ratio.svg)")
    write_alternatives(w, rows, data.get("versions"))
    if decode:
        write_decode(w, decode)
    w("")
    w("## Results")
    for op in ops_in_order(rows):
        w("")
        w(f"### mixer.{op}")
        w("")
        w("| case | impl | shapes | median ms | q1..q3 ms | compile s | GFLOP/s "
          "| % peak | rel error | peak RSS MB | status |")
        w("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for r in rows:
            if r["op"] != op:
                continue
            pf = r.get("peak_fraction")
            status = r["status"] + (f" ({r['reason']})" if r.get("reason") else "")
            w(f"| {r['case']} | {r['impl']} | {r.get('shapes', '')} | "
              f"{fmt(r.get('median_ms'), '.3f')} | "
              f"{fmt(r.get('q1_ms'), '.3f')}..{fmt(r.get('q3_ms'), '.3f')} | "
              f"{fmt(r.get('compile_s'), '.2f')} | {rate(r)} | "
              f"{fmt(pf * 100 if pf is not None else None, '.1f')}"
              f"{' ' + r['peak'] if pf is not None and r.get('peak') else ''} | "
              f"{fmt(r.get('rel_error'), '.1e')} | "
              f"{fmt(r.get('peak_rss_mb'), '.0f')} | {status} |")
        if op in figures:
            w("")
            w(f"![{op}: time vs size]({rel_fig}/{figures[op]})")
    w("")
    w("### Ratios")
    w("")
    w("Time of each other implementation over mixer's (> 1: mixer is faster):")
    w("")
    w("| case | impl | ratio |")
    w("|---|---|---:|")
    for case, impl, v in ratios(rows):
        w(f"| {case} | {impl} | {v:.2f} |")
    if target_runs:
        write_code_targets(w, data, json_path, target_runs)
    if train_rows:
        write_training(w, train_rows, train_paths)
    w("")
    w("## Methodology")
    w("")
    w("- **Cases.** Each case is an op at fixed shapes through one "
      "implementation: `mixer` (the optimized CPU pipeline, "
      "`mixer-lower-to-cpu-pipeline`), `mixer-naive` (`naive=true`: the scalar "
      "loops of convert-mixer-to-loops; skipped when its inner-loop work, "
      "e.g. B*L*H*P*N for ssd, exceeds "
      f"{fmt(cfg.get('naive_max_work'), '.0e')}) and the PyTorch baselines "
      "below. mixer functions are JIT-compiled in process. Shapes are the "
      "public benchmarks' scaled to 2 cores (`tools/mixer-bench/*Bench.cpp`).")
    for op in ops_in_order(rows):
        if op in OP_NOTES:
            w(f"- **{op}.** {OP_NOTES[op]}")
    w("- **Inputs.** mixer uses a fixed seed; the PyTorch scripts draw their "
      "own values of the same ranges; the bench venv's libraries get mixer's "
      "inputs (mixer-bench writes each case's arguments and fp64 reference "
      "as .npy files, `bench/alt_common.py`). mixer's buffers of 4 MiB or "
      "more are 2 MiB-aligned and advised for transparent huge pages "
      "(madvise), as numpy's arrays are, on which the Python rows run "
      "(`tools/mixer-bench/HostMemory.h`; records before 2026-12-04 had them "
      "on 4 KiB pages where the kernel's setting is madvise).")
    w("- **Alternatives.** `scripts/setup.sh --bench` makes `.venv-bench/` "
      "(PyPI, versions pinned in `bench/requirements.txt`); each library runs "
      "jitted or compiled with its compilation in the warm-up, pinned to the "
      "same number of cores (XLA, OpenMP and PyTorch size their pools from "
      "the affinity mask; one thread is asked for explicitly where there is "
      "one). A library that cannot import or run gives a row with the "
      "reason.")
    w("- **Timing.** Compile time (parse, pipeline, JIT) is measured apart "
      "(`compile_s`). Then warm-up calls (at least one, up to 0.2 s), then "
      f"`--repeat` ({cfg.get('repeat')}) timed calls reusing the same input "
      "and output buffers; median, first and third quartiles of the "
      "per-call wall times.")
    if (cfg.get("rounds") or 1) > 1:
        w(f"- **Rounds.** mixer's rows (not the naive ones) were timed in "
          f"{cfg['rounds']} rounds, one round of every case after another, "
          "and each is its median round (every round's median is the row's "
          "`round_medians_ms` in the JSON): a slow minute of the shared "
          "machine then lands in one round of a case, not in its row. The "
          "comparison rows ran once.")
    w("- **Flops.** Each op counts its algorithm's nominal work, the same for "
      "every implementation (the naive loops may do less or more). `% peak` "
      "is a fraction of the ceiling the op's work calls for, named after the "
      "number (the row's `peak` in the JSON): `fma`, the measured fp32 FMA "
      "peak, for contractions (a loop of the vector ISA of the code run: "
      "the CPU's widest, or that of the CPU `--mcpu` names, whose code then "
      "runs on this machine, with the accumulators its register file holds: "
      "24 of 32 zmm with AVX-512, 12 of 16 ymm with AVX2; the better of the "
      "compiled loop and a hand-written assembly one, both reported); "
      "`exp-aware` for ops that evaluate exps among their flops (kernel sums, "
      "sinkhorn, selective_scan, the gated ops): flops / (flops / FMA peak + "
      "exps / exp rate), the exp rate being the throughput of the CPU "
      "pipeline's own vectorized exp (a linalg kernel of exp(min(x, 0)) "
      "on [-20, 0), the form and range of the ops' exps, compiled through "
      "the same pipeline and JIT); `triad`, the STREAM triad, for "
      "byte-counted ops. All on the same number of threads "
      "(`mixer-bench --calibrate`), measured before the cases, again "
      "before every round after the first (with --rounds) and after them, "
      "each ceiling the highest measured (a slow minute of a shared "
      "machine lowers one measurement; the fractions are of the "
      "highest). Files written before the ceilings were "
      "named have no name after the number: FMA peak or triad. The counts:")
    for key in sorted(k for k in cfg if k.startswith("flops_")):
        w(f"  - {key[len('flops_'):]}: `{cfg[key]}`")
    w("- **Accuracy.** rel error = max|out - ref| / max|ref| over all outputs "
      "together, against the fp64 definition (mixer: `include/mixer/Reference`; "
      "PyTorch: an fp64 computation in the script). Tolerances: scans 1e-4, "
      "kernel sums 1e-5, grouped GEMM 1e-5; rows above are marked `inaccurate`.")
    w("- **Memory.** peak RSS is getrusage's ru_maxrss: with `--isolate` "
      "each mixer case runs in a forked child and the row holds that "
      "child's peak (which includes the parent's pages at the fork); "
      "without it, the process's peak so far. PyTorch rows give the "
      "script process's peak so far (it runs the cases in order).")
    w("- **fwd+bwd.** The `train` suite (and `smoke`, and any suite with "
      "`--fwd-bwd`) adds, for each differentiable op, a `mixer-fwd+bwd` row: "
      "the module gains `@op_vjp` (`mixer-generate-vjp`, as the pipeline "
      "option `generate-vjp` does), and each timed iteration calls the "
      "forward, then `@op_vjp` on the same inputs with fixed cotangents "
      "uniform in [-1, 1) (`@op_vjp` recomputes what it needs of the "
      "forward). `median ms` is forward + backward, `fwd ms` the forward "
      "alone in the same iterations. An op whose backward op does not exist "
      "yet gives a `skipped` row saying so. PyTorch's `-fwd+bwd` rows run "
      "the same formulations under autograd (`--mode fwd+bwd` of the "
      "scripts): the forward, then `torch.autograd.grad` of sum(out * "
      "cotangent) w.r.t. every float input, each case in a fresh process. "
      "`peak RSS` of a fwd+bwd row is ru_maxrss of the process that ran only "
      "that case (mixer: the `--isolate` child, from wait4; it includes the "
      "compiler and the fp64 reference of the check; PyTorch: the script, "
      "including `import torch`, ~240 MB); `work RSS` is the growth of the "
      "RSS over the timed calls (the peak after resetting VmHWM through "
      "/proc/self/clear_refs, minus the RSS before them), without the "
      "gradient buffers themselves in both: the memory the backward's "
      "residuals and temporaries take. `grad error` is the largest over the "
      "inputs of max|g - ref| / max|ref|, against the fp64 reference "
      "gradients (`include/mixer/Reference`; PyTorch: the same formulation "
      "differentiated in fp64), or, with `--grad-check fd` (the reference "
      "gradients of the large MoE cases take minutes), |fd - <g, v>| / "
      "max(|fd|, |<g, v>|) for differences fd of the compiled forward along "
      "a random direction v (`grad_check` says which; "
      "tools/mixer-bench/GradientCheck.h): v scaled to each input's largest "
      "magnitude, central differences at steps 1e-2 and 5e-3 of it "
      "extrapolated (Richardson, error O(h^4)), <g, v> taken along the "
      "perturbation the float32 inputs really got. A plain central "
      "difference with step 0.01 along v uniform in [-1, 1) moves "
      "grouped_swiglu's weights (~1/sqrt(K)) by 23% of their size: its "
      "truncation error alone is 4.5e-2 at K = 512, F = 1024 (fp64, through "
      "the reference), which earlier rows reported as the gradient's error. "
      "Tolerance 1e-4 against the reference, 1e-3 against the differences "
      "(their float32 rounding, about 2e-4 at the MoE shapes).")
    w("- **Environment of PyTorch.** `LD_PRELOAD=libjemalloc.so.2`, "
      "`MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1` (freed pages are kept: "
      "first touches are expensive here), `ATEN_CPU_CAPABILITY` and "
      "`OPENBLAS_CORETYPE` chosen from the CPU's features (avx512 and "
      "SkylakeX with AVX-512 F/BW/VL/DQ, avx2 and Haswell with AVX2 and FMA, "
      "otherwise default and OpenBLAS's own detection: AVX-512 kernels die of "
      "SIGILL on AVX2-only CPUs) and `MKL_ENABLE_INSTRUCTIONS` of the same "
      "ISA (AVX512, AVX2, AVX: the BLAS of PyTorch's wheels is MKL, which "
      "otherwise takes the machine's widest ISA even when mixer's code is "
      "compiled for a narrower one with --mcpu), "
      "`torch.set_num_threads(threads)`; OpenBLAS (Debian's PyTorch calls "
      "libblas.so.3, which must be OpenBLAS, not the reference BLAS) on one "
      "thread beside PyTorch's pool, or on all threads for the per-expert "
      "torch.mm loops, whose BLAS calls are outside PyTorch's parallel regions.")
    w("- **Failed comparisons.** When a PyTorch script fails (or torch "
      "cannot be imported), mixer-bench's summary says so per op, in words, "
      "and that the op's ratio is then against mixer's naive lowering only.")
    w("- **Noise.** The machine is shared: quote medians, compare "
      "implementations from the same run, and rerun before drawing "
      "conclusions from small differences. With as many threads as cores, "
      "any other load stalls OpenMP barriers: PyTorch's many small ops "
      "suffer most (a 64x64 torch.tril took milliseconds instead of "
      "microseconds on a loaded 2-core machine), and the calibrated peak "
      "drops too, which inflates `% peak`.")
    w("")
    os.makedirs(os.path.dirname(doc) or ".", exist_ok=True)
    with open(doc, "w") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json")
    parser.add_argument("--figures", default="bench/figures")
    parser.add_argument("--doc", default="docs/Benchmarks.md")
    parser.add_argument("--train", action="append", default=[],
                        help="mixer-bench JSON of the train suite (repeatable)")
    parser.add_argument("--decode", help="bench/decode.py's JSON")
    parser.add_argument("--target-run", action="append", default=[],
                        help="mixer-bench JSON of the cpu suite compiled for "
                        "another CPU (--mcpu) or run on another machine "
                        "(repeatable): its mixer rows become a column of "
                        "the per-machine table")
    args = parser.parse_args()
    data = load(args.json)
    train_rows = [r for r in data["rows"] if is_fwd_bwd(r)]
    for path in args.train:
        train_rows += [r for r in load(path)["rows"] if is_fwd_bwd(r)]
    rows = [r for r in data["rows"] if not is_fwd_bwd(r)]
    os.makedirs(args.figures, exist_ok=True)
    figures = {}
    for op in ops_in_order(rows):
        figures[op] = f"{op}_time.svg"
        plot_time_vs_size(rows, op, os.path.join(args.figures, figures[op]))
    plot_ratio(rows, os.path.join(args.figures, "ratio.svg"))
    write_doc(data, args.json, args.figures, args.doc, figures, train_rows,
              args.train, load_decode(args.decode) if args.decode else None,
              args.target_run)
    print(f"wrote {len(figures)} time figures and ratio.svg in {args.figures}, "
          f"and {args.doc}")


if __name__ == "__main__":
    main()
