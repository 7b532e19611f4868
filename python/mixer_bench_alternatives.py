"""The sections of docs/Benchmarks.md about the bench venv's libraries:
mixer's time over the fastest alternative per case (from mixer-bench's
JSON rows) and the decode table (from bench/decode.py's JSON). Used by
mixer_bench_plot.py; no third-party imports."""

import json


def _fmt_ms(ms):
    """A time with a unit that keeps three significant digits."""
    if ms is None:
        return "n/a"
    if ms < 1:
        return f"{ms * 1e3:.1f} µs"
    return f"{ms:.2f} ms" if ms < 100 else f"{ms:.0f} ms"


def _usable(row):
    return row["status"] == "ok" and row.get("median_ms") is not None


def _is_mixer(row):
    return row["impl"].startswith("mixer")


def _label(row, versions=None):
    """The impl with its library and version; the rows of the PyTorch
    scripts under mixer-bench's --python (Debian's PyTorch by default)
    carry neither (the JSON's versions)."""
    lib = row.get("library")
    version = row.get("version")
    if lib and version:
        return f"{row['impl']} ({lib} {version})"
    if versions and row["impl"].startswith("torch") and versions.get("torch"):
        return f"{row['impl']} (torch {versions['torch']} of --python)"
    return row["impl"]


def fastest_alternatives(rows):
    """Per case with a mixer row: (op, case, mixer row, fastest accurate
    other row or None, the other rows that did not give a time)."""
    out = []
    cases = list(dict.fromkeys((r["op"], r["case"]) for r in rows))
    for op, case in cases:
        here = [r for r in rows if r["op"] == op and r["case"] == case]
        mixer = next((r for r in here if r["impl"] == "mixer"), None)
        if mixer is None:
            continue
        others = [r for r in here if not _is_mixer(r)]
        timed = [r for r in others if _usable(r)]
        fastest = min(timed, key=lambda r: r["median_ms"]) if timed else None
        failed = [r for r in others if not _usable(r)]
        out.append((op, case, mixer, fastest, failed))
    return out


def write_alternatives(w, rows, versions=None):
    """The table of mixer's time over the fastest alternative, per case,
    and the alternatives that gave no time with their reasons."""
    w("")
    w("## mixer against the fastest alternative")
    w("")
    w("Per case, mixer's median time over the fastest accurate alternative's "
      "(< 1: mixer is faster), among every comparison row of the run: "
      "PyTorch (--python's, Debian's by default, and the bench venv's), JAX, mamba2-jax, ott-jax, pykeops, "
      "geomloss and flash-linear-attention's reference forms (`scripts/setup.sh "
      "--bench`), all on the same number of threads.")
    w("")
    w("| op | case | mixer | fastest alternative | its time | mixer / fastest |")
    w("|---|---|---:|---|---:|---:|")
    failures = []
    for op, case, mixer, fastest, failed in fastest_alternatives(rows):
        failures += failed
        if not _usable(mixer):
            w(f"| {op} | {case} | {mixer['status']} | | | |")
            continue
        if fastest is None:
            w(f"| {op} | {case} | {_fmt_ms(mixer['median_ms'])} | none ran | | |")
            continue
        ratio = mixer["median_ms"] / fastest["median_ms"]
        w(f"| {op} | {case} | {_fmt_ms(mixer['median_ms'])} | {_label(fastest, versions)} | "
          f"{_fmt_ms(fastest['median_ms'])} | {ratio:.2f} |")
    if failures:
        w("")
        w("Alternatives without a time (or above the tolerance), and why:")
        w("")
        w("| op | case | impl | status | reason |")
        w("|---|---|---|---|---|")
        for r in failures:
            reason = r.get("reason", "").replace("|", "\\|")
            w(f"| {r['op']} | {r['case']} | {_label(r, versions)} | {r['status']} | {reason} |")


def write_decode(w, decode):
    """The decode table: per op, batch and context, the per-step time of
    mixer.Decoder (and mamba2-jax's cached decode), and recompute / step."""
    w("")
    w("## Decode")
    w("")
    w("`bench/decode.py`: after a prefill of `context` tokens, "
      f"{decode.get('steps')} tokens one at a time through `mixer.Decoder.step` "
      "(a module compiled for one token, the recurrent form), on "
      f"{decode.get('threads')} threads. `step` is the median per-token time "
      "(flat in the context when decode is O(1) per token); `recompute` one "
      "call of the op over the context and the new token, what a decoder "
      "without a state pays per token; rel error compares the steps with one "
      "call over the whole sequence (mamba2-jax: with mixer's steps).")
    m = decode.get("machine")
    if m:
        w("")
        w(f"Measured on {m.get('cpu')}, {m.get('cores')} logical CPUs.")
    w("")
    w("The prefill's time includes compiling for the first context of each "
      "op and B. Per-step times of a few µs of work are mostly the Python "
      "call (argument checks, ctypes).")
    w("")
    w("| op | impl | B | context | step | q1..q3 | prefill | recompute | "
      "recompute / step | rel error | status |")
    w("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in decode["rows"]:
        us = lambda k: _fmt_ms(r[k] / 1e3) if r.get(k) is not None else "n/a"  # noqa: E731
        ratio = r.get("recompute_over_step")
        rel = r.get("rel_error")
        status = r["status"] + (f" ({r['reason']})" if r.get("reason") else "")
        w(f"| {r['op']} | {_label(r)} | {r['B']} | {r['context']} | {us('step_us')} | "
          f"{us('step_q1_us')}..{us('step_q3_us')} | {_fmt_ms(r.get('prefill_ms'))} | "
          f"{_fmt_ms(r.get('recompute_ms'))} | "
          f"{f'{ratio:.0f}x' if ratio is not None else 'n/a'} | "
          f"{rel if isinstance(rel, str) else (f'{rel:.1e}' if rel is not None else 'n/a')} | "
          f"{status} |")


def load_decode(path):
    with open(path) as f:
        return json.load(f)
