# Runs the commands of README.md and docs/*.md as a reader would, from the
# repository root after the build, so that none goes stale: every ```sh
# block line by line with bash, and every ```python / ```pycon block of a
# document in one Python process, in order (later blocks use what earlier
# ones defined). The repository is copied to a temporary directory first
# (`build` there is a link to the build tree), so commands that write
# files (kernels.o, bench/results/...) leave the checkout alone.
#
# Indented code blocks that look like commands, and fenced blocks that do
# not say their language, are errors: they would escape this test.
#
# The exceptions, each printed with its reason, are the entries of
# NOT_RUN below: what installs packages, runs the whole test or benchmark
# suite, or needs the CUDA toolkit where it is missing. Those are still
# checked to parse (bash -n for scripts, --help after the flags for
# mixer-bench).
#
# UNSUPPORTED: asan
# RUN: %python %s %mixer_src_root %mixer_obj_root %mixer_capi_lib | FileCheck %s
# CHECK: README.md: {{[1-9][0-9]*}} run, {{[0-9]+}} parse-checked, {{[0-9]+}} skipped, 0 failed
# CHECK: docs/Benchmarks.md: {{[0-9]+}} run, {{[0-9]+}} parse-checked, {{[0-9]+}} skipped, 0 failed
# CHECK: docs/Fuzzing.md: 0 run, 3 parse-checked, 0 skipped, 0 failed
# CHECK: docs/GPU.md: {{[0-9]+}} run, 2 parse-checked, {{[0-9]+}} skipped, 0 failed
# CHECK: docs/Python.md: {{[1-9][0-9]*}} run, 0 parse-checked, 0 skipped, 0 failed
# CHECK: docs/Runtime.md: {{[1-9][0-9]*}} run, 0 parse-checked, 0 skipped, 0 failed
# CHECK: failed: 0

import os
import re
import shutil
import subprocess
import sys
import tempfile

source_root, build_root, capi_library = sys.argv[1:4]

# Command prefix -> (why it is not run as written, how it is checked).
NOT_RUN = {
    "scripts/test.sh": ("installs Debian packages, builds and runs check-mixer, "
                        "of which this test is part", "bash -n"),
    "scripts/bench.sh": ("installs the bench packages and runs the CPU suite "
                         "(minutes to an hour)", "bash -n"),
    "scripts/fuzz.sh": ("builds ./build-fuzz and fuzzes for 900 s", "bash -n"),
    "build/bin/mixer-bench": ("a suite runs for minutes to an hour",
                              "--help after its flags"),
    "scripts/gpu-check.sh": ("needs an NVIDIA GPU", "bash -n"),
    "mkdir -p /tmp/mixer-gpu": ("unpacks the archive of scripts/gpu-bundle.sh, "
                                "which takes minutes to make",
                                "bash -n scripts/gpu-bundle.sh"),
    ".venv-bench/bin/python bench/decode.py": (
        "needs the bench venv (scripts/setup.sh --bench) and runs for minutes",
        "/usr/bin/python3 -m py_compile bench/decode.py"),
}
# Commands that need the CUDA toolkit (ptxas, the driver's stub library).
NEEDS_CUDA_TOOLKIT = re.compile(r"--target=cuda|-lcuda")
HAS_CUDA_TOOLKIT = os.path.exists("/usr/local/cuda/bin/ptxas") or shutil.which("ptxas")

COMMAND_LIKE = re.compile(
    r"^ {4}(build/bin/|scripts/|mixer-(opt|compile|bench)\b|cc |cmake |ninja |"
    r"PYTHONPATH=|/usr/bin/python3|>>> |import mixer|.*\bmixer\.\w+\()")


def documents():
    yield "README.md"
    for name in sorted(os.listdir(os.path.join(source_root, "docs"))):
        if name.endswith(".md"):
            yield f"docs/{name}"


def blocks(path):
    """(language, first line number, lines) of each fenced block; errors
    for indented command-like lines and fences without a language."""
    errors, found = [], []
    lines = open(os.path.join(source_root, path)).read().splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```(\S*)", lines[i])
        if fence:
            indent, language = len(fence.group(1)), fence.group(2)
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body.append(lines[i][indent:])
                i += 1
            if not language:
                errors.append(f"{path}:{start}: a fenced block without a language "
                              "(sh, python, pycon, text, c, mlir)")
            found.append((language, start + 1, body))
        elif COMMAND_LIKE.match(lines[i]):
            errors.append(f"{path}:{i + 1}: an indented command; put it in a "
                          f"```sh or ```python block: {lines[i].strip()}")
        i += 1
    return found, errors


def shell_commands(start, body):
    """(line number, command) per command, joining `\\` continuations."""
    command, first = "", None
    for offset, line in enumerate(body):
        if first is None:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            first = start + offset
        command += line.rstrip()
        if command.endswith("\\"):
            command = command[:-1] + " "
            continue
        yield first, command.strip()
        command, first = "", None


def copy_repository(destination):
    ignore = shutil.ignore_patterns(".git", "build*", "__pycache__")
    for name in os.listdir(source_root):
        if name == ".git" or name.startswith("build"):
            continue
        path = os.path.join(source_root, name)
        if os.path.isdir(path):
            shutil.copytree(path, os.path.join(destination, name), ignore=ignore,
                            symlinks=True)
        else:
            shutil.copy2(path, destination)
    os.symlink(build_root, os.path.join(destination, "build"))


def run(command, cwd, env):
    result = subprocess.run(["bash", "-c", command], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=600)
    return result.returncode, (result.stdout + result.stderr)[-3000:]


def check_shell(path, line, command, root, env, counts):
    where = f"{path}:{line}"
    for prefix, (reason, how) in NOT_RUN.items():
        if command.startswith(prefix):
            if how == "bash -n":
                check = f"bash -n {prefix}"
            elif how == "--help after its flags":
                check = command.split("#")[0].strip() + " --help"
            else:
                check = how
            status, output = run(check, root, env)
            verdict = "PARSES" if status == 0 else "FAIL"
            print(f"{verdict} {where}: {command}\n  not run: {reason}; checked "
                  f"with {how}: {check}")
            counts["parse-checked" if status == 0 else "failed"] += 1
            if status:
                print(output)
            return
    if NEEDS_CUDA_TOOLKIT.search(command) and not HAS_CUDA_TOOLKIT:
        print(f"SKIP {where}: {command}\n  not run: needs the CUDA toolkit (ptxas)")
        counts["skipped"] += 1
        return
    status, output = run(command, root, env)
    print(f"{'RAN' if status == 0 else 'FAIL'} {where}: {command}")
    counts["run" if status == 0 else "failed"] += 1
    if status:
        print(output)


def python_program(path, python_blocks):
    """One script running the blocks in order, saying which one failed."""
    parts = ["import sys, traceback\n_scope = {}\n"]
    for line, code in python_blocks:
        parts.append(f"try:\n    exec(compile({code!r}, '{path}:{line}', 'exec'), _scope)\n"
                     f"except Exception:\n    print('FAIL {path}:{line}')\n"
                     f"    traceback.print_exc(limit=-3, file=sys.stdout)\n"
                     f"    sys.exit(1)\nprint('RAN {path}:{line}: python block')\n")
    return "".join(parts)


def pycon_code(body):
    """The code of an interactive session: the lines after >>> and ...;
    the line that starts the interpreter is the reader's, not code."""
    return "\n".join(line[4:] for line in body
                     if line.startswith(">>> ") or line.startswith("... "))


def main():
    root = tempfile.mkdtemp(prefix="mixer-doc-commands-")
    copy_repository(root)
    env = dict(os.environ)
    env["MIXER_LIBRARY"] = capi_library
    env.pop("PYTHONPATH", None)
    total_failed, all_errors = 0, []
    for path in documents():
        found, errors = blocks(path)
        all_errors += errors
        counts = {"run": 0, "parse-checked": 0, "skipped": 0, "failed": 0}
        python_blocks = []
        for language, line, body in found:
            if language == "sh":
                for number, command in shell_commands(line, body):
                    check_shell(path, number, command, root, env, counts)
            elif language == "python":
                python_blocks.append((line, "\n".join(body)))
            elif language == "pycon":
                python_blocks.append((line, pycon_code(body)))
        if python_blocks:
            script = os.path.join(root, "doc_snippets.py")
            with open(script, "w") as f:
                f.write(python_program(path, python_blocks))
            status, output = run(f"/usr/bin/python3 {script}", root, env)
            print(output.rstrip())
            ran = output.count("RAN ")
            counts["run"] += ran
            counts["failed"] += int(status != 0)
        print(f"{path}: {counts['run']} run, {counts['parse-checked']} parse-checked, "
              f"{counts['skipped']} skipped, {counts['failed']} failed")
        total_failed += counts["failed"]
    for error in all_errors:
        print(f"ERROR {error}")
    print(f"failed: {total_failed + len(all_errors)}")
    shutil.rmtree(root, ignore_errors=True)


main()
