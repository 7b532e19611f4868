# -*- Python -*-
# lit configuration of the mixer regression tests.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "MIXER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".py", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mixer_obj_root, "test")
config.excludes = [
    "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "lit.site.cfg.py.in",
    "lit.local.cfg", "Inputs",
]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.mixer_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["mixer-opt", "mixer-compile"], [config.mixer_tools_dir])

config.substitutions.append(("%mixer_src_root", config.mixer_src_root))
config.substitutions.append(("%mixer_obj_root", config.mixer_obj_root))

# A sanitized build (-DMIXER_SANITIZE=address,undefined): the tools carry the
# ASan runtime, but the Python interpreter and the C programs the tests
# compile load the instrumented libMixerCAPI.so and need it too.
python_command = config.python_executable
clang_command = os.path.join(config.llvm_tools_dir, "clang")
if "address" in config.mixer_sanitize:
    asan_runtime = subprocess.check_output(
        [clang_command, "-print-file-name=libclang_rt.asan-x86_64.so"],
        text=True).strip()
    suppressions = os.path.join(config.mixer_src_root, "test", "lsan.supp")
    # allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs in
    # the copies inlined into mixer's instrumented code, while the copies in
    # the uninstrumented libMLIR hand out memory from them without
    # unpoisoning it; every later read of a uniqued attribute would then be
    # reported as use-after-poison.
    asan_options = "allow_user_poisoning=0:detect_odr_violation=2"
    config.environment["ASAN_OPTIONS"] = asan_options
    config.environment["LSAN_OPTIONS"] = "suppressions=%s:print_suppressions=0" % suppressions
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    # CPython frees nothing at exit by design, so leak checking of the
    # interpreter would report only its own allocations: leaks of the C API
    # are covered by the C program test (Integration/CPU/capi.c).
    python_command = "env LD_PRELOAD=%s ASAN_OPTIONS=%s:detect_leaks=0 %s" % (
        asan_runtime, asan_options, config.python_executable)
    clang_command += " -fsanitize=address,undefined"
    config.available_features.add("asan")
# Replaces lit's own %python (the interpreter running lit, quoted).
config.substitutions = [s for s in config.substitutions if s[0] != "%python"]
config.substitutions.append(("%python", python_command))
config.substitutions.append(("%unit_bin", os.path.join(config.mixer_obj_root, "bin")))
# The C compiler of the integration tests: clang links the LLVM OpenMP
# runtime that compiled objects call.
config.substitutions.append(("%clang", clang_command))
# Programs linked with the C API library of a -DMIXER_SANITIZE build must be
# built with the same sanitizer (its runtime lives in the executable).
config.substitutions.append(
    ("%sanitize_flags",
     f"-fsanitize={config.mixer_sanitize}" if config.mixer_sanitize else ""))
# The Python package and the C API library it loads.
config.substitutions.append(("%mixer_python_dir", os.path.join(config.mixer_src_root, "python")))
config.substitutions.append(
    ("%mixer_capi_lib", os.path.join(config.mixer_obj_root, "lib", "libMixerCAPI.so")))
config.substitutions.append(("%mixer_include_dir", os.path.join(config.mixer_src_root, "include")))
config.substitutions.append(("%mixer_lib_dir", os.path.join(config.mixer_obj_root, "lib")))

# ptxas assembles the PTX of the GPU pipeline in the tests (no GPU needed).
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# A CUDA device is needed to run the GPU integration tests.
def has_cuda_device():
    if not shutil.which("nvidia-smi"):
        return False
    try:
        listing = subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                                 text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return listing.returncode == 0 and "GPU" in listing.stdout

if has_cuda_device():
    config.available_features.add("cuda-device")

# The CUDA runtime library and the C programs linking it need libcuda.so.1.
# Where no driver is installed, the toolkit's stub stands in: every driver
# call then fails with "stub library", which the tests of the failure paths
# expect. %cuda_env runs a command so.
cuda_env = "env"
if config.mixer_enable_cuda:
    config.available_features.add("cuda-runtime")
    import ctypes
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        stub_dir = os.path.join(config.mixer_obj_root, "test", "cuda-stub")
        os.makedirs(stub_dir, exist_ok=True)
        stub_link = os.path.join(stub_dir, "libcuda.so.1")
        # Replaced atomically: several lit runs may configure at once.
        temporary = "%s.%d" % (stub_link, os.getpid())
        os.symlink(config.mixer_cuda_driver_library, temporary)
        os.replace(temporary, stub_link)
        cuda_env = "env LD_LIBRARY_PATH=%s" % stub_dir
config.substitutions.append(("%cuda_env", cuda_env))
# gpu-module-to-binary finds libdevice (the __nv_* math functions) and ptxas
# through CUDA_HOME; lit passes no environment through by default.
if config.mixer_cuda_root:
    config.environment["CUDA_HOME"] = config.mixer_cuda_root
config.substitutions.append(
    ("%cuda_include_dir", os.path.join(config.mixer_cuda_root, "include")))
config.substitutions.append(
    ("%cuda_driver_lib_dir", os.path.dirname(config.mixer_cuda_driver_library)))

# mlir-runner and its runtime libraries, for the tests under Integration/ that
# run compiled code.
config.substitutions.append(
    ("%mlir_runner", os.path.join(config.llvm_tools_dir, "mlir-runner")))
config.substitutions.append(
    ("%mlir_lib_dir",
     os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))

# The bench venv (scripts/setup.sh --bench) of mixer-bench's comparisons
# with other libraries. CI has none: its tests are then unsupported, never
# passed, and the run says why.
bench_python = os.path.join(config.mixer_src_root, ".venv-bench", "bin", "python")
if os.access(bench_python, os.X_OK):
    config.available_features.add("bench-venv")
    config.substitutions.append(("%bench_python", bench_python))
else:
    lit_config.note("skipped: no bench venv (scripts/setup.sh --bench)")
