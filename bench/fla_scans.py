#!/usr/bin/env python3
"""flash-linear-attention's PyTorch reference forms (fla.ops.*.naive, which
run on the CPU without triton) for mixer's linear_attention and
gated_delta_rule, on mixer-bench's inputs (see alt_common.py):

    fla_scans.py linear_attention --threads N --repeat N --data DIR --case NAME:B=..,L=..,H=..,Dk=..,Dv=..,Q=..[,decay][,init]
    fla_scans.py gated_delta_rule --threads N --repeat N --data DIR --case NAME:B=..,L=..,H=..,Dk=..,Dv=..,Q=..[,init]

- linear_attention with a per-head log decay is fla's simple GLA (a scalar
  gate per head and token): impls "fla-naive-chunk"
  (naive_chunk_simple_gla, chunk Q) and "fla-naive-recurrent"
  (naive_recurrent_simple_gla); without a decay the gate is 0.
- gated_delta_rule: "fla-naive-chunk" (naive_chunk_gated_delta_rule, chunk
  Q) and "fla-naive-recurrent" (naive_recurrent_gated_delta_rule).

fla's triton kernels (chunk_*, fused_*) need a GPU and are not timed here;
importing fla (even its naive modules) imports triton, which PyPI's torch
wheel brings along: no GPU is needed for that.
Scale 1/sqrt(Dk), rounded to float as mixer's attribute holds it.
"""

import functools

import numpy as np

from alt_common import measure, run, timed_row

_torch = None


def torch_module(threads):
    global _torch
    if _torch is None:
        import torch
        torch.set_num_threads(threads)
        _torch = torch
    return _torch


def scale_of(case):
    return float(np.float32(1.0 / np.sqrt(case["Dk"])))


def inputs(case, count):
    torch = torch_module(None)
    return [torch.from_numpy(np.ascontiguousarray(a)) for a in case.args[:count]]


def bench_fla(op, impl, form):
    """A bench function of `impl`: form(case) -> a callable returning
    (o, final state)."""
    def bench(case, repeat):
        torch = torch_module(None)
        fn = form(case)
        with torch.inference_mode():
            (o, s), times = measure(fn, repeat)
        io, istate = case.output_indices()
        timed_row(case, impl, "fla", "flash-linear-attention", times,
                  {io: o.numpy(), istate: s.numpy()})
    return bench


def linear_attention_form(chunked):
    def form(case):
        torch = torch_module(None)
        from fla.ops.simple_gla.naive import (naive_chunk_simple_gla,
                                              naive_recurrent_simple_gla)
        q, k, v = inputs(case, 3)
        i = 3
        if case.has("decay"):
            g = torch.from_numpy(case.args[3])
            i = 4
        else:
            g = torch.zeros(q.shape[:3])
        init = torch.from_numpy(case.args[i]) if case.has("init") else None
        if chunked:
            return functools.partial(naive_chunk_simple_gla, q, k, v, g,
                                     initial_state=init, output_final_state=True,
                                     chunk_size=case["Q"], scale=scale_of(case))
        return functools.partial(naive_recurrent_simple_gla, q, k, v, g,
                                 scale=scale_of(case), initial_state=init,
                                 output_final_state=True)
    return form


def gated_delta_rule_form(chunked):
    def form(case):
        torch = torch_module(None)
        from fla.ops.gated_delta_rule.naive import (
            naive_chunk_gated_delta_rule, naive_recurrent_gated_delta_rule)
        q, k, v, g, beta = inputs(case, 5)
        init = torch.from_numpy(case.args[5]) if case.has("init") else None
        if chunked:
            return functools.partial(naive_chunk_gated_delta_rule, q, k, v, g,
                                     beta, chunk_size=case["Q"],
                                     scale=scale_of(case), initial_state=init,
                                     output_final_state=True)
        return functools.partial(naive_recurrent_gated_delta_rule, q, k, v,
                                 beta, g, scale=scale_of(case),
                                 initial_state=init, output_final_state=True)
    return form


def impls(op, form):
    return [(impl, "fla", "flash-linear-attention", bench_fla(op, impl, form(c)))
            for impl, c in (("fla-naive-chunk", True),
                            ("fla-naive-recurrent", False))]


if __name__ == "__main__":
    run(__doc__, {
        "linear_attention": impls("linear_attention", linear_attention_form),
        "gated_delta_rule": impls("gated_delta_rule", gated_delta_rule_form),
    }, setup=torch_module)
