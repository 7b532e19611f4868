# num-threads=1 compiles the parallel loops as sequential loops, with no
# OpenMP runtime: every op function gives the same results as the
# multi-threaded build (relative difference printed; bound 1e-5), including
# the ops whose parallel loops carry reductions.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

import mixer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from checks import relative_error  # noqa: E402

rng = np.random.default_rng(0)
f32 = lambda *shape: rng.standard_normal(shape).astype(np.float32)
decay = lambda *shape: -rng.random(shape, dtype=np.float32)
k = f32(2, 70, 2, 16)
k /= np.linalg.norm(k, axis=-1, keepdims=True)
ids = np.array([[0, 3], [1, 2], [3, 0], [2, 2], [1, 0], [0, 1]], np.int32)

calls = {
    "ssd": lambda o: mixer.ssd(f32(2, 70, 4, 8), decay(2, 70, 4), f32(2, 70, 1, 16),
                               f32(2, 70, 1, 16), options=o),
    "selective_scan": lambda o: mixer.selective_scan(
        f32(2, 50, 8), f32(2, 50, 8), -np.exp(f32(8, 4)), f32(2, 50, 1, 4), f32(2, 50, 1, 4),
        D=f32(8), delta_softplus=True, options=o),
    "linear_attention": lambda o: mixer.linear_attention(
        f32(2, 90, 2, 8), f32(2, 90, 2, 8), f32(2, 90, 2, 8), log_decay=decay(2, 90, 2),
        window=5, options=o),
    "gated_delta_rule": lambda o: mixer.gated_delta_rule(
        f32(2, 70, 2, 16), k, f32(2, 70, 2, 16), decay(2, 70, 2), rng.random((2, 70, 2),
        dtype=np.float32), options=o),
    "kernel_mv": lambda o: mixer.kernel_mv(f32(300, 3), f32(500, 3), f32(500, 4), options=o),
    "kernel_lse": lambda o: mixer.kernel_lse(f32(300, 3), f32(500, 3), f32(500), eps=0.5,
                                             options=o),
    "sinkhorn": lambda o: mixer.sinkhorn(f32(100, 2), f32(80, 2), np.full(100, -np.log(100),
                                         np.float32), np.full(80, -np.log(80), np.float32),
                                         eps=0.5, iterations=20, options=o),
    "grouped_matmul": lambda o: mixer.grouped_matmul(f32(12, 32), f32(4, 32, 16),
                                                     np.array([3, 0, 7, 2], np.int64), options=o),
    "moe_ffn": lambda o: mixer.moe_ffn(f32(6, 16), f32(6, 4), 0.1 * f32(4, 16, 32),
                                       0.1 * f32(4, 16, 32), 0.1 * f32(4, 32, 16), options=o),
    "moe_dispatch": lambda o: mixer.moe_dispatch(f32(6, 16), ids, 4, options=o),
}


def flat(outputs):
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    return [np.asarray(v, dtype=np.float64) for v in outputs]


for name, call in calls.items():
    state = rng.bit_generator.state
    threaded = flat(call("num-threads=2"))
    rng.bit_generator.state = state          # the same inputs again
    sequential = flat(call("num-threads=1"))
    difference = max(relative_error(b, a) for a, b in zip(threaded, sequential))
    print(f"{name}: num-threads=1 against 2: relative difference {difference:.3g} "
          f"{'PASS' if difference <= 1e-5 else 'FAIL'}")
# CHECK: ssd: {{.*}} PASS
# CHECK: selective_scan: {{.*}} PASS
# CHECK: linear_attention: {{.*}} PASS
# CHECK: gated_delta_rule: {{.*}} PASS
# CHECK: kernel_mv: {{.*}} PASS
# CHECK: kernel_lse: {{.*}} PASS
# CHECK: sinkhorn: {{.*}} PASS
# CHECK: grouped_matmul: {{.*}} PASS
# CHECK: moe_ffn: {{.*}} PASS
# CHECK: moe_dispatch: {{.*}} PASS
