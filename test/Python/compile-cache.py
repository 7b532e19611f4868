# The numpy op functions compile once per static dims and options: calls of
# mixer.ssd with new B and L (dynamic in the generated function) reuse the
# compiled module, counted by mixer.cache_info(); a new static dim or new
# options compile again.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import numpy as np

import mixer

rng = np.random.default_rng(0)


def inputs(batch, length, heads=2, head_dim=8, groups=1, state_dim=16):
    x = rng.standard_normal((batch, length, heads, head_dim), dtype=np.float32)
    log_a = -rng.random((batch, length, heads), dtype=np.float32)
    b = rng.standard_normal((batch, length, groups, state_dim), dtype=np.float32)
    c = rng.standard_normal((batch, length, groups, state_dim), dtype=np.float32)
    return x, log_a, b, c


def compilations_of(call):
    before = mixer.cache_info()
    call()
    after = mixer.cache_info()
    return after.compilations - before.compilations, after.hits - before.hits


print("first L=100:", *compilations_of(lambda: mixer.ssd(*inputs(1, 100))))
# CHECK: first L=100: 1 0
print("L=37:", *compilations_of(lambda: mixer.ssd(*inputs(1, 37))))
# CHECK: L=37: 0 1
print("B=3 L=200:", *compilations_of(lambda: mixer.ssd(*inputs(3, 200))))
# CHECK: B=3 L=200: 0 1
print("init_state:", *compilations_of(
    lambda: mixer.ssd(*inputs(2, 10), init_state=np.zeros((2, 2, 8, 16), np.float32))))
# CHECK: init_state: 1 0
print("head dim 4:", *compilations_of(lambda: mixer.ssd(*inputs(1, 50, head_dim=4))))
# CHECK: head dim 4: 1 0
print("chunk 32:", *compilations_of(lambda: mixer.ssd(*inputs(1, 50), chunk_size=32)))
# CHECK: chunk 32: 1 0
print("chunk 32 L=90:", *compilations_of(lambda: mixer.ssd(*inputs(1, 90), chunk_size=32)))
# CHECK: chunk 32 L=90: 0 1

# The same holds for the other scans (they share the generic builder).
q = lambda length: rng.standard_normal((1, length, 2, 8), dtype=np.float32)
print("linear_attention:", *compilations_of(lambda: mixer.linear_attention(q(20), q(20), q(20))),
      *compilations_of(lambda: mixer.linear_attention(q(70), q(70), q(70))))
# CHECK: linear_attention: 1 0 0 1

info = mixer.cache_info()
print(type(info).__name__, info.modules >= 5)
# CHECK: CacheInfo True
