# Empty sequences and sets: a scan of length 0 returns an empty output and its
# initial state (zeros without one), a grouped GEMM of 0 rows does nothing,
# and kernel sums over 0 points are 0 (kernel_mv) or -inf (kernel_lse, the
# log of an empty sum); with static and dynamic sizes.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import numpy as np

import mixer

rng = np.random.default_rng(0)


def scan_module(op, length, extra_ins, extra_types, attrs, state_shape, y_shape):
    L = "?" if length is None else str(length)
    t = lambda s: "tensor<" + "x".join(L if d == "L" else str(d) for d in s) + "xf32>"
    ins = ", ".join(f"%a{i}" for i in range(len(extra_types)))
    types = ", ".join(t(s) for s in extra_types)
    args = ", ".join(f"%a{i}: {t(s)}" for i, s in enumerate(extra_types))
    return f"""
func.func @f({args}, %h: {t(state_shape)},
             %y0: {t(y_shape)} {{bufferization.writable = true}},
             %s0: {t(state_shape)} {{bufferization.writable = true}}) -> ({t(y_shape)}, {t(state_shape)}) {{
  %y, %s = mixer.{op} {attrs} ins({ins} : {types}) {extra_ins}init(%h : {t(state_shape)})
      outs(%y0, %s0 : {t(y_shape)}, {t(state_shape)}) -> {t(y_shape)}, {t(state_shape)}
  return %y, %s : {t(y_shape)}, {t(state_shape)}
}}
"""


SCANS = {
    "ssd": ("chunk_size(16)", "", [(1, "L", 2, 4), (1, "L", 2), (1, "L", 1, 8), (1, "L", 1, 8)],
            (1, 2, 4, 8), (1, "L", 2, 4)),
    "linear_attention": ("chunk_size(16)", "", [(1, "L", 2, 4), (1, "L", 2, 4), (1, "L", 2, 8)],
                         (1, 2, 4, 8), (1, "L", 2, 8)),
    "gated_delta_rule": ("chunk_size(16)", "",
                         [(1, "L", 2, 4), (1, "L", 2, 4), (1, "L", 2, 8), (1, "L", 2), (1, "L", 2)],
                         (1, 2, 4, 8), (1, "L", 2, 8)),
    "selective_scan": ("", "", [(1, "L", 8), (1, "L", 8), (8, 4), (1, "L", 1, 4), (1, "L", 1, 4)],
                       (1, 8, 4), (1, "L", 8)),
}

for op, (attrs, extra, ins, state, y) in SCANS.items():
    for length in (0, None):
        for options in ("", "naive=1"):
            module = mixer.compile(scan_module(op, length, extra, ins, attrs, state, y), options)
            shape = lambda s: tuple(0 if d == "L" else d for d in s)
            arrays = [np.zeros(shape(s), np.float32) for s in ins]
            h = rng.uniform(-1, 1, state).astype(np.float32)
            out_y = np.zeros(shape(y), np.float32)
            out_s = np.full(state, 7.0, np.float32)
            module["f"](*arrays, h, out_y, out_s)
            kind = "static" if length == 0 else "dynamic"
            print(f"{op} L=0 {kind} {options or 'tiled'}: final state is init: {np.array_equal(out_s, h)}")
# CHECK: ssd L=0 static tiled: final state is init: True
# CHECK: ssd L=0 static naive=1: final state is init: True
# CHECK: ssd L=0 dynamic tiled: final state is init: True
# CHECK: ssd L=0 dynamic naive=1: final state is init: True
# CHECK: linear_attention L=0 static tiled: final state is init: True
# CHECK: linear_attention L=0 static naive=1: final state is init: True
# CHECK: linear_attention L=0 dynamic tiled: final state is init: True
# CHECK: linear_attention L=0 dynamic naive=1: final state is init: True
# CHECK: gated_delta_rule L=0 static tiled: final state is init: True
# CHECK: gated_delta_rule L=0 static naive=1: final state is init: True
# CHECK: gated_delta_rule L=0 dynamic tiled: final state is init: True
# CHECK: gated_delta_rule L=0 dynamic naive=1: final state is init: True
# CHECK: selective_scan L=0 static tiled: final state is init: True
# CHECK: selective_scan L=0 static naive=1: final state is init: True
# CHECK: selective_scan L=0 dynamic tiled: final state is init: True
# CHECK: selective_scan L=0 dynamic naive=1: final state is init: True

# Without an initial state, through the numpy function: zeros.
y, s = mixer.ssd(np.zeros((1, 0, 2, 4), np.float32), np.zeros((1, 0, 2), np.float32),
                 np.zeros((1, 0, 1, 8), np.float32), np.zeros((1, 0, 1, 8), np.float32))
print("ssd L=0 no init:", y.shape, s.shape, bool(np.all(s == 0)))
# CHECK: ssd L=0 no init: (1, 0, 2, 4) (1, 2, 4, 8) True

SETS = """
func.func @gm(%lhs: tensor<{T}x16xf32>, %rhs: tensor<2x16x32xf32>, %gs: tensor<2xi64>,
              %out: tensor<{T}x32xf32> {{bufferization.writable = true}}) -> tensor<{T}x32xf32> {{
  %r = mixer.grouped_matmul ins(%lhs, %rhs, %gs : tensor<{T}x16xf32>, tensor<2x16x32xf32>, tensor<2xi64>)
      outs(%out : tensor<{T}x32xf32>) -> tensor<{T}x32xf32>
  return %r : tensor<{T}x32xf32>
}}
func.func @lse(%x: tensor<4x3xf32>, %y: tensor<{M}x3xf32>, %eps: tensor<f32>,
               %o: tensor<4xf32> {{bufferization.writable = true}}) -> tensor<4xf32> {{
  %r = mixer.kernel_lse kernel(sqeuclidean) ins(%x, %y, %eps : tensor<4x3xf32>, tensor<{M}x3xf32>, tensor<f32>)
      outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}}
func.func @mv(%x: tensor<4x3xf32>, %y: tensor<{M}x3xf32>, %v: tensor<{M}x2xf32>, %h: tensor<f32>,
              %o: tensor<4x2xf32> {{bufferization.writable = true}}) -> tensor<4x2xf32> {{
  %r = mixer.kernel_mv kernel(gaussian) ins(%x, %y, %v, %h : tensor<4x3xf32>, tensor<{M}x3xf32>, tensor<{M}x2xf32>, tensor<f32>)
      outs(%o : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}}
"""
for size in ("0", "?"):
    for options in ("", "naive=1"):
        module = mixer.compile(SETS.format(T=size, M=size), options)
        kind = "static" if size == "0" else "dynamic"
        out = np.zeros((0, 32), np.float32)
        module["gm"](np.zeros((0, 16), np.float32), np.ones((2, 16, 32), np.float32),
                     np.zeros(2, np.int64), out)
        lse = np.full(4, 7.0, np.float32)
        module["lse"](np.ones((4, 3), np.float32), np.zeros((0, 3), np.float32),
                      np.array(1.0, np.float32), lse)
        mv = np.full((4, 2), 7.0, np.float32)
        module["mv"](np.ones((4, 3), np.float32), np.zeros((0, 3), np.float32),
                     np.zeros((0, 2), np.float32), np.array(1.0, np.float32), mv)
        print(f"{kind} {options or 'tiled'}: grouped_matmul T=0 ran; kernel_lse M=0 "
              f"-inf: {bool(np.all(lse == -np.inf))}; kernel_mv M=0 zero: {bool(np.all(mv == 0))}")
# CHECK: static tiled: grouped_matmul T=0 ran; kernel_lse M=0 -inf: True; kernel_mv M=0 zero: True
# CHECK: static naive=1: grouped_matmul T=0 ran; kernel_lse M=0 -inf: True; kernel_mv M=0 zero: True
# CHECK: dynamic tiled: grouped_matmul T=0 ran; kernel_lse M=0 -inf: True; kernel_mv M=0 zero: True
# CHECK: dynamic naive=1: grouped_matmul T=0 ran; kernel_lse M=0 -inf: True; kernel_mv M=0 zero: True
