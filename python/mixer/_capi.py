"""ctypes bindings of libMixerCAPI.so (include/mixer-c/Mixer.h)."""

import ctypes
import os

# mixer_status_t
SUCCESS = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_PARSE = 2
ERROR_VERIFY = 3
ERROR_COMPILE = 4
ERROR_JIT = 5
ERROR_NOT_FOUND = 6
ERROR_ARGUMENTS = 7
ERROR_NO_DEVICE = 8
ERROR_DEVICE = 9

# mixer_element_type_t, with the numpy dtype of each.
ELEMENT_TYPES = {
    0: ("f32", "float32"),
    1: ("f64", "float64"),
    2: ("f16", "float16"),
    3: ("bf16", None),  # numpy has no bfloat16
    4: ("i8", "int8"),
    5: ("i16", "int16"),
    6: ("i32", "int32"),
    7: ("i64", "int64"),
    8: ("index", "int64"),
}


class MixerError(RuntimeError):
    """A failure reported by the C API; `status` is its mixer_status_t."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class MixerArgumentError(MixerError, ValueError):
    """Arguments that do not match the compiled signature."""


class MixerDeviceError(MixerError):
    """A module compiled for target="cuda" cannot run: no NVIDIA driver or
    GPU here (status ERROR_NO_DEVICE), or a CUDA call failed (ERROR_DEVICE)."""


class MixerNotDifferentiableError(MixerError, NotImplementedError):
    """A function asked for its vector-Jacobian product holds an op that
    mixer-generate-vjp cannot differentiate (yet); the message names it."""


def error_for(status, message):
    if status == ERROR_COMPILE and "cannot differentiate" in message:
        return MixerNotDifferentiableError(status, message)
    if status in (ERROR_ARGUMENTS, ERROR_INVALID_ARGUMENT):
        return MixerArgumentError(status, message)
    if status in (ERROR_NO_DEVICE, ERROR_DEVICE):
        return MixerDeviceError(status, message)
    return MixerError(status, message)


class ArgumentInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("elementType", ctypes.c_int),
        ("isTensor", ctypes.c_int),
        ("isOutput", ctypes.c_int),
        ("rank", ctypes.c_int),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
    ]


def library_path():
    """MIXER_LIBRARY, else build/lib/libMixerCAPI.so of this repository."""
    path = os.environ.get("MIXER_LIBRARY")
    if path:
        return path
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    return os.path.join(root, "build", "lib", "libMixerCAPI.so")


def _load():
    path = library_path()
    if not os.path.exists(path):
        raise ImportError(
            f"mixer: the C API library {path} does not exist; build it "
            "(ninja -C build MixerCAPI) or set MIXER_LIBRARY to its path")
    lib = ctypes.CDLL(path)
    p, c_int, c_char_p = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
    signatures = {
        "mixerContextCreate": ([], p),
        "mixerContextDestroy": ([p], None),
        "mixerGetLastError": ([p], c_char_p),
        "mixerModuleCompile": ([p, c_char_p, c_char_p, ctypes.POINTER(p)], c_int),
        "mixerModuleCall": ([p, c_char_p, ctypes.POINTER(p), c_int], c_int),
        "mixerModuleDestroy": ([p], None),
        "mixerModuleGetNumFunctions": ([p], c_int),
        "mixerModuleGetFunctionName": ([p, c_int], c_char_p),
        "mixerModuleGetFunction": (
            [p, c_char_p, ctypes.POINTER(c_int), ctypes.POINTER(c_int)], c_int),
        "mixerModuleGetArgument": (
            [p, c_char_p, c_int, ctypes.POINTER(ArgumentInfo)], c_int),
    }
    for name, (argtypes, restype) in signatures.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = restype
    return lib


lib = _load()
