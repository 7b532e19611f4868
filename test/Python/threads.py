# Several Python threads calling one compiled module at once, each on its
# own arrays, with results checked against numpy; failing calls that each
# report their own message; modules destroyed (close, garbage collection)
# while other threads compile and call.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys
import threading

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from linalg_module import SOURCE  # noqa: E402

import mixer  # noqa: E402


THREADS, ITERATIONS = 4, 50


def relative_error(out, ref):
    return float(np.max(np.abs(out - ref)) / np.max(np.abs(ref)))


def run_threads(target, count=THREADS):
    threads = [threading.Thread(target=target, args=(t,)) for t in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


module = mixer.compile(SOURCE, "num-threads=2")

# Each thread: matmul and axpy on its own arrays, every result checked.
errors = [0.0] * THREADS


def call_many(t):
    rng = np.random.default_rng(t)
    c = np.empty((64, 48), dtype=np.float32)
    for _ in range(ITERATIONS):
        a = rng.standard_normal((64, 96), dtype=np.float32)
        b = rng.standard_normal((96, 48), dtype=np.float32)
        module.matmul(a, b, c)
        error = relative_error(c, a.astype(np.float64) @ b.astype(np.float64))
        x = rng.standard_normal(1000 + t, dtype=np.float32)
        y = rng.standard_normal(1000 + t, dtype=np.float32)
        out = np.empty_like(x)
        module.axpy(np.float32(t), x, y, out)
        error = max(error, relative_error(out, t * x.astype(np.float64) + y))
        errors[t] = max(errors[t], error)


run_threads(call_many)
for t, error in enumerate(errors):
    print(f"thread {t}: {ITERATIONS} calls, max relative error {error:.3g} "
          f"{'PASS' if error < 1e-5 else 'FAIL'}")
# CHECK: thread 0: 50 calls, max relative error {{.*}} PASS
# CHECK: thread 1: 50 calls, max relative error {{.*}} PASS
# CHECK: thread 2: 50 calls, max relative error {{.*}} PASS
# CHECK: thread 3: 50 calls, max relative error {{.*}} PASS

# Failing calls at once: an output aliasing an input, a different one per
# thread, so that each expects its own message.
EXPECTED = [
    "argument #2 ('c') of 'matmul' overlaps argument #0 ('a')",
    "argument #2 ('c') of 'matmul' overlaps argument #1 ('b')",
    "argument #3 ('out') of 'axpy' overlaps argument #1 ('x')",
    "argument #3 ('out') of 'axpy' overlaps argument #2 ('y')",
]
own_messages = [0] * THREADS


def fail_many(t):
    a = np.zeros(64 * 96, dtype=np.float32)
    b = np.zeros(96 * 48, dtype=np.float32)
    x, y = np.zeros(100, dtype=np.float32), np.zeros(100, dtype=np.float32)
    for _ in range(ITERATIONS):
        try:
            if t == 0:
                module.matmul(a.reshape(64, 96), b.reshape(96, 48), a[:64 * 48].reshape(64, 48))
            elif t == 1:
                module.matmul(a.reshape(64, 96), b.reshape(96, 48), b[:64 * 48].reshape(64, 48))
            else:
                module.axpy(1.0, x, y, x if t == 2 else y)
        except mixer.MixerArgumentError as e:
            if str(e) == EXPECTED[t] + "; outputs must not alias other arguments":
                own_messages[t] += 1
            else:
                print(f"thread {t}: {e}")


run_threads(fail_many)
print("own messages:", own_messages)
# CHECK: own messages: [50, 50, 50, 50]

# close() waits for the calls running then; later calls raise ValueError.
closing = mixer.compile(SOURCE, "num-threads=1")
stopped = [None] * THREADS
started = threading.Barrier(THREADS + 1)


def call_until_closed(t):
    x = np.arange(10000, dtype=np.float32)
    out = np.empty_like(x)
    started.wait()
    try:
        while True:
            closing.axpy(2.0, x, x + 1, out)
            if not np.array_equal(out, 3 * x + 1):
                stopped[t] = "wrong result"
                return
    except ValueError as e:
        stopped[t] = str(e)


threads = [threading.Thread(target=call_until_closed, args=(t,)) for t in range(THREADS)]
for thread in threads:
    thread.start()
started.wait()
closing.close()
for thread in threads:
    thread.join()
print("after close:", set(stopped))
# CHECK: after close: {'mixer: the module is closed'}
print("compiled again:", mixer.compile(SOURCE, "num-threads=1") is not closing)
# CHECK: compiled again: True

# Modules freed by the garbage collector while other threads compile in the
# same context and call.
compiled = [0] * THREADS


def compile_and_drop(t):
    for i in range(2):
        dropped = mixer.Module(SOURCE + f"// {t} {i}\n", "num-threads=1")
        x, out = np.ones(8, dtype=np.float32), np.empty(8, dtype=np.float32)
        dropped.axpy(1.0, x, x, out)
        compiled[t] += bool(np.array_equal(out, 2 * x))
        module.matmul(np.ones((64, 96), np.float32), np.ones((96, 48), np.float32))
        del dropped


run_threads(compile_and_drop)
print("compiled and dropped:", compiled)
# CHECK: compiled and dropped: [2, 2, 2, 2]
print("matmul still", "PASS" if np.all(module.matmul(
    np.ones((64, 96), np.float32), np.ones((96, 48), np.float32)) == 96) else "FAIL")
# CHECK: matmul still PASS
