# The mixture-of-experts ops from Python against float64 numpy
# implementations of their definitions (ids and permutations exactly), with
# a token count that changes without recompiling, and moe_ffn, the whole
# layer as one compiled module, against a token-by-token reference.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from checks import RandomInputs, expect_value_error, report  # noqa: E402

import mixer  # noqa: E402

inputs = RandomInputs(0)
rng, normal = inputs.rng, inputs.normal
E, K, F, N = 4, 32, 48, 24



def silu(a):
    return a / (1 + np.exp(-a))


def grouped(lhs, sizes, expert):
    """Row group e of lhs through expert(e, rows); rows past the groups are 0."""
    out, start = None, 0
    for e, size in enumerate(sizes):
        rows = expert(e, lhs[start:start + size].astype(np.float64))
        if out is None:
            out = np.zeros((len(lhs), rows.shape[1]))
        out[start:start + size] = rows
        start += size
    return out


w_gate, w_up = normal(E, K, F, scale=K ** -0.5), normal(E, K, F, scale=K ** -0.5)
w_down, rhs = normal(E, F, K, scale=F ** -0.5), normal(E, K, N, scale=K ** -0.5)
for sizes, dtype in (([3, 0, 5, 2], np.int32), ([10, 20, 0, 1], np.int64), ([0, 0, 0, 0], np.int32)):
    tokens = sum(sizes) + 2
    lhs, group_sizes = normal(tokens, K), np.array(sizes, dtype=dtype)
    report(f"grouped_matmul sizes={sizes} T={tokens} {np.dtype(dtype)}",
           [(mixer.grouped_matmul(lhs, rhs, group_sizes), grouped(lhs, sizes, lambda e, r: r @ rhs[e]))],
           1e-5)
    report(f"grouped_swiglu sizes={sizes} T={tokens} {np.dtype(dtype)}",
           [(mixer.grouped_swiglu(lhs, w_gate, w_up, group_sizes),
             grouped(lhs, sizes, lambda e, r: silu(r @ w_gate[e]) * (r @ w_up[e])))], 1e-5)
# CHECK-COUNT-6: grouped_{{.*}} PASS


def topk(logits, k, normalize):
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    ids = np.argsort(-p, axis=1, kind="stable")[:, :k]
    weights = np.take_along_axis(p, ids, 1)
    return (weights / weights.sum(1, keepdims=True) if normalize else weights), ids


for tokens, k, normalize in ((64, 2, False), (7, 2, True), (64, 4, True)):
    logits = normal(tokens, E)
    logits[0] = 1.0  # ties: the lower expert first
    weights, ids = mixer.topk_router(logits, k, normalize=normalize)
    weights_ref, ids_ref = topk(logits.astype(np.float64), k, normalize)
    report(f"topk_router T={tokens} k={k} normalize={normalize}", [(weights, weights_ref)], 1e-5)
    print("  expert_ids equal:", ids.dtype, np.array_equal(ids, ids_ref))
# CHECK: topk_router T=64 k=2 normalize=False: {{.*}} PASS
# CHECK-NEXT: expert_ids equal: int32 True
# CHECK-NEXT: topk_router T=7 k=2 normalize=True: {{.*}} PASS
# CHECK-NEXT: expert_ids equal: int32 True
# CHECK-NEXT: topk_router T=64 k=4 normalize=True: {{.*}} PASS
# CHECK-NEXT: expert_ids equal: int32 True

for tokens in (50, 3):
    x, ids = normal(tokens, K), rng.integers(0, E, (tokens, 2)).astype(np.int32)
    sorted_x, sizes, permutation = mixer.moe_dispatch(x, ids, E)
    permutation_ref = np.argsort(ids.ravel(), kind="stable")
    print(f"moe_dispatch T={tokens}:", np.array_equal(permutation, permutation_ref),
          np.array_equal(sizes, np.bincount(ids.ravel(), minlength=E)),
          np.array_equal(sorted_x, x[permutation_ref // 2]), sizes.dtype, permutation.dtype)
    expert_out, weights = normal(2 * tokens, N), normal(tokens, 2)
    combined = np.zeros((tokens, N))
    for row, slot in enumerate(permutation_ref):
        combined[slot // 2] += weights[slot // 2, slot % 2] * expert_out[row].astype(np.float64)
    report(f"moe_combine T={tokens}", [(mixer.moe_combine(expert_out, permutation, weights),
                                        combined)], 1e-5)
# CHECK: moe_dispatch T=50: True True True int64 int32
# CHECK: moe_combine T=50: {{.*}} PASS
# CHECK: moe_dispatch T=3: True True True int64 int32
# CHECK: moe_combine T=3: {{.*}} PASS


def moe_ffn(x, logits, top_k):
    """Per token: softmax over its top-k logits, the sum of its experts."""
    y = np.zeros(x.shape)
    for t in range(len(x)):
        ids = np.argsort(-logits[t], kind="stable")[:top_k]
        weights = np.exp(logits[t, ids] - logits[t, ids].max())
        for e, weight in zip(ids, weights / weights.sum()):
            row = x[t].astype(np.float64)
            y[t] += weight * (silu(row @ w_gate[e]) * (row @ w_up[e])) @ w_down[e]
    return y


for tokens in (100, 1):
    x, logits = normal(tokens, K), normal(tokens, E)
    report(f"moe_ffn T={tokens} E={E} top_k=2", [(mixer.moe_ffn(x, logits, w_gate, w_up, w_down),
                                                 moe_ffn(x, logits, 2))], 1e-5)
# CHECK: moe_ffn T=100 E=4 top_k=2: {{.*}} PASS
# CHECK: moe_ffn T=1 E=4 top_k=2: {{.*}} PASS

expect_value_error(mixer.grouped_matmul, lhs, rhs, group_sizes.astype(np.float32))
# CHECK: ValueError: argument 'group_sizes' must have dtype numpy.int32 or numpy.int64, got float32
expect_value_error(mixer.grouped_matmul, lhs, rhs[:, 1:], group_sizes)
# CHECK: ValueError: 'rhs' dim 1 (K) is 31, but 'lhs' dim 1 (K) is 32
expect_value_error(mixer.topk_router, logits, 5)
# CHECK: ValueError: argument 'k' is 5, more than the E = 4 experts
expect_value_error(mixer.moe_dispatch, x, ids, 0)
# CHECK: ValueError: argument 'num_experts' must be at least 1, got 0
expect_value_error(mixer.moe_combine, expert_out[1:], permutation[1:], weights)
# CHECK: ValueError: 'expert_out' dim 0 (T*k) is 5, but 'weights' has T*k = 3 * 2
expect_value_error(mixer.moe_ffn, x, logits, w_gate, w_up, w_down[:, :, 1:])
# CHECK: ValueError: 'w_down' dim 2 (K) is 31, but 'x' dim 1 (K) is 32
# Run-time checks of the compiled code: an expert id out of range.
expect_value_error(mixer.moe_dispatch, x, np.full((1, 2), E, np.int32), E)
# CHECK: ValueError: 'moe_dispatch' rejected its arguments: mixer.moe_dispatch: 'expert_ids' holds index 4, not below E = 4
