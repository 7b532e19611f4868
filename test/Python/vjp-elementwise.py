# The @f_vjp that mixer-generate-vjp makes (option generate-vjp=1) of
# elementwise functions around the scans: the silu gate, the dt scaling with
# softplus and a bias broadcast over the batch and time, the D skip, a
# clamp with select/max/min, and a matmul with a transpose. Each compiled
# _vjp is checked against central finite differences of the compiled
# forward, on sum(out * r) for a random r.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from checks import RandomInputs, report  # noqa: E402
from gradcheck import finite_differences  # noqa: E402

import mixer  # noqa: E402

W = "{bufferization.writable = true}"
ID3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
ID4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
BLH = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>"
HEAD = "affine_map<(d0, d1, d2, d3) -> (d2)>"
P3 = '["parallel", "parallel", "parallel"]'
P4 = '["parallel", "parallel", "parallel", "parallel"]'
T = "tensor<?x6x4xf32>"     # [B*L, ?, D] for the gate: dynamic rows
X = "tensor<2x5x3x4xf32>"   # [B, L, H, P]
DT = "tensor<2x5x3xf32>"    # [B, L, H]
H = "tensor<3xf32>"

SOURCE = f"""
func.func @silu_gate(%y: {T}, %z: {T}, %out: {T} {W}) -> {T} {{
  %r = linalg.generic {{indexing_maps = [{ID3}, {ID3}, {ID3}], iterator_types = {P3}}}
      ins(%y, %z : {T}, {T}) outs(%out : {T}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %nb = arith.negf %b : f32
    %e = math.exp %nb : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %b, %d : f32
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  }} -> {T}
  return %r : {T}
}}

func.func @dt_softplus(%x: {X}, %dt: {DT}, %bias: {H}, %out: {X} {W}) -> {X} {{
  %r = linalg.generic {{indexing_maps = [{ID4}, {BLH}, {HEAD}, {ID4}], iterator_types = {P4}}}
      ins(%x, %dt, %bias : {X}, {DT}, {H}) outs(%out : {X}) {{
  ^bb0(%a: f32, %t: f32, %c: f32, %o: f32):
    %v = arith.addf %t, %c : f32
    %e = math.exp %v : f32
    %sp = math.log1p %e : f32
    %m = arith.mulf %a, %sp : f32
    linalg.yield %m : f32
  }} -> {X}
  return %r : {X}
}}

func.func @d_skip(%y: {X}, %x: {X}, %d: {H}, %out: {X} {W}) -> {X} {{
  %r = linalg.generic {{indexing_maps = [{ID4}, {ID4}, {HEAD}, {ID4}], iterator_types = {P4}}}
      ins(%y, %x, %d : {X}, {X}, {H}) outs(%out : {X}) {{
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %m = arith.mulf %c, %b : f32
    %s = arith.addf %a, %m : f32
    linalg.yield %s : f32
  }} -> {X}
  return %r : {X}
}}

func.func @clamp(%x: {X}, %lo: {H}, %out: {X} {W}, %out2: {X} {W}) -> ({X}, {X}) {{
  %r, %r2 = linalg.generic {{indexing_maps = [{ID4}, {HEAD}, {ID4}, {ID4}], iterator_types = {P4}}}
      ins(%x, %lo : {X}, {H}) outs(%out, %out2 : {X}, {X}) {{
  ^bb0(%a: f32, %l: f32, %o: f32, %o2: f32):
    %one = arith.constant 1.0 : f32
    %hi = arith.addf %l, %one : f32
    %m = arith.maximumf %a, %l : f32
    %n = arith.minimumf %m, %hi : f32
    %pos = arith.cmpf ogt, %a, %l : f32
    %t = math.tanh %a : f32
    %sq = arith.mulf %a, %a : f32
    %q = arith.addf %sq, %one : f32
    %rs = math.rsqrt %q : f32
    %sel = arith.select %pos, %t, %rs : f32
    %sr = math.sqrt %q : f32
    %lg = math.log %sr : f32
    %w = arith.subf %sel, %lg : f32
    linalg.yield %n, %w : f32, f32
  }} -> ({X}, {X})
  return %r, %r2 : {X}, {X}
}}

func.func @matmul(%a: tensor<4x6xf32>, %b: tensor<5x6xf32>,
                  %out: tensor<4x5xf32> {W}) -> tensor<4x5xf32> {{
  %e = tensor.empty() : tensor<6x5xf32>
  %bt = linalg.transpose ins(%b : tensor<5x6xf32>) outs(%e : tensor<6x5xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%out : tensor<4x5xf32>) -> tensor<4x5xf32>
  %r = linalg.matmul ins(%a, %bt : tensor<4x6xf32>, tensor<6x5xf32>)
                     outs(%acc : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}}
"""

module = mixer.compile(SOURCE, "generate-vjp=1 num-threads=2")
print(sorted(module.functions))
# CHECK: ['clamp', 'clamp_vjp', 'd_skip', 'd_skip_vjp', 'dt_softplus', 'dt_softplus_vjp', 'matmul', 'matmul_vjp', 'silu_gate', 'silu_gate_vjp']
print(module["d_skip_vjp"])
# CHECK: <mixer function d_skip_vjp(y: f32 [2, 5, 3, 4] input, x: f32 [2, 5, 3, 4] input, d: f32 [3] input, d_out: f32 [2, 5, 3, 4] input, d_y: f32 [2, 5, 3, 4] output, d_x: f32 [2, 5, 3, 4] output, d_d: f32 [3] output)>

rng = RandomInputs(1)


def check(name, inputs, out_shapes):
    forward = module[name]
    if any(s < 0 for a in forward.outputs for s in a.shape):
        outs = [np.empty(s, dtype=np.float32) for s in out_shapes]

        def run(*args):
            forward(*args, *outs)
            return tuple(o.copy() for o in outs) if len(outs) > 1 else outs[0].copy()
    else:
        run = forward
    cotangents = [rng.normal(*s) for s in out_shapes]
    grads = [np.empty_like(a) for a in inputs]
    module[name + "_vjp"](*inputs, *cotangents, *grads)
    reference = finite_differences(run, inputs, cotangents)
    report(f"{name}_vjp against finite differences", list(zip(grads, reference)), 1e-2)


x = rng.normal(2, 5, 3, 4)
check("silu_gate", [rng.normal(3, 6, 4), rng.normal(3, 6, 4, scale=2.0)], [(3, 6, 4)])
# CHECK: silu_gate_vjp against finite differences: max relative error {{.*}} PASS
check("dt_softplus", [x, rng.normal(2, 5, 3), rng.normal(3)], [(2, 5, 3, 4)])
# CHECK: dt_softplus_vjp against finite differences: max relative error {{.*}} PASS
check("d_skip", [rng.normal(2, 5, 3, 4), x, rng.normal(3)], [(2, 5, 3, 4)])
# CHECK: d_skip_vjp against finite differences: max relative error {{.*}} PASS
# Away from the kinks of max and min (and the select's switch), where
# differences straddle two branches.
lo = np.array([-0.5, 0.0, 0.5], dtype=np.float32)
xc = x.copy()
near = np.abs(xc - lo[:, None]) < 0.05
near |= np.abs(xc - lo[:, None] - 1) < 0.05
xc[near] += 0.2
check("clamp", [xc, lo], [(2, 5, 3, 4), (2, 5, 3, 4)])
# CHECK: clamp_vjp against finite differences: max relative error {{.*}} PASS
check("matmul", [rng.normal(4, 6), rng.normal(5, 6)], [(4, 5)])
# CHECK: matmul_vjp against finite differences: max relative error {{.*}} PASS

# The gradient outputs only: the cotangent of a second result alone.
grads = module["clamp_vjp"](xc, lo, np.zeros_like(xc), np.ones_like(xc))
print([g.shape for g in grads])
# CHECK: [(2, 5, 3, 4), (3,)]
