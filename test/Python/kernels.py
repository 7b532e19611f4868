# mixer.kernel_mv, kde, kernel_lse and sinkhorn from Python against float64
# numpy implementations of their definitions, batched and unbatched, with
# point counts that change without recompiling; kde integrates to 1.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from checks import RandomInputs, expect_value_error, report  # noqa: E402

import mixer  # noqa: E402

inputs = RandomInputs(0)
rng, normal = inputs.rng, inputs.normal



def distances(x, y):
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    return np.sqrt(np.maximum(((x[..., :, None, :] - y[..., None, :, :]) ** 2).sum(-1), 0))


def kernel_matrix(kernel, x, y, h):
    r = distances(x, y)
    if kernel == "gaussian":
        return np.exp(-r ** 2 / (2 * h * h))
    if kernel == "laplacian":
        return np.exp(-r / h)
    if kernel == "matern32":
        return (1 + math.sqrt(3) * r / h) * np.exp(-math.sqrt(3) * r / h)
    if kernel == "inverse_multiquadric":
        return 1 / np.sqrt(1 + r ** 2 / h ** 2)
    return np.asarray(x, np.float64) @ np.swapaxes(np.asarray(y, np.float64), -1, -2)


def cost_matrix(cost, x, y):
    r = distances(x, y)
    return {"sqeuclidean": r ** 2, "gaussian": r ** 2 / 2, "laplacian": r}[cost]


def logsumexp(a, axis):
    top = np.max(a, axis=axis, keepdims=True)
    return np.squeeze(top, axis) + np.log(np.sum(np.exp(a - top), axis=axis))


for kernel in ("gaussian", "laplacian", "matern32", "inverse_multiquadric", "linear"):
    for n, m in ((200, 300), (17, 5)):
        x, y, v = normal(n, 3), normal(m, 3), normal(m, 4)
        out = mixer.kernel_mv(x, y, v, kernel=kernel, bandwidth=0.7)
        report(f"kernel_mv {kernel} N={n} M={m}",
               [(out, kernel_matrix(kernel, x, y, 0.7) @ v)], 1e-5)
# CHECK-COUNT-10: kernel_mv {{.*}} PASS
x, y, v = normal(3, 150, 2), normal(3, 250, 2), normal(3, 250, 5)
out = mixer.kernel_mv(x, y, v, kernel="matern32", bandwidth=0.5)
report("kernel_mv batched Bt=3", [(out, kernel_matrix("matern32", x, y, 0.5) @ v)], 1e-5)
# CHECK: kernel_mv batched Bt=3: {{.*}} PASS


def density(kernel, x, y, w, h):
    dim = x.shape[-1]
    if kernel == "gaussian":
        norm = (2 * math.pi * h * h) ** (-dim / 2)
    else:  # the unit sphere's surface times Gamma(D) h^D
        norm = 1 / (2 * math.pi ** (dim / 2) / math.gamma(dim / 2) * math.gamma(dim) * h ** dim)
    w = np.asarray(w, np.float64)
    return norm * (kernel_matrix(kernel, x, y, h) @ w[..., None])[..., 0] / w.sum(-1, keepdims=True)


for kernel in ("gaussian", "laplacian"):
    for dim in (1, 3):
        x, y, w = normal(120, dim), normal(400, dim), rng.uniform(0, 1, 400).astype(np.float32)
        report(f"kde {kernel} D={dim}", [(mixer.kde(x, y, weights=w, kernel=kernel,
                                                   bandwidth=0.4),
                                          density(kernel, x, y, w, 0.4))], 1e-5)
    # Integral over a grid of the plane of the density of 10 samples.
    axis = np.linspace(-12, 12, 481, dtype=np.float32)
    grid = np.stack(np.meshgrid(axis, axis), -1).reshape(-1, 2)
    values = mixer.kde(grid, normal(10, 2), kernel=kernel, bandwidth=0.5)
    integral = values.astype(np.float64).sum() * (axis[1] - axis[0]) ** 2
    print(f"kde {kernel} D=2 integral {integral:.5f} {'PASS' if abs(integral - 1) < 1e-3 else 'FAIL'}")
# CHECK: kde gaussian D=1: {{.*}} PASS
# CHECK: kde gaussian D=3: {{.*}} PASS
# CHECK: kde gaussian D=2 integral {{.*}} PASS
# CHECK: kde laplacian D=1: {{.*}} PASS
# CHECK: kde laplacian D=3: {{.*}} PASS
# CHECK: kde laplacian D=2 integral {{.*}} PASS
x, y = normal(2, 50, 3), normal(2, 70, 3)
report("kde batched Bt=2", [(mixer.kde(x, y), density("gaussian", x, y, np.ones((2, 70)), 1.0))],
       1e-5)
# CHECK: kde batched Bt=2: {{.*}} PASS

for cost in ("sqeuclidean", "gaussian", "laplacian"):
    x, y, g = normal(200, 3), normal(300, 3), normal(300)
    out = mixer.kernel_lse(x, y, g, cost=cost, eps=0.1)
    report(f"kernel_lse {cost} eps=0.1", [(out, logsumexp(-cost_matrix(cost, x, y) / 0.1 + g, 1))],
           1e-5)
# CHECK-COUNT-3: kernel_lse {{.*}} PASS
x, y = normal(4, 60, 2), normal(4, 90, 2)
out = mixer.kernel_lse(x, y, eps=0.5)
report("kernel_lse batched, no g", [(out, logsumexp(-cost_matrix("sqeuclidean", x, y) / 0.5, 2))],
       1e-5)
# CHECK: kernel_lse batched, no g: {{.*}} PASS


def sinkhorn(x, y, log_a, log_b, eps, iterations, cost):
    c = cost_matrix(cost, x, y)
    log_a, log_b = np.asarray(log_a, np.float64), np.asarray(log_b, np.float64)
    g = np.zeros(len(y))
    for _ in range(iterations):
        f = -eps * logsumexp((g[None, :] - c) / eps + log_b[None, :], 1)
        g = -eps * logsumexp((f[:, None] - c) / eps + log_a[:, None], 0)
    plan = np.exp((f[:, None] + g[None, :] - c) / eps + log_a[:, None] + log_b[None, :])
    return f, g, (plan * c).sum()


for cost, n, m in (("sqeuclidean", 150, 200), ("laplacian", 40, 30)):
    x, y = normal(n, 2), normal(m, 2) + 1
    log_a = np.full(n, -math.log(n), np.float32)
    log_b = np.log(rng.dirichlet(np.ones(m))).astype(np.float32)
    f, g, transport = mixer.sinkhorn(x, y, log_a, log_b, eps=0.2, iterations=50, cost=cost)
    f_ref, g_ref, transport_ref = sinkhorn(x, y, log_a, log_b, 0.2, 50, cost)
    report(f"sinkhorn {cost} N={n} M={m} 50 iterations",
           [(f, f_ref), (g, g_ref), (transport, transport_ref)], 1e-5)
# CHECK-COUNT-2: sinkhorn {{.*}} PASS

expect_value_error(mixer.kernel_mv, x, y, v, kernel="sqeuclidean")
# CHECK: ValueError: argument 'kernel' must be one of gaussian, laplacian, matern32, inverse_multiquadric, linear, got 'sqeuclidean'
expect_value_error(mixer.kernel_mv, x, y[:, :1].copy(), normal(30, 2))
# CHECK: ValueError: 'y' dim 1 (D) is 1, but 'x' dim 1 (D) is 2
expect_value_error(mixer.kernel_mv, x, y, normal(31, 2), bandwidth=0)
# CHECK: ValueError: argument 'bandwidth' must be positive and finite, got 0.0
expect_value_error(mixer.kde, x, y, kernel="matern32")
# CHECK: ValueError: argument 'kernel' is 'matern32', but kde supports gaussian and laplacian only: the other kernels have no standard normalization as a density in D dimensions
expect_value_error(mixer.kde, x, y, weights=np.ones(31, np.float32))
# CHECK: ValueError: 'weights' dim 0 (M) is 31, but 'y' dim 0 (M) is 30
expect_value_error(mixer.kde, x, y, weights=np.zeros(30, np.float32))
# CHECK: ValueError: argument 'weights' must have a positive sum (per batch entry)
expect_value_error(mixer.kernel_lse, x, y, eps=-1)
# CHECK: ValueError: argument 'eps' must be positive and finite, got -1.0
expect_value_error(mixer.sinkhorn, x[None], y[None], log_a, log_b, eps=1, iterations=1)
# CHECK: ValueError: argument 'x' must have rank 2 [N, D] (sinkhorn has no batched form), got rank 3
expect_value_error(mixer.sinkhorn, x, y, log_a, log_b, eps=1, iterations=0)
# CHECK: ValueError: argument 'iterations' must be at least 1, got 0
