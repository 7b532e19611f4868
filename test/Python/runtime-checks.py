# The run-time checks of compiled code, seen from Python: a call whose
# arguments break an op's contract where only the values tell (dynamic sizes
# that disagree, group sizes, positive log-decays) raises ValueError with the
# check's message, and the outputs are not written.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import numpy as np

import mixer

SOURCE = """
func.func @gm(%lhs: tensor<?x16xf32>, %rhs: tensor<2x16x32xf32>, %gs: tensor<2xi64>,
              %out: tensor<?x32xf32> {bufferization.writable = true}) -> tensor<?x32xf32> {
  %r = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<?x16xf32>, tensor<2x16x32xf32>, tensor<2xi64>)
      outs(%out : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}
"""

rng = np.random.default_rng(0)
module = mixer.compile(SOURCE, "num-threads=2")
lhs = rng.uniform(-1, 1, (64, 16)).astype(np.float32)
rhs = rng.uniform(-1, 1, (2, 16, 32)).astype(np.float32)


def call(name, *args):
    try:
        module[name](*args)
    except ValueError as e:
        print(f"{type(e).__name__}: {e}")
    else:
        print("no exception")


# Valid: 40 + 24 rows.
out = np.zeros((64, 32), np.float32)
call("gm", lhs, rhs, np.array([40, 24], np.int64), out)
ref = np.concatenate([lhs[:40] @ rhs[0], lhs[40:] @ rhs[1]])
print(f"valid call: max relative error {np.max(np.abs(out - ref)) / np.max(np.abs(ref)):.3g}")
# CHECK: no exception
# CHECK: valid call: max relative error {{[0-9.e-]+}}

# 64 rows of lhs, 2 of out: the op would write 62 rows past out.
out = np.full((2, 32), 7.0, np.float32)
call("gm", lhs, rhs, np.array([40, 24], np.int64), out)
print("out untouched:", bool(np.all(out == 7.0)))
# CHECK: MixerArgumentError: 'gm' rejected its arguments: mixer.grouped_matmul: 'out' dim 0 (T) is 2, but 'lhs' dim 0 (T) is 64
# CHECK: out untouched: True

# Group sizes summing past the rows.
out = np.full((64, 32), 7.0, np.float32)
call("gm", lhs, rhs, np.array([40, 25], np.int64), out)
print("out untouched:", bool(np.all(out == 7.0)))
# CHECK: MixerArgumentError: 'gm' rejected its arguments: mixer.grouped_matmul: 'group_sizes' sums to 65, more than T = 64 ('lhs' dim 0 (T))
# CHECK: out untouched: True

# mixer.ssd with A = exp(A_log) instead of -exp(A_log): positive log-decays.
B, L, H, P, G, N = 1, 100, 2, 4, 1, 8
x = rng.uniform(-1, 1, (B, L, H, P)).astype(np.float32)
log_a = rng.uniform(0.01, 0.5, (B, L, H)).astype(np.float32)
b = rng.uniform(-1, 1, (B, L, G, N)).astype(np.float32)
c = rng.uniform(-1, 1, (B, L, G, N)).astype(np.float32)
try:
    mixer.ssd(x, log_a, b, c)
except ValueError as e:
    print(f"{type(e).__name__}: {e}")
# CHECK: MixerArgumentError: 'ssd' rejected its arguments: mixer.ssd: 'log_a' holds a positive, infinite or NaN value; it must be finite and <= 0 (a log-decay or log-gate)
