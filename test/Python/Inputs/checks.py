"""What the Python tests share: the relative error against a float64
reference, a PASS/FAIL line, and the message of an expected ValueError."""

import numpy as np


def relative_error(out, ref):
    out, ref = np.asarray(out, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    if out.shape != ref.shape:
        return float("inf")
    if out.size == 0:
        return 0.0
    return float(np.max(np.abs(out - ref)) / max(np.max(np.abs(ref)), 1e-30))


def report(name, pairs, tolerance):
    """Prints the largest relative error of the (out, ref) pairs."""
    error = max(relative_error(out, ref) for out, ref in pairs)
    print(f"{name}: max relative error {error:.3g} "
          f"{'PASS' if error < tolerance else 'FAIL'}")


def expect_value_error(function, *args, **kwargs):
    try:
        function(*args, **kwargs)
    except ValueError as e:
        print(f"ValueError: {e}")
    else:
        print("no exception")


class RandomInputs:
    """float32 arrays of realistic ranges from one seeded generator."""

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def normal(self, *shape, scale=1.0):
        return (scale * self.rng.standard_normal(shape)).astype(np.float32)

    def uniform(self, low, high, *shape):
        return self.rng.uniform(low, high, shape).astype(np.float32)

    def unit_keys(self, *shape):
        """Keys of norm 1 along the last dim, as the delta rule expects."""
        k = self.rng.standard_normal(shape)
        return (k / np.linalg.norm(k, axis=-1, keepdims=True)).astype(np.float32)
