"""mixer: compile MLIR modules of mixer ops for this CPU and call them on
numpy arrays.

    import mixer
    module = mixer.compile(mlir_text, options="num-threads=2")
    c = module.matmul(a, b)              # outputs allocated and returned
    module["matmul"](a, b, c)            # or written in place
    y, state = mixer.ssd(x, log_a, b, c, chunk_size=64)
    (y, state), vjp = mixer.ssd(x, log_a, b, c, return_vjp=True)
    dx, dlog_a, db, dc, dinit = vjp(dy, None)   # None: a zero cotangent
    decoder = mixer.Decoder("ssd")       # prefill, then one token per step

Every op has a numpy function (docs/Python.md). The C API library is
build/lib/libMixerCAPI.so of this repository, or the file named by
MIXER_LIBRARY.
"""

from ._capi import (MixerArgumentError, MixerDeviceError, MixerError,
                    MixerNotDifferentiableError, library_path)
from .decoder import Decoder
from .kernels import kde, kernel_lse, kernel_mv, sinkhorn
from .module import CacheInfo, Function, Module, cache_info, compile, empty_aligned
from .moe import (grouped_matmul, grouped_swiglu, moe_combine, moe_dispatch,
                  moe_ffn, topk_router)
from .ops import gated_delta_rule, linear_attention, selective_scan, ssd

__all__ = ["CacheInfo", "Decoder", "Function", "MixerArgumentError",
           "MixerDeviceError", "MixerError", "MixerNotDifferentiableError",
           "Module", "cache_info", "compile", "empty_aligned", "gated_delta_rule",
           "grouped_matmul", "grouped_swiglu", "kde", "kernel_lse", "kernel_mv",
           "library_path", "linear_attention", "moe_combine", "moe_dispatch",
           "moe_ffn", "selective_scan", "sinkhorn", "ssd", "topk_router"]
