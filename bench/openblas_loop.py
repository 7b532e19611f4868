"""The per-expert OpenBLAS loop of the grouped GEMMs: numpy's matmul, one
SGEMM per expert on its slab of rows, as a plain BLAS user would write it.
numpy must link OpenBLAS (the wheels' scipy-openblas, or a distribution's
libopenblas); its kernels and threads come from OPENBLAS_CORETYPE and
OPENBLAS_NUM_THREADS, which mixer-bench sets from the ISA of mixer's code
and --threads. openblas() reports what the library actually runs, so that
a row never claims a core type or thread count it did not use."""

import ctypes


def _loaded_openblas():
    """The path of the OpenBLAS library loaded into this process, or None."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if "openblas" in path.lower() and ".so" in path:
                return path
    return None


def _function(lib, names, restype):
    for name in names:
        f = getattr(lib, name, None)
        if f is not None:
            f.restype = restype
            return f
    return None


def openblas():
    """(numpy, info) with info {"version", "core", "threads"} of numpy's
    OpenBLAS; raises RuntimeError saying why when numpy is missing or links
    another BLAS."""
    try:
        import numpy
    except ImportError as e:
        raise RuntimeError(f"numpy cannot be imported ({e})") from None
    a = numpy.ones((2, 2), numpy.float32)
    a @ a  # loads the library
    path = _loaded_openblas()
    if path is None:
        raise RuntimeError(f"numpy {numpy.__version__} does not link OpenBLAS")
    lib = ctypes.CDLL(path)
    # scipy-openblas prefixes its symbols (scipy_openblas_..._64_).
    def function(name, restype):
        return _function(lib, [f"scipy_openblas_{name}64_",
                               f"scipy_openblas_{name}", f"openblas_{name}64_",
                               f"openblas_{name}"], restype)
    config = function("get_config", ctypes.c_char_p)
    core = function("get_corename", ctypes.c_char_p)
    threads = function("get_num_threads", ctypes.c_int)
    if config is None or core is None or threads is None:
        raise RuntimeError(f"{path} has no openblas_get_config")
    # "OpenBLAS 0.3.31.188.0  USE64BITINT DYNAMIC_ARCH ..."
    words = config().decode().split()
    version = words[1] if len(words) > 1 else "unknown"
    return numpy, {"version": version, "core": core().decode(),
                   "threads": threads()}


def grouped_matmul(np, lhs, rhs, sizes, out):
    """out[rows of group e] = lhs[rows of e] @ rhs[e]; rows past the sizes
    zero. One SGEMM per expert (numpy.matmul with out=)."""
    start = 0
    for e, size in enumerate(sizes):
        if size:
            np.matmul(lhs[start:start + size], rhs[e], out=out[start:start + size])
        start += size
    out[start:] = 0
    return out


def grouped_swiglu(np, x, w_gate, w_up, sizes, gate, up, out):
    """silu(x W_gate[e]) * (x W_up[e]) on the rows of group e: two SGEMMs
    per expert into `gate` and `up` ([T, F] scratch), then the SwiGLU."""
    start = 0
    for e, size in enumerate(sizes):
        if size:
            rows = slice(start, start + size)
            np.matmul(x[rows], w_gate[e], out=gate[rows])
            np.matmul(x[rows], w_up[e], out=up[rows])
        start += size
    g, u = gate[:start], up[:start]
    # silu(g) = g / (1 + exp(-g)), in place.
    np.multiply(g, u, out=out[:start])
    np.negative(g, out=u)
    np.exp(u, out=u)
    u += 1.0
    np.divide(out[:start], u, out=out[:start])
    out[start:] = 0
    return out
