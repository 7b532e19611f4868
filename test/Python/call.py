# The generic layer of the Python package: compile a module's text once, call
# its functions on numpy arrays, and get a clear exception for bad input.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from linalg_module import SOURCE  # noqa: E402

import mixer  # noqa: E402



def relative_error(out, ref):
    return float(np.max(np.abs(out - ref)) / np.max(np.abs(ref)))


def report(name, error, tolerance=1e-5):
    print(f"{name}: max relative error {error:.3g} {'PASS' if error < tolerance else 'FAIL'}")


def expect(exception_type, function, *args):
    try:
        function(*args)
    except exception_type as e:
        print(f"{type(e).__name__}: {e}")
    else:
        print("no exception")


rng = np.random.default_rng(0)
module = mixer.compile(SOURCE, "num-threads=2")
print(sorted(module.functions))
# CHECK: ['axpy', 'matmul']
print(module["axpy"])
# CHECK: <mixer function axpy(alpha: f32 scalar input, x: f32 [?] input, y: f32 [?] input, out: f32 [?] output)>

# Compiled once per (text, options).
print(mixer.compile(SOURCE, "num-threads=2") is module, mixer.compile(SOURCE) is module)
# CHECK: True False

a = rng.standard_normal((64, 96), dtype=np.float32)
b = rng.standard_normal((96, 48), dtype=np.float32)
ref = a.astype(np.float64) @ b.astype(np.float64)

# Inputs only: the output is allocated and returned.
report("matmul returned", relative_error(module.matmul(a, b), ref))
# CHECK: matmul returned: max relative error {{.*}} PASS

# Every argument: the output is written in place.
c = np.full((64, 48), np.nan, dtype=np.float32)
print(module.call("matmul", a, b, c))
report("matmul in place", relative_error(c, ref))
# CHECK: None
# CHECK: matmul in place: max relative error {{.*}} PASS

# A scalar argument and dynamic sizes (an output of dynamic size is passed).
for n in (1, 1000):
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    out = np.empty(n, dtype=np.float32)
    module.axpy(np.float32(0.5), x, y, out)
    report(f"axpy n={n}", relative_error(out, 0.5 * x.astype(np.float64) + y))
# CHECK: axpy n=1: max relative error {{.*}} PASS
# CHECK: axpy n=1000: max relative error {{.*}} PASS

# Bad arguments: ValueError naming the argument, before anything runs.
expect(ValueError, module.matmul, a.astype(np.float64), b)
# CHECK: ValueError: argument 'a' of 'matmul' must have dtype float32, got float64
expect(ValueError, module.matmul, np.asfortranarray(a), b)
# CHECK: ValueError: argument 'a' of 'matmul' must be C-contiguous (numpy.ascontiguousarray makes a copy that is)
expect(ValueError, module.matmul, a[:, :48], b)
# CHECK: ValueError: argument 'a' of 'matmul' must have shape [64, 96], got (64, 48) (dim 1 is 48)
expect(ValueError, module.matmul, a.reshape(64, 96, 1), b)
# CHECK: ValueError: argument 'a' of 'matmul' must have rank 2 [64, 96], got shape (64, 96, 1)
expect(ValueError, module.matmul, a)
# CHECK: ValueError: 'matmul' takes 3 arguments (a, b, c), or its 2 inputs, got 1
expect(ValueError, module.matmul, a.tolist(), b)
# CHECK: ValueError: argument 'a' of 'matmul' must be a numpy array, got list
readonly = np.empty((64, 48), dtype=np.float32)
readonly.flags.writeable = False
expect(ValueError, module.matmul, a, b, readonly)
# CHECK: ValueError: argument 'c' of 'matmul' is an output and must be writeable
expect(ValueError, module.axpy, 0.5, x, y)
# CHECK: ValueError: output 'out' of 'axpy' has dynamic shape [?]; pass it
expect(ValueError, module.axpy, "two", x, y, out)
# CHECK: ValueError: argument 'alpha' of 'axpy' must be a f32 scalar, got 'two'
expect(KeyError, module.__getitem__, "nope")
# CHECK: KeyError: "no public function named 'nope'; the module has matmul, axpy"

# Bad modules: MixerError with the compiler's diagnostics and a status.
try:
    mixer.compile("func.func @f(%x: tensor<4xf32>) {\n  linalg.nonexistent\n}\n")
except mixer.MixerError as e:
    print(f"status {e.status}: {e}")
# CHECK: status 2: cannot parse the module:
# CHECK-NEXT: <source>:2:3: error: custom op 'linalg.nonexistent' is unknown
try:
    mixer.compile(SOURCE, "num-threads=-x")
except ValueError as e:
    print(f"{type(e).__name__} status {e.status}: {e}")
# CHECK: MixerArgumentError status 1: invalid options 'num-threads=-x': option 'num-threads' takes an integer, got '-x'

# The module still works.
report("matmul again", relative_error(module.matmul(a, b), ref))
# CHECK: matmul again: max relative error {{.*}} PASS
