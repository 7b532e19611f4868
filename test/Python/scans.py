# mixer.selective_scan, mixer.linear_attention and mixer.gated_delta_rule
# from Python against float64 token-by-token references (Inputs/), over
# lengths that are one token, part of a chunk and several chunks with a tail
# (one compiled module each: B and L are dynamic), and the ValueErrors that
# name the Python arguments.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
import scan_reference as ref  # noqa: E402
from checks import RandomInputs, expect_value_error, report  # noqa: E402

import mixer  # noqa: E402

inputs = RandomInputs(0)
normal, uniform, unit_keys = inputs.normal, inputs.uniform, inputs.unit_keys





LENGTHS = (1, 37, 130)

# Mamba-1: dt = softplus(delta + delta_bias) around 0.1 .. 1, A = -exp(.)
# as in its S4D-real initialization.
D, N, G = 32, 16, 2
A = -np.exp(uniform(0, 2, D, N))
for length in LENGTHS:
    for full in (False, True):
        u = normal(2, length, D)
        # Without softplus delta is dt itself.
        delta = normal(2, length, D, scale=0.5) - 1 if full else uniform(0.01, 0.5, 2, length, D)
        b, c = normal(2, length, G, N), normal(2, length, G, N)
        extra = dict(D=normal(D), z=normal(2, length, D), delta_bias=normal(D, scale=0.1),
                     init_state=normal(2, D, N)) if full else {}
        y, state = mixer.selective_scan(u, delta, A, b, c, delta_softplus=full, **extra)
        init = extra.pop("init_state", None)
        y_ref, state_ref = ref.selective_scan(u, delta, A, b, c, delta_softplus=full,
                                              init=init, **extra)
        report(f"selective_scan L={length} D={D} N={N} G={G} all operands={full}",
               [(y, y_ref), (state, state_ref)], 1e-4)
# CHECK-COUNT-6: selective_scan L={{.*}} PASS

H, K, V = 2, 16, 24
for window in (0, 5):
    for length in LENGTHS:
        q, k, v = normal(2, length, H, K), unit_keys(2, length, H, K), normal(2, length, H, V)
        log_decay, init = uniform(-0.2, 0, 2, length, H), normal(2, H, K, V)
        o, state = mixer.linear_attention(q, k, v, log_decay=log_decay, init_state=init,
                                          window=window, scale=0.25, chunk_size=32)
        o_ref, state_ref = ref.linear_attention(q, k, v, log_decay, init, window, 0.25)
        report(f"linear_attention L={length} window={window} decay, init",
               [(o, o_ref), (state, state_ref)], 1e-4)
# CHECK-COUNT-6: linear_attention L={{.*}} decay, init: {{.*}} PASS
q, k, v = normal(1, 70, H, K), unit_keys(1, 70, H, K), normal(1, 70, H, V)
o, state = mixer.linear_attention(q, k, v)
report("linear_attention no decay, no init", [(o, ref.linear_attention(q, k, v)[0])], 1e-4)
# CHECK: linear_attention no decay, no init: {{.*}} PASS

for length in LENGTHS:
    q, k, v = normal(2, length, H, K), unit_keys(2, length, H, K), normal(2, length, H, V)
    g, beta = uniform(-0.5, 0, 2, length, H), uniform(0.05, 0.95, 2, length, H)
    init = normal(2, H, K, V)
    o, state = mixer.gated_delta_rule(q, k, v, g, beta, init_state=init)
    o_ref, state_ref = ref.gated_delta_rule(q, k, v, g, beta, init)
    report(f"gated_delta_rule L={length} scale=K**-0.5", [(o, o_ref), (state, state_ref)], 1e-4)
# CHECK-COUNT-3: gated_delta_rule L={{.*}} PASS

# Bad arguments: ValueError naming the Python argument, before compiling.
expect_value_error(mixer.selective_scan, u, delta, A, b, c, D=normal(D + 1))
# CHECK: ValueError: 'D' dim 0 (D) is 33, but 'u' dim 2 (D) is 32
expect_value_error(mixer.selective_scan, u, delta, A, b, c, init_state=normal(2, D))
# CHECK: ValueError: argument 'init_state' must have rank 3 [B, D, N], got rank 2
expect_value_error(mixer.selective_scan, u, delta, A, normal(2, 130, 3, N), normal(2, 130, 3, N))
# CHECK: ValueError: channels D = 32 of 'u' must be a multiple of groups G = 3 of 'b' and 'c'
expect_value_error(mixer.linear_attention, q, k[:, :, :, 1:].copy(), v)
# CHECK: ValueError: 'k' dim 3 (K) is 15, but 'q' dim 3 (K) is 16
expect_value_error(mixer.linear_attention, q, k, v, window=-1)
# CHECK: ValueError: argument 'window' must be at least 0, got -1
expect_value_error(mixer.linear_attention, q, k, v, log_decay=g[:, :, :1].copy())
# CHECK: ValueError: 'log_decay' dim 2 (H) is 1, but 'q' dim 2 (H) is 2
expect_value_error(mixer.gated_delta_rule, q, k, v, g, beta.astype(np.float64))
# CHECK: ValueError: argument 'beta' must have dtype numpy.float32, got float64
expect_value_error(mixer.gated_delta_rule, q, k, v, g, beta, chunk_size=0)
# CHECK: ValueError: argument 'chunk_size' must be at least 1, got 0
# Run-time checks of the compiled code: a positive log gate.
expect_value_error(mixer.gated_delta_rule, q, k, v, -g, beta)
# CHECK: ValueError: 'gated_delta_rule' rejected its arguments: mixer.gated_delta_rule: 'g' holds a positive
