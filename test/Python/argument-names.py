# Error messages name the Python arguments (`init_state`, not the MLIR
# operand `init`; `D`, not `D_skip`), and calling a function a compiled
# module does not have lists the ones it has.
#
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import os
import sys

import numpy as np

import mixer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from checks import expect_value_error  # noqa: E402

rng = np.random.default_rng(0)
f32 = lambda *shape: rng.standard_normal(shape).astype(np.float32)


log_decay = -rng.random((1, 6, 2), dtype=np.float32)
expect_value_error(mixer.ssd, f32(1, 6, 2, 4), log_decay, f32(1, 6, 1, 8), f32(1, 6, 1, 8),
                   init_state=f32(1, 2, 4))
# CHECK: ValueError: argument 'init_state' must have rank 4 [B, H, P, N], got rank 3
expect_value_error(mixer.selective_scan, f32(1, 6, 4), f32(1, 6, 4), f32(4, 8), f32(1, 6, 1, 8),
                   f32(1, 6, 1, 8), init_state=f32(1, 4, 7))
# CHECK: ValueError: 'init_state' dim 2 (N) is 7, but 'A' dim 1 (N) is 8
expect_value_error(mixer.selective_scan, f32(1, 6, 4), f32(1, 6, 4), f32(4, 8), f32(1, 6, 1, 8),
                   f32(1, 6, 1, 8), D=f32(5))
# CHECK: ValueError: 'D' dim 0 (D) is 5, but 'u' dim 2 (D) is 4
expect_value_error(mixer.linear_attention, f32(1, 6, 2, 4), f32(1, 6, 2, 4), f32(1, 6, 2, 3),
                   init_state=f32(1, 2, 4, 4))
# CHECK: ValueError: 'init_state' dim 3 (V) is 4, but 'v' dim 3 (V) is 3
expect_value_error(mixer.gated_delta_rule, f32(1, 6, 2, 4), f32(1, 6, 2, 4), f32(1, 6, 2, 4),
                   log_decay, log_decay, init_state=f32(2, 2, 4, 4))
# CHECK: ValueError: 'init_state' dim 0 (B) is 2, but 'q' dim 0 (B) is 1

# An unknown function of a compiled module, as an attribute or by name.
ELEMENTWISE = """
func.func @{name}(%x: tensor<4xf32>, %out: tensor<4xf32> {{bufferization.writable = true}})
    -> tensor<4xf32> {{
  %r = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}}
      ins(%x : tensor<4xf32>) outs(%out : tensor<4xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %s = arith.{op} %a, %a : f32
    linalg.yield %s : f32
  }} -> tensor<4xf32>
  return %r : tensor<4xf32>
}}
"""
SOURCE = ELEMENTWISE.format(name="scale", op="addf") + ELEMENTWISE.format(name="square", op="mulf")
module = mixer.compile(SOURCE)
print(module.scale(np.arange(4, dtype=np.float32)))
# CHECK: [0. 2. 4. 6.]
try:
    module.scael
except AttributeError as e:
    print(f"AttributeError: {e}")
# CHECK: AttributeError: the module has no attribute or public function 'scael'; its functions are scale, square
try:
    module["scael"]
except KeyError as e:
    print(f"KeyError: {e}")
# CHECK: KeyError: "no public function named 'scael'; the module has scale, square"
