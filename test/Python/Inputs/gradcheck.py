"""Central finite differences of a compiled forward, to check the
vector-Jacobian products of mixer-generate-vjp (f32 code: steps of 1e-2 on
inputs of order one, so errors of order 1e-3 are expected)."""

import numpy as np


def loss(forward, inputs, cotangents):
    """sum_r <output_r, cotangent_r> in float64 (None: a zero cotangent)."""
    outputs = forward(*inputs)
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    return sum(float(np.sum(np.asarray(o, dtype=np.float64) * c))
               for o, c in zip(outputs, cotangents) if c is not None)


def finite_differences(forward, inputs, cotangents, step=1e-2, wrt=None):
    """The gradient of `loss` with respect to each float input in `wrt`
    (indices; default: every float array), by central differences, one
    element at a time. Returns a list with None for the others."""
    inputs = [np.array(a) if isinstance(a, np.ndarray) else a for a in inputs]
    if wrt is None:
        wrt = [i for i, a in enumerate(inputs)
               if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    grads = [None] * len(inputs)
    for i in wrt:
        a = inputs[i]
        grad = np.zeros(a.shape)
        flat, g = a.reshape(-1), grad.reshape(-1)
        for j in range(flat.size):
            saved = flat[j]
            flat[j] = saved + step
            up = loss(forward, inputs, cotangents)
            flat[j] = saved - step
            down = loss(forward, inputs, cotangents)
            flat[j] = saved
            g[j] = (up - down) / (2 * step)
        grads[i] = grad
    return grads
