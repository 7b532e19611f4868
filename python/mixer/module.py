"""Compile a module's text once, call its functions on numpy arrays."""

import collections
import ctypes
import threading

import numpy as np

from . import _capi


class _Context:
    """The process-wide compiler context; modules live as long as it.

    It needs no lock here: the C API serializes compiling (and destroying
    modules) per context itself, calls run on any number of threads, and
    error messages are kept per thread (include/mixer-c/Mixer.h).
    """

    _instance = None
    _lock = threading.Lock()

    def __init__(self):
        self.handle = _capi.lib.mixerContextCreate()
        if not self.handle:
            raise MemoryError("mixer: cannot create a context")

    @classmethod
    def get(cls):
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    def last_error(self):
        """The message of this thread's last failing call."""
        return _capi.lib.mixerGetLastError(self.handle).decode()


_descriptor_types = {}


def _descriptor_type(rank):
    """{void *allocated, *aligned; int64_t offset, sizes[rank], strides[rank]}."""
    if rank not in _descriptor_types:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank:
            fields += [("sizes", ctypes.c_int64 * rank),
                       ("strides", ctypes.c_int64 * rank)]
        _descriptor_types[rank] = type(f"MemRef{rank}D", (ctypes.Structure,),
                                       {"_fields_": fields})
    return _descriptor_types[rank]


CACHE_LINE = 64


def empty_aligned(shape, dtype=np.float32):
    """An uninitialized C-order array whose data starts on a 64-byte cache
    line (numpy's own start 16 bytes into one): compiled code writes the
    rows of such outputs whole, and those larger than a core's L2 with
    non-temporal stores, which need line-aligned rows."""
    dtype = np.dtype(dtype)
    shape = (int(shape),) if np.isscalar(shape) else tuple(int(s) for s in shape)
    count = int(np.prod(shape, dtype=np.int64))
    raw = np.empty(count * dtype.itemsize + CACHE_LINE, dtype=np.uint8)
    start = -raw.ctypes.data % CACHE_LINE
    return raw[start:start + count * dtype.itemsize].view(dtype).reshape(shape)


def _format_shape(shape):
    return "[" + ", ".join("?" if s < 0 else str(s) for s in shape) + "]"


class Argument:
    """One argument of a compiled function."""

    def __init__(self, index, info):
        self.index = index
        self.name = info.name.decode() or f"#{index}"
        self.element, dtype = _capi.ELEMENT_TYPES[info.elementType]
        self.dtype = np.dtype(dtype) if dtype else None
        self.is_tensor = bool(info.isTensor)
        self.is_output = bool(info.isOutput)
        self.shape = tuple(info.shape[d] for d in range(info.rank))

    def __repr__(self):
        kind = "output" if self.is_output else "input"
        shape = _format_shape(self.shape) if self.is_tensor else "scalar"
        return f"{self.name}: {self.element} {shape} {kind}"


class Function:
    """A public function of a compiled module, callable on numpy arrays.

    Call it with every argument (outputs are written in place and None is
    returned), or with the inputs only: outputs of static shape are then
    allocated and returned (one array, or a tuple of several).
    """

    def __init__(self, module, name):
        self.module = module
        self.name = name
        lib, handle = _capi.lib, module.handle
        num_args, num_results = ctypes.c_int(), ctypes.c_int()
        module._check(lib.mixerModuleGetFunction(
            handle, name.encode(), ctypes.byref(num_args), ctypes.byref(num_results)))
        self.arguments = []
        for i in range(num_args.value):
            info = _capi.ArgumentInfo()
            module._check(lib.mixerModuleGetArgument(handle, name.encode(), i,
                                                     ctypes.byref(info)))
            self.arguments.append(Argument(i, info))
        self.num_results = num_results.value
        self.inputs = [a for a in self.arguments if not a.is_output]
        self.outputs = [a for a in self.arguments if a.is_output]

    def __repr__(self):
        return f"<mixer function {self.name}({', '.join(map(repr, self.arguments))})>"

    def _where(self, arg):
        return f"argument '{arg.name}' of '{self.name}'"

    def _check_array(self, arg, value):
        where = self._where(arg)
        if not isinstance(value, np.ndarray):
            raise ValueError(f"{where} must be a numpy array, got {type(value).__name__}")
        if arg.dtype is None:
            raise ValueError(f"{where} has element type {arg.element}, which numpy "
                             "cannot represent")
        if value.dtype != arg.dtype:
            raise ValueError(f"{where} must have dtype {arg.dtype}, got {value.dtype}")
        if value.ndim != len(arg.shape):
            raise ValueError(f"{where} must have rank {len(arg.shape)} "
                             f"{_format_shape(arg.shape)}, got shape {value.shape}")
        for d, (size, expected) in enumerate(zip(value.shape, arg.shape)):
            if expected >= 0 and size != expected:
                raise ValueError(f"{where} must have shape {_format_shape(arg.shape)}, "
                                 f"got {value.shape} (dim {d} is {size})")
        if not value.flags.c_contiguous:
            raise ValueError(f"{where} must be C-contiguous (numpy.ascontiguousarray "
                             "makes a copy that is)")
        if arg.is_output and not value.flags.writeable:
            raise ValueError(f"{where} is an output and must be writeable")

    def _pack(self, arg, value, keep):
        """A pointer to the descriptor (tensors) or to the value (scalars)."""
        if not arg.is_tensor:
            if isinstance(value, np.ndarray) and value.ndim != 0:
                raise ValueError(f"{self._where(arg)} is a scalar, got an array "
                                 f"of shape {value.shape}")
            ctype = np.ctypeslib.as_ctypes_type(arg.dtype)
            try:
                scalar = ctype(value.item() if isinstance(value, np.generic) else value)
            except TypeError:
                raise ValueError(f"{self._where(arg)} must be a {arg.element} scalar, "
                                 f"got {value!r}") from None
            keep.append(scalar)
            return ctypes.cast(ctypes.pointer(scalar), ctypes.c_void_p)
        self._check_array(arg, value)
        rank = value.ndim
        descriptor = _descriptor_type(rank)()
        data = value.ctypes.data
        descriptor.allocated = data
        descriptor.aligned = data
        descriptor.offset = 0
        stride = 1
        for d in reversed(range(rank)):
            descriptor.sizes[d] = value.shape[d]
            descriptor.strides[d] = stride
            stride *= value.shape[d]
        keep.append(descriptor)
        return ctypes.cast(ctypes.pointer(descriptor), ctypes.c_void_p)

    def __call__(self, *args):
        if len(args) == len(self.arguments):
            values, allocated = list(args), None
        elif len(args) == len(self.inputs):
            values, allocated, inputs = [], [], iter(args)
            for arg in self.arguments:
                if not arg.is_output:
                    values.append(next(inputs))
                    continue
                if any(s < 0 for s in arg.shape):
                    raise ValueError(f"output '{arg.name}' of '{self.name}' has dynamic "
                                     f"shape {_format_shape(arg.shape)}; pass it")
                allocated.append(empty_aligned(arg.shape, arg.dtype))
                values.append(allocated[-1])
        else:
            raise ValueError(
                f"'{self.name}' takes {len(self.arguments)} arguments "
                f"({', '.join(a.name for a in self.arguments)}), or its "
                f"{len(self.inputs)} inputs, got {len(args)}")
        keep = []
        pointers = (ctypes.c_void_p * len(values))(
            *[self._pack(arg, value, keep) for arg, value in zip(self.arguments, values)])
        # No lock around the kernel: ctypes releases the GIL and the C API
        # lets any number of threads call at once.
        handle = self.module._begin_call()
        try:
            self.module._check(_capi.lib.mixerModuleCall(
                handle, self.name.encode(), pointers, len(values)))
        finally:
            self.module._end_call()
        if allocated is None:
            return None
        return allocated[0] if len(allocated) == 1 else tuple(allocated)


class Module:
    """A compiled module. Use `compile`, which caches.

    Its functions may be called from several threads at once; `close`
    waits for the calls running then.
    """

    def __init__(self, source, options=""):
        self.context = _Context.get()
        # Counts the calls running now, so that close never destroys the
        # code under one of them.
        self._calls_done = threading.Condition()
        self._running_calls = 0
        handle = ctypes.c_void_p()
        status = _capi.lib.mixerModuleCompile(
            self.context.handle, source.encode(), options.encode(),
            ctypes.byref(handle))
        if status != _capi.SUCCESS:
            raise _capi.error_for(status, self.context.last_error())
        self.handle = handle
        self.source, self.options = source, options
        count = _capi.lib.mixerModuleGetNumFunctions(handle)
        self.functions = {}
        for i in range(count):
            name = _capi.lib.mixerModuleGetFunctionName(handle, i).decode()
            self.functions[name] = Function(self, name)

    def _begin_call(self):
        with self._calls_done:
            if not self.handle:
                raise ValueError("mixer: the module is closed")
            self._running_calls += 1
            return self.handle

    def _end_call(self):
        with self._calls_done:
            self._running_calls -= 1
            if not self._running_calls:
                self._calls_done.notify_all()

    def _check(self, status):
        if status != _capi.SUCCESS:
            raise _capi.error_for(status, self.context.last_error())

    def __getitem__(self, name):
        try:
            return self.functions[name]
        except KeyError:
            raise KeyError(f"no public function named '{name}'; the module has "
                           f"{', '.join(self.functions) or 'none'}") from None

    def __getattr__(self, name):
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError(f"the module has no attribute or public function "
                             f"'{name}'; its functions are "
                             f"{', '.join(functions) or 'none'}")

    def call(self, name, *args):
        return self[name](*args)

    def close(self):
        """Frees the compiled code once the calls running now have returned;
        later calls raise ValueError, and `compile` compiles the source
        again."""
        with _cache_lock:
            if _cache.get((self.source, self.options)) is self:
                del _cache[(self.source, self.options)]
        self._destroy()

    def _destroy(self):
        calls_done = getattr(self, "_calls_done", None)
        if calls_done is None:  # __init__ failed before compiling
            return
        with calls_done:
            while self._running_calls:
                calls_done.wait()
            handle, self.handle = getattr(self, "handle", None), None
        if handle:
            # The C API serializes this with compiling in the context.
            _capi.lib.mixerModuleDestroy(handle)

    def __del__(self):
        # Unreferenced, so no call is running and it is not in the cache
        # (whose lock must not be taken here: the collector may run while
        # this thread holds it).
        self._destroy()


_cache = {}
_cache_lock = threading.Lock()
# Calls of `compile` that found their module in the cache, and those that
# compiled one (cache_info).
_cache_hits = 0
_compilations = 0

CacheInfo = collections.namedtuple("CacheInfo", "hits compilations modules")


def cache_info():
    """CacheInfo(hits, compilations, modules): how many calls of `compile`
    (also those of the numpy op functions and decoders) reused a compiled
    module, how many compiled one, and how many modules the cache holds."""
    with _cache_lock:
        return CacheInfo(_cache_hits, _compilations, len(_cache))


def compile(source, options="", target="cpu", chip=None):
    """Compiles the text of an MLIR module once per (source, options).

    `options` are those of mixer-lower-to-cpu-pipeline, e.g.
    "num-threads=2 naive=1". Raises MixerError, with the compiler's
    diagnostics, when the module does not parse, verify or lower.

    target="cuda" compiles for an NVIDIA GPU (`chip` "sm_80", "sm_90" or
    "sm_90a"; sm_90 by default), `options` then being those of
    mixer-lower-to-nvvm-pipeline. Calls take numpy arrays as on the CPU.
    Compiling needs no GPU; calling where there is none raises
    MixerDeviceError.
    """
    if target not in ("cpu", "cuda"):
        raise ValueError(f"unknown target '{target}' (known: cpu, cuda)")
    if chip is not None and target != "cuda":
        raise ValueError("chip needs target='cuda'")
    if target == "cuda":
        prefix = "target=cuda" + (f" chip={chip}" if chip else "")
        options = f"{prefix} {options}".strip()
    key = (source, options)
    global _cache_hits, _compilations
    with _cache_lock:
        module = _cache.get(key)
        if module is None:
            module = _cache[key] = Module(source, options)
            _compilations += 1
        else:
            _cache_hits += 1
        return module
