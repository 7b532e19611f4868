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


# topk_router: the weights' gradient flows to the logits; the expert ids
# take a None cotangent. Logits well apart keep the top-k choice under the
# differences.
logits = np.stack([rng.rng.permutation(6) * 0.5 for _ in range(5)]).astype(np.float32)
logits += rng.normal(5, 6, scale=0.05)
check("topk_router", lambda lg, **kw: mixer.topk_router(lg, 2, **kw), [logits], {},
      [rng.normal(5, 2), None])
# CHECK: topk_router: 1 gradients, None at [] {{.*}} PASS
check("topk_router normalize",
      lambda lg, **kw: mixer.topk_router(lg, 3, normalize=True, **kw), [logits], {},
      [rng.normal(5, 3), None])
# CHECK: topk_router normalize: 1 gradients, None at [] {{.*}} PASS

# moe_dispatch: x gets the rows of d sorted summed back; the integer
# expert_ids get None.
ids = np.stack([rng.rng.permutation(4)[:2] for _ in range(5)]).astype(np.int32)
check("moe_dispatch", lambda x, i, **kw: mixer.moe_dispatch(x, i, 4, **kw),
      [rng.normal(5, 3), ids], {}, [rng.normal(10, 3), None, None])
# CHECK: moe_dispatch: 1 gradients, None at [1] {{.*}} PASS

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
