# return_vjp=True of the op functions: (outputs, vjp), vjp(*cotangents)
# taking one cotangent per output (None: zero) and returning the gradient of
# every array parameter in the order of the parameters, None for integer
# arrays and absent optionals. Each available vjp is checked against
# central finite differences of the op function (f32: step 1e-2, relative
# tolerance 1e-2, on sum(out * r) for a random r).
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from checks import RandomInputs, report  # noqa: E402
from gradcheck import finite_differences  # noqa: E402

import mixer  # noqa: E402

rng = RandomInputs(5)


def check(name, function, args, kwargs, cotangents, tolerance=1e-2):
    """Compares vjp(*cotangents) with finite differences of `function` with
    respect to every float array in `args` and `kwargs` (in that order)."""
    names = list(kwargs)
    outputs, vjp = function(*args, **kwargs, return_vjp=True)
    grads = vjp(*cotangents)

    def forward(*flat):
        return function(*flat[:len(args)], **dict(zip(names, flat[len(args):])))

    flat = list(args) + list(kwargs.values())
    reference = finite_differences(forward, flat, cotangents)
    pairs = [(g, r) for g, r in zip(grads, reference) if r is not None]
    nones = [i for i, g in enumerate(grads) if g is None]
    report(f"{name}: {len(pairs)} gradients, None at {nones}", pairs, tolerance)
    return grads


# The scans, at L = 7 over chunks of 4, with and without an initial state
# (absent: None), and G < H.
B, L, H, P, G, N = 1, 7, 2, 3, 1, 4
x, b, c = rng.normal(B, L, H, P), rng.normal(B, L, G, N, scale=0.5), rng.normal(B, L, G, N, scale=0.5)
log_a = -(0.1 + rng.rng.random((B, L, H))).astype(np.float32)
h0 = rng.normal(B, H, P, N, scale=0.5)
check("ssd with init_state", lambda *a, **kw: mixer.ssd(*a, chunk_size=4, **kw),
      [x, log_a, b, c], {"init_state": h0}, [rng.normal(B, L, H, P), rng.normal(B, H, P, N)])
# CHECK: ssd with init_state: 5 gradients, None at []:{{.*}} PASS
grads = check("ssd y only", lambda *a, **kw: mixer.ssd(*a, chunk_size=4, **kw),
              [x, log_a, b, c], {}, [rng.normal(B, L, H, P), None])
# CHECK: ssd y only: 4 gradients, None at [4]:{{.*}} PASS
print([None if g is None else g.shape for g in grads])
# CHECK: [(1, 7, 2, 3), (1, 7, 2), (1, 7, 1, 4), (1, 7, 1, 4), None]

q, k, v = rng.normal(B, L, H, 4), rng.normal(B, L, H, 4), rng.normal(B, L, H, 3)
check("linear_attention with log_decay and init_state",
      lambda *a, **kw: mixer.linear_attention(*a, chunk_size=4, scale=0.5, **kw),
      [q, k, v], {"log_decay": log_a, "init_state": rng.normal(B, H, 4, 3, scale=0.5)},
      [rng.normal(B, L, H, 3), rng.normal(B, H, 4, 3)])
# CHECK: linear_attention with log_decay and init_state: 5 gradients, None at []:{{.*}} PASS
check("linear_attention window 2",
      lambda *a, **kw: mixer.linear_attention(*a, chunk_size=4, window=2, **kw),
      [q, k, v], {}, [rng.normal(B, L, H, 3), None])
# CHECK: linear_attention window 2: 3 gradients, None at [3, 4]:{{.*}} PASS

# Kernel sums, with a batch dim and without; kde through kernel_mv's vjp.
xs, ys = rng.normal(2, 5, 3, scale=0.7), rng.normal(2, 4, 3, scale=0.7)
check("kernel_mv gaussian", lambda *a, **kw: mixer.kernel_mv(*a, bandwidth=0.8, **kw),
      [xs, ys, rng.normal(2, 4, 2)], {}, [rng.normal(2, 5, 2)])
# CHECK: kernel_mv gaussian: 3 gradients, None at []:{{.*}} PASS
check("kernel_lse with g", lambda *a, **kw: mixer.kernel_lse(*a, eps=0.5, **kw),
      [xs[0], ys[0]], {"g": rng.normal(4)}, [rng.normal(5)])
# CHECK: kernel_lse with g: 3 gradients, None at []:{{.*}} PASS
check("kernel_lse without g", lambda *a, **kw: mixer.kernel_lse(*a, eps=0.5, **kw),
      [xs[0], ys[0]], {}, [rng.normal(5)])
# CHECK: kernel_lse without g: 2 gradients, None at [2]:{{.*}} PASS
check("kde with weights", lambda *a, **kw: mixer.kde(*a, bandwidth=0.8, **kw),
      [xs[0], ys[0]], {"weights": (0.5 + rng.rng.random(4)).astype(np.float32)},
      [rng.normal(5)])
# CHECK: kde with weights: 3 gradients, None at []:{{.*}} PASS

# Grouped GEMMs with an empty group; the group sizes get None.
sizes = np.array([2, 0, 3], np.int64)
grads = check("grouped_matmul", lambda *a, **kw: mixer.grouped_matmul(*a, **kw),
              [rng.normal(6, 3), rng.normal(3, 3, 2), sizes], {}, [rng.normal(6, 2)])
# CHECK: grouped_matmul: 2 gradients, None at [2]:{{.*}} PASS
check("grouped_swiglu", lambda *a, **kw: mixer.grouped_swiglu(*a, **kw),
      [rng.normal(6, 3), rng.normal(3, 3, 4), rng.normal(3, 3, 4), sizes], {},
      [rng.normal(6, 4)])
# CHECK: grouped_swiglu: 3 gradients, None at [3]:{{.*}} PASS
perm = rng.rng.permutation(10).astype(np.int32)
check("moe_combine", lambda *a, **kw: mixer.moe_combine(*a, **kw),
      [rng.normal(10, 3), perm, rng.normal(5, 2)], {}, [rng.normal(5, 3)])
# CHECK: moe_combine: 2 gradients, None at [1]:{{.*}} PASS

# topk_router: the weights' gradient flows to the logits; the expert ids
# take a None cotangent. Logits well apart keep the top-k choice under the
# differences.
logits = np.stack([rng.rng.permutation(6) * 0.5 for _ in range(5)]).astype(np.float32)
logits += rng.normal(5, 6, scale=0.05)
check("topk_router", lambda lg, **kw: mixer.topk_router(lg, 2, **kw), [logits], {},
      [rng.normal(5, 2), None])
# CHECK: topk_router: 1 gradients, None at []:{{.*}} PASS
check("topk_router normalize",
      lambda lg, **kw: mixer.topk_router(lg, 3, normalize=True, **kw), [logits], {},
      [rng.normal(5, 3), None])
# CHECK: topk_router normalize: 1 gradients, None at []:{{.*}} PASS

# moe_dispatch: x gets the rows of d sorted summed back; the integer
# expert_ids get None.
ids = np.stack([rng.rng.permutation(4)[:2] for _ in range(5)]).astype(np.int32)
check("moe_dispatch", lambda x, i, **kw: mixer.moe_dispatch(x, i, 4, **kw),
      [rng.normal(5, 3), ids], {}, [rng.normal(10, 3), None, None])
# CHECK: moe_dispatch: 1 gradients, None at [1]:{{.*}} PASS

# The conventions.
(_, _), vjp = mixer.topk_router(logits, 2, return_vjp=True)
try:
    vjp(None)
except ValueError as e:
    print(f"ValueError: {e}")
# CHECK: ValueError: vjp takes one cotangent per output (weights, expert_ids), got 1
try:
    vjp(np.zeros((5, 3), np.float32), None)
except ValueError as e:
    print(f"ValueError: {e}")
# CHECK: ValueError: the cotangent of 'weights' must have shape (5, 2), got (5, 3)
(dlogits,) = vjp(None, None)
print("zero cotangents give zero gradients:", not np.any(dlogits))
# CHECK: zero cotangents give zero gradients: True

# What cannot be differentiated is a NotImplementedError naming the op.
SINE = """
func.func @sine(%x: tensor<8xf32>, %out: tensor<8xf32> {bufferization.writable = true})
    -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%out : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.sin %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
"""
try:
    mixer.compile(SINE, "generate-vjp=1")
except NotImplementedError as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[1]}")
# CHECK: MixerNotDifferentiableError: <source>:{{.*}}: error: mixer-generate-vjp cannot differentiate 'math.sin' in the body of a linalg.generic
print(sorted(mixer.compile(SINE).functions))
# CHECK: ['sine']

# sinkhorn: vjp(None, None, d_cost) is the envelope-theorem gradient of the
# OT value <exp(log_a), f> + <exp(log_b), g>, checked against central
# differences of that value from the compiled forward: elementwise for x and
# y, along a direction keeping sum exp(log_a) fixed for log_a (the value
# exists only for balanced weights). Nonzero cotangents of f or g are an
# error naming them.
def sinkhorn_ot(x, y, log_a, log_b):
    f, g, _ = mixer.sinkhorn(x, y, log_a, log_b, eps=0.5, iterations=200)
    return float(np.sum(np.exp(log_a.astype(np.float64)) * f)
                 + np.sum(np.exp(log_b.astype(np.float64)) * g))


sx, sy = xs[0], ys[0]
la = np.log(np.full(5, 0.2)).astype(np.float32)
lb = np.log(np.array([0.1, 0.2, 0.3, 0.4])).astype(np.float32)
d_cost = 1.3
(f, g, cost), svjp = mixer.sinkhorn(sx, sy, la, lb, eps=0.5, iterations=200, return_vjp=True)
sgrads = svjp(None, None, d_cost)
print("sinkhorn gradients:", [a.shape for a in sgrads])
# CHECK: sinkhorn gradients: [(5, 3), (4, 3), (5,), (4,)]
reference = finite_differences(sinkhorn_ot, [sx, sy, la, lb], [d_cost], wrt=[0, 1])
report("sinkhorn dx, dy against finite differences of the OT value",
       list(zip(sgrads[:2], reference[:2])), 1e-2)
# CHECK: sinkhorn dx, dy against finite differences of the OT value: max relative error {{.*}} PASS
direction = rng.normal(5)
direction -= np.exp(la) * np.dot(np.exp(la), direction) / np.dot(np.exp(la), np.exp(la))


def moved(step):
    shifted = la + step * direction
    return (shifted - np.log(np.sum(np.exp(shifted.astype(np.float64))))).astype(np.float32)


fd = (sinkhorn_ot(sx, sy, moved(1e-2), lb) - sinkhorn_ot(sx, sy, moved(-1e-2), lb)) / 2e-2
analytic = float(np.dot(sgrads[2], direction))
error = abs(fd * d_cost - analytic) / (np.linalg.norm(sgrads[2]) * np.linalg.norm(direction))
print(f"sinkhorn dlog_a along a mass-preserving direction: relative error {error:.3g} "
      f"{'PASS' if error < 1e-2 else 'FAIL'}")
# CHECK: sinkhorn dlog_a along a mass-preserving direction: relative error {{.*}} PASS
zero_df = svjp(np.zeros(5, np.float32), None, d_cost)
print("zero cotangent of f:", all(np.array_equal(a, b) for a, b in zip(zero_df, sgrads)))
# CHECK: zero cotangent of f: True
try:
    svjp(np.ones(5, np.float32), None, d_cost)
except ValueError as e:
    print(f"{type(e).__name__}: {e}")
# CHECK: MixerArgumentError: 'sinkhorn_vjp' rejected its arguments: mixer.sinkhorn_backward: 'df' holds a nonzero value; it must be zero
