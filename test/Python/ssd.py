# mixer.ssd from Python against a float64 numpy implementation of its
# recurrence, token by token, and the ValueErrors of its shape checks.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import numpy as np

import mixer


def ssd_reference(x, log_a, b, c, init=None):
    """S_t = exp(log_a_t) S_{t-1} + x_t b_t^T, y_t = S_t c_t, per head h of
    group h // (H // G), in float64."""
    x, log_a, b, c = (np.asarray(v, dtype=np.float64) for v in (x, log_a, b, c))
    batch, length, heads, head_dim = x.shape
    groups, state_dim = b.shape[2], b.shape[3]
    per_group = heads // groups
    state = (np.zeros((batch, heads, head_dim, state_dim)) if init is None
             else np.array(init, dtype=np.float64))
    y = np.zeros((batch, length, heads, head_dim))
    for t in range(length):
        for h in range(heads):
            g = h // per_group
            decay = np.exp(log_a[:, t, h])[:, None, None]
            state[:, h] = decay * state[:, h] + x[:, t, h, :, None] * b[:, t, g, None, :]
            y[:, t, h] = np.einsum("bpn,bn->bp", state[:, h], c[:, t, g])
    return y, state


def relative_error(out, ref):
    return float(np.max(np.abs(out - ref)) / max(np.max(np.abs(ref)), 1e-30))


def inputs(rng, batch, length, heads, head_dim, groups, state_dim, with_init):
    x = rng.standard_normal((batch, length, heads, head_dim), dtype=np.float32)
    # Realistic decays: log_a in [-1, 0).
    log_a = -rng.random((batch, length, heads), dtype=np.float32)
    b = rng.standard_normal((batch, length, groups, state_dim), dtype=np.float32)
    c = rng.standard_normal((batch, length, groups, state_dim), dtype=np.float32)
    init = (rng.standard_normal((batch, heads, head_dim, state_dim), dtype=np.float32)
            if with_init else None)
    return x, log_a, b, c, init


rng = np.random.default_rng(0)
# (B, L, H, P, G, N, chunk_size, init): one decode step, L shorter than a
# chunk, L not a multiple of the chunk, exactly one chunk, several chunks.
cases = [
    (1, 1, 2, 8, 1, 16, 64, True),
    (2, 5, 4, 8, 2, 16, 64, False),
    (1, 100, 4, 16, 2, 32, 64, True),
    (2, 64, 2, 8, 1, 16, 64, False),
    (1, 300, 8, 16, 1, 16, 32, True),
]
for batch, length, heads, head_dim, groups, state_dim, chunk, with_init in cases:
    x, log_a, b, c, init = inputs(rng, batch, length, heads, head_dim, groups,
                                  state_dim, with_init)
    y, state = mixer.ssd(x, log_a, b, c, init_state=init, chunk_size=chunk)
    y_ref, state_ref = ssd_reference(x, log_a, b, c, init)
    error = max(relative_error(y, y_ref), relative_error(state, state_ref))
    print(f"ssd B={batch} L={length} H={heads} P={head_dim} G={groups} N={state_dim} "
          f"chunk={chunk} init={with_init}: max relative error {error:.3g} "
          f"{'PASS' if error < 1e-4 else 'FAIL'}")
# CHECK: ssd B=1 L=1 {{.*}} PASS
# CHECK: ssd B=2 L=5 {{.*}} PASS
# CHECK: ssd B=1 L=100 {{.*}} PASS
# CHECK: ssd B=2 L=64 {{.*}} PASS
# CHECK: ssd B=1 L=300 {{.*}} PASS

# The same through the naive lowering (convert-mixer-to-loops), with the
# thread count fixed.
x, log_a, b, c, init = inputs(rng, 2, 70, 4, 8, 2, 16, True)
y, state = mixer.ssd(x, log_a, b, c, init_state=init, options="naive=1 num-threads=2")
y_ref, state_ref = ssd_reference(x, log_a, b, c, init)
error = max(relative_error(y, y_ref), relative_error(state, state_ref))
print(f"ssd naive: max relative error {error:.3g} {'PASS' if error < 1e-4 else 'FAIL'}")
# CHECK: ssd naive: max relative error {{.*}} PASS

# Decoding token by token from the state of a prefill equals one long scan.
# Tokens 120..127 lie in a full chunk of the long scan (the chunked form)
# but are decoded one by one (the recurrent form).
x, log_a, b, c, _ = inputs(rng, 1, 140, 2, 8, 1, 16, False)
y_all, state_all = mixer.ssd(x, log_a, b, c)
_, state = mixer.ssd(x[:, :120], log_a[:, :120], b[:, :120], c[:, :120])
steps = []
for t in range(120, 140):
    y_t, state = mixer.ssd(x[:, t:t + 1], log_a[:, t:t + 1], b[:, t:t + 1],
                           c[:, t:t + 1], init_state=state)
    steps.append(y_t)
error = max(relative_error(np.concatenate(steps, axis=1), y_all[:, 120:]),
            relative_error(state, state_all))
print(f"prefill + decode: max relative error {error:.3g} {'PASS' if error < 1e-4 else 'FAIL'}")
# CHECK: prefill + decode: max relative error {{.*}} PASS

# Compiled once per (shapes, chunk size, init).
x, log_a, b, c, _ = inputs(rng, 1, 8, 2, 4, 1, 4, False)
first = mixer.ssd(x, log_a, b, c)[0]
again = mixer.ssd(x, log_a, b, c)[0]
print("deterministic:", np.array_equal(first, again))
# CHECK: deterministic: True


def expect_error(**kwargs):
    args = dict(x=x, log_a=log_a, b=b, c=c)
    args.update(kwargs)
    try:
        mixer.ssd(args.pop("x"), args.pop("log_a"), args.pop("b"), args.pop("c"), **args)
    except ValueError as e:
        print(f"ValueError: {e}")
    else:
        print("no exception")


# The messages name the Python arguments.
expect_error(x=x[0])
# CHECK: ValueError: argument 'x' must have rank 4 [B, L, H, P], got rank 3
expect_error(x=x.astype(np.float64))
# CHECK: ValueError: argument 'x' must have dtype numpy.float32, got float64
expect_error(log_a=log_a[:, :7])
# CHECK: ValueError: 'log_a' dim 1 (L) is 7, but 'x' dim 1 (L) is 8
expect_error(c=np.zeros((1, 8, 1, 5), dtype=np.float32))
# CHECK: ValueError: 'c' dim 3 (N) is 5, but 'b' dim 3 (N) is 4
x3, log_a3, b3, c3, _ = inputs(rng, 1, 8, 3, 4, 2, 4, False)
expect_error(x=x3, log_a=log_a3, b=b3, c=c3)
# CHECK: ValueError: heads H = 3 of 'x' must be a multiple of groups G = 2 of 'b' and 'c'
expect_error(init_state=np.zeros((1, 2, 4, 3), dtype=np.float32))
# CHECK: ValueError: 'init_state' dim 3 (N) is 3, but 'b' dim 3 (N) is 4
expect_error(chunk_size=0)
# CHECK: ValueError: argument 'chunk_size' must be at least 1, got 0
expect_error(b=b.tolist())
# CHECK: ValueError: argument 'b' must be a numpy array, got list
