# The _vjp that mixer-generate-vjp makes of composed functions, against
# central finite differences of the compiled forward on sum(out * r) for a
# random r (f32: step 1e-2, relative tolerance 1e-2):
# - a Mamba-2 mixer block: dt = softplus(dt_raw + dt_bias), log_a = dt * A,
#   the ssd of x * dt, the D skip and the silu(z) gate, with the final
#   state as a second result;
# - the whole MoE layer (mixer.moe_ffn: topk_router, moe_dispatch,
#   grouped_swiglu, grouped_matmul, moe_combine) from given router logits,
#   whose top-k choice the small differences do not change.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from checks import RandomInputs, report  # noqa: E402
from gradcheck import finite_differences  # noqa: E402

import mixer  # noqa: E402

B, L, H, P, G, N = 1, 6, 2, 3, 1, 4  # L = 6 over chunks of 4: two chunks
W = "{bufferization.writable = true}"
X = f"tensor<{B}x{L}x{H}x{P}xf32>"
T3 = f"tensor<{B}x{L}x{H}xf32>"
BC = f"tensor<{B}x{L}x{G}x{N}xf32>"
S = f"tensor<{B}x{H}x{P}x{N}xf32>"
V = f"tensor<{H}xf32>"
M3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
H3 = "affine_map<(d0, d1, d2) -> (d2)>"
M4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
T4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>"
H4 = "affine_map<(d0, d1, d2, d3) -> (d2)>"
PAR3 = '["parallel", "parallel", "parallel"]'
PAR4 = '["parallel", "parallel", "parallel", "parallel"]'

MAMBA2 = f"""
func.func @mamba2(%x: {X}, %dt_raw: {T3}, %dt_bias: {V}, %A: {V}, %b: {BC}, %c: {BC},
                  %D: {V}, %z: {X}, %out: {X} {W}, %state: {S} {W}) -> ({X}, {S}) {{
  %e3 = tensor.empty() : {T3}
  %dt, %log_a = linalg.generic {{indexing_maps = [{M3}, {H3}, {H3}, {M3}, {M3}],
                                 iterator_types = {PAR3}}}
      ins(%dt_raw, %dt_bias, %A : {T3}, {V}, {V}) outs(%e3, %e3 : {T3}, {T3}) {{
  ^bb0(%r: f32, %bias: f32, %a: f32, %o: f32, %o2: f32):
    %v = arith.addf %r, %bias : f32
    %ex = math.exp %v : f32
    %sp = math.log1p %ex : f32
    %la = arith.mulf %sp, %a : f32
    linalg.yield %sp, %la : f32, f32
  }} -> ({T3}, {T3})
  %e4 = tensor.empty() : {X}
  %xdt = linalg.generic {{indexing_maps = [{M4}, {T4}, {M4}], iterator_types = {PAR4}}}
      ins(%x, %dt : {X}, {T3}) outs(%e4 : {X}) {{
  ^bb0(%xv: f32, %d: f32, %o: f32):
    %m = arith.mulf %xv, %d : f32
    linalg.yield %m : f32
  }} -> {X}
  %y0 = tensor.empty() : {X}
  %y, %s = mixer.ssd chunk_size(4) ins(%xdt, %log_a, %b, %c : {X}, {T3}, {BC}, {BC})
      outs(%y0, %state : {X}, {S}) -> {X}, {S}
  %r = linalg.generic {{indexing_maps = [{M4}, {M4}, {H4}, {M4}, {M4}], iterator_types = {PAR4}}}
      ins(%y, %x, %D, %z : {X}, {X}, {V}, {X}) outs(%out : {X}) {{
  ^bb0(%yv: f32, %xv: f32, %dv: f32, %zv: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %skip = arith.mulf %dv, %xv : f32
    %sum = arith.addf %yv, %skip : f32
    %nz = arith.negf %zv : f32
    %ez = math.exp %nz : f32
    %den = arith.addf %one, %ez : f32
    %silu = arith.divf %zv, %den : f32
    %g = arith.mulf %sum, %silu : f32
    linalg.yield %g : f32
  }} -> {X}
  return %r, %s : {X}, {S}
}}
"""

rng = RandomInputs(3)
module = mixer.compile(MAMBA2, "generate-vjp=1")
print(module["mamba2_vjp"])
# CHECK: <mixer function mamba2_vjp(x: {{.*}}, d_out: f32 [1, 6, 2, 3] input, d_state: f32 [1, 2, 3, 4] input, d_x: {{.*}} d_z: f32 [1, 6, 2, 3] output)>
inputs = [rng.normal(B, L, H, P), rng.normal(B, L, H, scale=0.5), rng.normal(H, scale=0.3),
          -(0.5 + rng.rng.random(H)).astype(np.float32), rng.normal(B, L, G, N, scale=0.5),
          rng.normal(B, L, G, N, scale=0.5), rng.normal(H), rng.normal(B, L, H, P)]
for name, cotangents in (("y and state", [rng.normal(B, L, H, P), rng.normal(B, H, P, N)]),
                         ("y only", [rng.normal(B, L, H, P), None])):
    dense = [c if c is not None else np.zeros((B, H, P, N), np.float32) for c in cotangents]
    grads = [np.empty_like(a) for a in inputs]
    module["mamba2_vjp"](*inputs, *dense, *grads)
    reference = finite_differences(module["mamba2"], inputs, cotangents)
    report(f"mamba2_vjp ({name}) against finite differences",
           list(zip(grads, reference)), 1e-2)
# CHECK: mamba2_vjp (y and state) against finite differences: max relative error {{.*}} PASS
# CHECK: mamba2_vjp (y only) against finite differences: max relative error {{.*}} PASS
