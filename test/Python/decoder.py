# mixer.Decoder: a prefill and 64 one-token steps (a module compiled with
# L = 1, the recurrent form) equal one call over the whole sequence, for
# each of the four scans, from zero and from a given initial state; linear
# attention also with a window, whose decoder keeps the lagged state and the
# last w tokens.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from checks import RandomInputs, expect_value_error, report  # noqa: E402

import mixer  # noqa: E402

inputs = RandomInputs(0)
normal, uniform, unit_keys = inputs.normal, inputs.uniform, inputs.unit_keys
B, PREFILL, STEPS = 2, 100, 64
L = PREFILL + STEPS





# op -> (per-token arguments [B, L, ...], per-layer keyword arguments,
#        attributes, initial state)
H, P, N, K, V, D = 2, 8, 16, 16, 16, 32
cases = {
    "ssd": ([normal(B, L, H, P), uniform(-0.5, 0, B, L, H), normal(B, L, 1, N),
             normal(B, L, 1, N)], {}, {"chunk_size": 32}, normal(B, H, P, N)),
    "selective_scan": ([normal(B, L, D), normal(B, L, D, scale=0.5) - 1, None,
                        normal(B, L, 2, N), normal(B, L, 2, N)],
                       {"D": normal(D), "delta_bias": normal(D, scale=0.1)},
                       {"delta_softplus": True}, normal(B, D, N)),
    "linear_attention": ([normal(B, L, H, K), unit_keys(B, L, H, K), normal(B, L, H, V)],
                         {}, {"scale": 0.25}, normal(B, H, K, V)),
    "gated_delta_rule": ([normal(B, L, H, K), unit_keys(B, L, H, K), normal(B, L, H, V),
                          uniform(-0.5, 0, B, L, H), uniform(0.05, 0.95, B, L, H)],
                         {}, {}, normal(B, H, K, V)),
}
cases["selective_scan"][0][2] = -np.exp(uniform(0, 2, D, N))  # A [D, N]: per layer


def split(args, start, stop):
    """The tokens start..stop-1 of the per-token arguments."""
    return [a if a.ndim < 3 else a[:, start:stop] for a in args]


def decode(op, args, kwargs, attributes, init, per_token=None):
    decoder = mixer.Decoder(op, init_state=init, **attributes)
    per_token = per_token or {}
    prefill = {name: a[:, :PREFILL] for name, a in per_token.items()}
    outputs = [decoder.prefill(*split(args, 0, PREFILL), **kwargs, **prefill)]
    for t in range(PREFILL, L):
        step = {name: a[:, t:t + 1] for name, a in per_token.items()}
        outputs.append(decoder.step(*split(args, t, t + 1), **kwargs, **step))
    return np.concatenate(outputs, axis=1), decoder.state


for op, (args, kwargs, attributes, init) in cases.items():
    function = getattr(mixer, op)
    for start in (None, init):
        y, state = function(*args, init_state=start, **kwargs, **attributes)
        y_dec, state_dec = decode(op, args, kwargs, attributes, start)
        report(f"{op} prefill {PREFILL} + {STEPS} steps, init={start is not None}",
               [(y_dec, y), (state_dec, state)], 1e-5)
# CHECK: ssd prefill 100 + 64 steps, init=False: {{.*}} PASS
# CHECK: ssd prefill 100 + 64 steps, init=True: {{.*}} PASS
# CHECK: selective_scan prefill 100 + 64 steps, init=False: {{.*}} PASS
# CHECK: selective_scan prefill 100 + 64 steps, init=True: {{.*}} PASS
# CHECK: linear_attention prefill 100 + 64 steps, init=False: {{.*}} PASS
# CHECK: linear_attention prefill 100 + 64 steps, init=True: {{.*}} PASS
# CHECK: gated_delta_rule prefill 100 + 64 steps, init=False: {{.*}} PASS
# CHECK: gated_delta_rule prefill 100 + 64 steps, init=True: {{.*}} PASS

# Linear attention with a window: token t reads the state of t - w - 1,
# which lies in the prefill for the first steps (w = 7) or before it (a
# window longer than the prefill, w = 120).
q, k, v = cases["linear_attention"][0]
log_decay = uniform(-0.2, 0, B, L, H)
for window in (7, 120):
    attributes = {"window": window, "scale": 0.25}
    o, state = mixer.linear_attention(q, k, v, log_decay=log_decay, init_state=init,
                                      **attributes)
    o_dec, state_dec = decode("linear_attention", [q, k, v], {}, attributes, init,
                              per_token={"log_decay": log_decay})
    report(f"linear_attention window={window} prefill {PREFILL} + {STEPS} steps",
           [(o_dec, o), (state_dec, state)], 1e-5)
# CHECK: linear_attention window=7 prefill 100 + 64 steps: {{.*}} PASS
# CHECK: linear_attention window=120 prefill 100 + 64 steps: {{.*}} PASS

# Several prefills, an empty one, and steps between them.
decoder = mixer.Decoder("linear_attention", window=7, scale=0.25)
pieces = [(0, 30), (30, 30), (30, 31), (31, 90), (90, 91), (91, L)]
o_dec = np.concatenate([
    (decoder.step if stop - start == 1 else decoder.prefill)(
        q[:, start:stop], k[:, start:stop], v[:, start:stop],
        log_decay=log_decay[:, start:stop]) for start, stop in pieces], axis=1)
o, state = mixer.linear_attention(q, k, v, log_decay=log_decay, window=7, scale=0.25)
report("linear_attention window=7 in pieces", [(o_dec, o), (decoder.state, state)], 1e-5)
# CHECK: linear_attention window=7 in pieces: {{.*}} PASS

expect_value_error(mixer.Decoder, "attention")
# CHECK: ValueError: argument 'op' must be one of ssd, selective_scan, linear_attention, gated_delta_rule, got 'attention'
expect_value_error(mixer.Decoder, "ssd", window=4)
# CHECK: ValueError: ssd has no attribute 'window'; it has chunk_size and options
expect_value_error(decoder.step, q[:, :2], k[:, :2], v[:, :2])
# CHECK: ValueError: step takes one token: argument 'q' must have L = 1 (dim 1), got shape (2, 2, 2, 16)
expect_value_error(decoder.prefill, q, k, v, init_state=init)
# CHECK: ValueError: argument 'init_state' is the decoder's state; give it to mixer.Decoder

# The steps ran a module compiled for one token (L = 1 static), the prefill
# one of dynamic length.
sources = [source for source, _ in mixer.module._cache]
print("one-token module:", any("@ssd(%x: tensor<?x1x2x8xf32>" in s for s in sources),
      "dynamic-length module:", any("@ssd(%x: tensor<?x?x2x8xf32>" in s for s in sources))
# CHECK: one-token module: True dynamic-length module: True
