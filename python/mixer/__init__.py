"""mixer: compile MLIR modules of mixer ops for this CPU and call them on
numpy arrays.

    import mixer
    module = mixer.compile(mlir_text, options="num-threads=2")
    c = module.matmul(a, b)              # outputs allocated and returned
    module["matmul"](a, b, c)            # or written in place
    y, state = mixer.ssd(x, log_a, b, c, chunk_size=64)

The C API library is build/lib/libMixerCAPI.so of this repository, or the
file named by MIXER_LIBRARY.
"""

from ._capi import MixerArgumentError, MixerError, library_path
from .module import Function, Module, compile
from .ops import ssd

__all__ = ["Function", "MixerArgumentError", "MixerError", "Module", "compile",
           "library_path", "ssd"]
