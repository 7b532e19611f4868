# The arrays mixer allocates for outputs start on a 64-byte cache line
# (numpy's own start 16 bytes into one): compiled code writes their rows
# whole, and those of outputs larger than a core's L2 with non-temporal
# stores, which need line-aligned rows. Checks mixer.empty_aligned, the
# outputs of an op, of a module function and of a vjp, and a linear_attention
# whose 4 MiB output is streamed against the float64 reference.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
import scan_reference as ref  # noqa: E402
from linalg_module import SOURCE  # noqa: E402

import mixer  # noqa: E402


def placement(array):
    return f"offset {array.ctypes.data % 64} in its line"


for shape, dtype in [((2048, 8, 64), np.float32), ((3,), np.float32), ((), np.float32),
                     (7, np.int64)]:
    a = mixer.empty_aligned(shape, dtype)
    print(f"empty_aligned {shape} {np.dtype(dtype).name}: shape {a.shape}, {a.dtype}, "
          f"{placement(a)}, C-contiguous {a.flags['C_CONTIGUOUS']}, "
          f"writeable {a.flags['WRITEABLE']}")
# CHECK: empty_aligned (2048, 8, 64) float32: shape (2048, 8, 64), float32, offset 0 in its line, C-contiguous True, writeable True
# CHECK: empty_aligned (3,) float32: shape (3,), float32, offset 0 in its line, C-contiguous True, writeable True
# CHECK: empty_aligned () float32: shape (), float32, offset 0 in its line, C-contiguous True, writeable True
# CHECK: empty_aligned 7 int64: shape (7,), int64, offset 0 in its line, C-contiguous True, writeable True
empty = mixer.empty_aligned((0, 5), np.float64)
print(f"empty_aligned (0, 5) float64: shape {empty.shape}, {empty.dtype}")
# CHECK: empty_aligned (0, 5) float64: shape (0, 5), float64

rng = np.random.default_rng(3)
B, L, H, D = 1, 2048, 8, 64
q = rng.uniform(-1, 1, (B, L, H, D)).astype(np.float32)
k = rng.uniform(-1, 1, (B, L, H, D)).astype(np.float32)
v = rng.uniform(-1, 1, (B, L, H, D)).astype(np.float32)
g = rng.uniform(-0.5, 0, (B, L, H)).astype(np.float32)
(o, state), vjp = mixer.linear_attention(q, k, v, log_decay=g, scale=0.125, return_vjp=True)
o_ref, state_ref = ref.linear_attention(q, k, v, g, None, 0, 0.125)
error = max(float(np.max(np.abs(o - o_ref)) / np.max(np.abs(o_ref))),
            float(np.max(np.abs(state - state_ref)) / np.max(np.abs(state_ref))))
print(f"linear_attention L={L}: o {placement(o)}, final state {placement(state)}, "
      f"max relative error {error:.3g} {'PASS' if error < 1e-4 else 'FAIL'}")
# CHECK: linear_attention L=2048: o offset 0 in its line, final state offset 0 in its line, max relative error {{.*}} PASS
grads = vjp(np.ones_like(o), None)
print("vjp gradients:", ", ".join(placement(d) for d in grads if d is not None))
# CHECK: vjp gradients: offset 0 in its line, offset 0 in its line, offset 0 in its line, offset 0 in its line

module = mixer.compile(SOURCE, "num-threads=2")
a = rng.uniform(-1, 1, (64, 96)).astype(np.float32)
b = rng.uniform(-1, 1, (96, 48)).astype(np.float32)
c = module["matmul"](a, b)
print(f"matmul output: {placement(c)}, max error "
      f"{float(np.max(np.abs(c - a.astype(np.float64) @ b))):.2g}")
# CHECK: matmul output: offset 0 in its line, max error {{[0-9.e-]+}}
