"""The one generic layer under the numpy ops: check the arguments, write the
MLIR function of one op (or a few) at their shapes, compile it once and call
it.

An op function declares its operands with `Call.arg` (Python name, value,
named dims), its results with `Call.out`, and gives the op's text; dims
named in `dynamic` are `?` in the function, so a new length reuses the
compiled code. The compile cache is mixer.compile's, keyed by the text.
"""

import numpy as np

from ._capi import MixerNotDifferentiableError
from .module import compile as _compile, empty_aligned

_ELEMENT = {np.dtype(np.float32): "f32", np.dtype(np.int32): "i32",
            np.dtype(np.int64): "i64"}
_WRITABLE = "{bufferization.writable = true}"


def check_positive_int(value, name, minimum=1):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"argument '{name}' must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"argument '{name}' must be at least {minimum}, got {value}")
    return int(value)


def check_positive_float(value, name):
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"argument '{name}' must be a number, got {value!r}") from None
    if not value > 0 or value == float("inf"):
        raise ValueError(f"argument '{name}' must be positive and finite, got {value}")
    return value


def check_choice(value, name, choices):
    if value not in choices:
        raise ValueError(f"argument '{name}' must be one of {', '.join(choices)}, "
                         f"got {value!r}")
    return value


def float_literal(value):
    """An MLIR float literal (it needs a '.')."""
    return f"{float(np.float32(value)):.9e}"


class Call:
    """The operands, results and named dims of one compiled call.

    The first operand to give a dim binds it; a later one that disagrees is
    a ValueError naming both Python arguments.
    """

    def __init__(self, dynamic=()):
        self.dynamic = set(dynamic)
        self.bound = {}
        self.args = []  # (ssa name, array, dims)
        self.names = {}  # ssa name -> Python argument name
        self.outs = []  # (ssa name, dims, dtype)

    def __getitem__(self, dim):
        return self.bound[dim][0]

    def bind(self, dim, size):
        """A dim the arguments do not carry (k, T*k)."""
        self.bound[dim] = (int(size), f"{dim}")

    def arg(self, value, name, dims, dtypes=(np.float32,), ssa=None):
        """Checks `value` as the Python argument `name` of shape `dims` and
        adds it as the function argument %ssa (default: name)."""
        if not isinstance(value, np.ndarray):
            raise ValueError(f"argument '{name}' must be a numpy array, got "
                             f"{type(value).__name__}")
        if value.ndim != len(dims):
            raise ValueError(f"argument '{name}' must have rank {len(dims)} "
                             f"[{', '.join(dims)}], got rank {value.ndim}")
        if value.dtype not in [np.dtype(d) for d in dtypes]:
            wanted = " or ".join(f"numpy.{np.dtype(d).name}" for d in dtypes)
            raise ValueError(f"argument '{name}' must have dtype {wanted}, "
                             f"got {value.dtype}")
        for i, (dim, size) in enumerate(zip(dims, value.shape)):
            what = f"'{name}' dim {i} ({dim})"
            if dim not in self.bound:
                self.bound[dim] = (size, what)
            elif self.bound[dim][0] != size:
                raise ValueError(f"{what} is {size}, but {self.bound[dim][1]} "
                                 f"is {self.bound[dim][0]}")
        self.args.append((ssa or name, np.ascontiguousarray(value), tuple(dims)))
        self.names[ssa or name] = name
        return f"%{ssa or name}"

    def scalar(self, value, ssa):
        """A 0-d f32 tensor operand (bandwidth, eps)."""
        self.args.append((ssa, np.array(value, dtype=np.float32), ()))
        return f"%{ssa}"

    def out(self, ssa, dims, dtype=np.float32):
        self.outs.append((ssa, tuple(dims), np.dtype(dtype)))
        return f"%{ssa}"

    def type(self, dims, dtype=np.float32):
        sizes = ["?" if d in self.dynamic else str(self[d]) for d in dims]
        return "tensor<" + "".join(s + "x" for s in sizes) + _ELEMENT[np.dtype(dtype)] + ">"

    def type_of(self, ssa):
        """The tensor type of the argument or result %ssa."""
        for name, array, dims in self.args:
            if name == ssa:
                return self.type(dims, array.dtype)
        for name, dims, dtype in self.outs:
            if name == ssa:
                return self.type(dims, dtype)
        raise KeyError(ssa)

    def types(self, *ssas):
        return ", ".join(self.type_of(s.lstrip("%")) for s in ssas)

    def op(self, text, ins, clauses=(), attrs=""):
        """The body of a one-op function: `text attrs ins(...) clause(...)
        outs(...) -> ...` returning every result."""
        outs = [f"%{name}" for name, _, _ in self.outs]
        lines = [f"{text}{' ' + attrs if attrs else ''}",
                 f"    ins({', '.join(ins)} : {self.types(*ins)})"]
        lines += [f"    {keyword}({ssa} : {self.types(ssa)})" for keyword, ssa in clauses]
        lines.append(f"    outs({', '.join(outs)} : {self.types(*outs)}) -> "
                     f"{self.types(*outs)}")
        results = ", ".join(f"%r{i}" for i in range(len(outs)))
        return (f"  {results} = " + "\n".join(lines) + "\n"
                f"  return {results} : {self.types(*outs)}\n")

    def run(self, name, body, options="", return_vjp=False, vjp_params=()):
        """Compiles (once per text and options) the function @name with the
        arguments, then the results as writable arguments, around `body`,
        and calls it on fresh result arrays. Returns one array or a tuple.

        With `return_vjp`, returns (outputs, vjp) instead: the module is
        compiled with generate-vjp=1 and vjp(*cotangents) calls @name_vjp
        (see make_vjp); `params` are the names of the op function's array
        parameters, in order, giving the order of the gradients."""
        params = [f"%{ssa}: {self.type(dims, a.dtype)}" for ssa, a, dims in self.args]
        params += [f"%{ssa}: {self.type(dims, dtype)} {_WRITABLE}"
                   for ssa, dims, dtype in self.outs]
        result_types = ", ".join(self.type(dims, dtype) for _, dims, dtype in self.outs)
        source = (f"func.func @{name}({', '.join(params)}) -> ({result_types}) {{\n"
                  f"{body}}}\n")
        if return_vjp:
            options = (options + " generate-vjp=1").strip()
        module = compile_for_vjp(source, options, name) if return_vjp else _compile(source, options)
        results = [empty_aligned(tuple(self[d] for d in dims), dtype)
                   for _, dims, dtype in self.outs]
        module[name](*[a for _, a, _ in self.args], *results)
        outputs = results[0] if len(results) == 1 else tuple(results)
        if not return_vjp:
            return outputs
        return outputs, self.make_vjp(module[f"{name}_vjp"], results, vjp_params)

    def make_vjp(self, function, results, params):
        """vjp(*cotangents): one cotangent per output (None: zero), returns
        the gradient of every parameter in `params`: None for an integer
        array or an absent optional."""
        inputs = [a for _, a, _ in self.args]
        index_of = {self.names.get(ssa, ssa): i for i, (ssa, _, _) in enumerate(self.args)}
        floats = [i for i, a in enumerate(inputs) if a.dtype.kind == "f"]
        outputs = [(ssa, r) for (ssa, _, _), r in zip(self.outs, results)]

        def vjp(*cotangents):
            if len(cotangents) != len(outputs):
                raise ValueError(f"vjp takes one cotangent per output "
                                 f"({', '.join(ssa for ssa, _ in outputs)}), got "
                                 f"{len(cotangents)}")
            arrays = []
            for (ssa, result), cotangent in zip(outputs, cotangents):
                if cotangent is None:
                    arrays.append(np.zeros_like(result))
                    continue
                cotangent = np.asarray(cotangent)
                if cotangent.shape != result.shape:
                    raise ValueError(f"the cotangent of '{ssa}' must have shape "
                                     f"{result.shape}, got {cotangent.shape}")
                # np.array keeps a 0-d cotangent 0-d (ascontiguousarray makes it 1-d).
                arrays.append(np.array(cotangent, dtype=result.dtype, order="C"))
            grads = {i: empty_aligned(inputs[i].shape, inputs[i].dtype) for i in floats}
            function(*inputs, *arrays, *grads.values())
            return tuple(grads.get(index_of[p]) if p in index_of else None
                         for p in params)

        return vjp


def compile_for_vjp(source, options, name):
    """The module of `source` with @name_vjp. An op without a
    vector-Jacobian product raises MixerNotDifferentiableError (a
    NotImplementedError) naming the op function and the op."""
    try:
        return _compile(source, options)
    except MixerNotDifferentiableError as e:
        reason = next(line for line in str(e).splitlines() if "cannot differentiate" in line)
        raise MixerNotDifferentiableError(
            e.status, f"mixer.{name}(return_vjp=True) is not available: "
            f"{reason.split('error: ')[-1]}") from None
