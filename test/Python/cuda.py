# mixer.compile(..., target="cuda"): compiling needs no GPU; calling where
# there is none raises MixerDeviceError naming what is missing (the NVIDIA
# driver, or a device); on a GPU the result matches numpy. Bad targets and
# chips are ValueErrors.
#
# REQUIRES: cuda-runtime
# RUN: env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s
# RUN: %cuda_env PYTHONPATH=%mixer_python_dir MIXER_LIBRARY=%mixer_capi_lib %python %s | FileCheck %s

import numpy as np

import mixer

SOURCE = """
func.func @softplus(%x: tensor<128x16xf32>,
                    %out: tensor<128x16xf32> {bufferization.writable = true})
    -> tensor<128x16xf32> {
  %one = arith.constant 1.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<128x16xf32>) outs(%out : tensor<128x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    %s = arith.addf %e, %one : f32
    %l = math.log %s : f32
    linalg.yield %l : f32
  } -> tensor<128x16xf32>
  return %r : tensor<128x16xf32>
}
"""

for kwargs in ({"target": "rocm"}, {"chip": "sm_80"}):
    try:
        mixer.compile(SOURCE, **kwargs)
    except ValueError as e:
        print("rejected:", e)
# CHECK: rejected: unknown target 'rocm' (known: cpu, cuda)
# CHECK: rejected: chip needs target='cuda'

try:
    mixer.compile(SOURCE, target="cuda", chip="sm_75")
except mixer.MixerArgumentError as e:
    print("rejected:", str(e).splitlines()[0])
# CHECK: rejected: invalid options 'target=cuda chip=sm_75': unknown chip 'sm_75' (supported: sm_80, sm_90, sm_90a)

module = mixer.compile(SOURCE, target="cuda", chip="sm_90a")
print("compiled:", list(module.functions))
# CHECK: compiled: ['softplus']

rng = np.random.default_rng(3)
x = rng.uniform(-4, 4, size=(128, 16)).astype(np.float32)
try:
    out = module.softplus(x)
    ref = np.log1p(np.exp(x.astype(np.float64)))
    error = float(np.max(np.abs(out - ref)) / np.max(np.abs(ref)))
    print("ran on the GPU, relative error %.2e" % error)
    print("no CUDA device:", "none needed" if error < 1e-5 else "wrong result")
except mixer.MixerDeviceError as e:
    print(str(e)[str(e).index("no CUDA device"):].splitlines()[0])
# CHECK: no CUDA device: {{.*(libcuda.so.1|stub|none needed)}}
