"""The mixer ops on numpy arrays: each builds the MLIR of one op at the
given shapes, compiles it once and calls it."""

import numpy as np

from .module import compile as _compile


class _Shapes:
    """Named-dimension checks with the op verifiers' messages: the first
    operand to give a dimension binds it, a later one that disagrees is an
    error naming both."""

    def __init__(self):
        self.bound = {}

    def check(self, value, name, dims):
        if not isinstance(value, np.ndarray):
            raise ValueError(f"operand '{name}' must be a numpy array, got "
                             f"{type(value).__name__}")
        if value.ndim != len(dims):
            raise ValueError(f"operand '{name}' must have rank {len(dims)} "
                             f"[{', '.join(dims)}], got rank {value.ndim}")
        if value.dtype != np.float32:
            raise ValueError(f"operand '{name}' must have f32 elements "
                             f"(numpy.float32), got {value.dtype}")
        for i, (symbol, size) in enumerate(zip(dims, value.shape)):
            what = f"'{name}' dim {i} ({symbol})"
            if symbol not in self.bound:
                self.bound[symbol] = (size, what)
            elif self.bound[symbol][0] != size:
                raise ValueError(f"{what} is {size}, but {self.bound[symbol][1]} "
                                 f"is {self.bound[symbol][0]}")

    def __getitem__(self, symbol):
        return self.bound[symbol][0]


def _tensor(shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "xf32>"


def _ssd_source(x, log_a, b, c, init, chunk_size):
    tx, tla, tb, tc = (_tensor(a.shape) for a in (x, log_a, b, c))
    batch, _, heads, head_dim = x.shape
    state = _tensor((batch, heads, head_dim, b.shape[3]))
    writable = "{bufferization.writable = true}"
    args = [f"%x: {tx}", f"%log_a: {tla}", f"%b: {tb}", f"%c: {tc}"]
    init_clause = ""
    if init is not None:
        args.append(f"%init: {state}")
        init_clause = f"\n      init(%init : {state})"
    args += [f"%y: {tx} {writable}", f"%final_state: {state} {writable}"]
    return (
        f"func.func @ssd({', '.join(args)}) -> ({tx}, {state}) {{\n"
        f"  %0, %1 = mixer.ssd chunk_size({chunk_size})\n"
        f"      ins(%x, %log_a, %b, %c : {tx}, {tla}, {tb}, {tc}){init_clause}\n"
        f"      outs(%y, %final_state : {tx}, {state}) -> {tx}, {state}\n"
        f"  return %0, %1 : {tx}, {state}\n"
        "}\n")


# (shapes, has init, chunk size, options) -> the compiled function.
_ssd_functions = {}


def ssd(x, log_a, b, c, *, init_state=None, chunk_size=64, options=""):
    """Mamba-2 state space duality scan (mixer.ssd).

    x [B, L, H, P], log_a [B, L, H] (dt * A, <= 0), b and c [B, L, G, N]
    with H % G == 0, optional init_state [B, H, P, N]; all float32. Per head
    h of group g = h / (H / G):

        S_t = exp(log_a_t) S_{t-1} + x_t b_t^T   (S_{-1} = init_state or 0)
        y_t = S_t c_t

    Returns (y [B, L, H, P], final_state [B, H, P, N]). Compiles once per
    shapes, chunk size and presence of init_state; `options` go to the CPU
    pipeline ("num-threads=2"). Raises ValueError naming the operand for
    inconsistent shapes or dtypes.
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)):
        raise ValueError(f"attribute 'chunk_size' must be an integer, got {chunk_size!r}")
    if chunk_size <= 0:
        raise ValueError(f"attribute 'chunk_size' must be positive, got {chunk_size}")
    shapes = _Shapes()
    shapes.check(x, "x", ("B", "L", "H", "P"))
    shapes.check(log_a, "log_a", ("B", "L", "H"))
    shapes.check(b, "b", ("B", "L", "G", "N"))
    shapes.check(c, "c", ("B", "L", "G", "N"))
    if init_state is not None:
        shapes.check(init_state, "init", ("B", "H", "P", "N"))
    if shapes["G"] == 0:
        raise ValueError("operand 'b' must have at least one group")
    if shapes["H"] % shapes["G"] != 0:
        raise ValueError(f"heads H = {shapes['H']} of 'x' must be a multiple of "
                         f"groups G = {shapes['G']} of 'b' and 'c'")

    inputs = [np.ascontiguousarray(a) for a in (x, log_a, b, c)]
    if init_state is not None:
        inputs.append(np.ascontiguousarray(init_state))
    key = (x.shape, log_a.shape, b.shape, c.shape, init_state is not None,
           int(chunk_size), options)
    function = _ssd_functions.get(key)
    if function is None:
        source = _ssd_source(x, log_a, b, c, init_state, int(chunk_size))
        function = _ssd_functions[key] = _compile(source, options)["ssd"]
    return function(*inputs)
