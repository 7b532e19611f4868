#!/usr/bin/env python3
"""Assembles the PTX of every gpu.binary in an MLIR file with ptxas.

Usage: ptx-report.py FILE.mlir --arch sm_80 [--ptxas PATH] [--allow-spills]

FILE.mlir is the output of mixer-lower-to-nvvm-pipeline with format=isa:
one gpu.binary per kernel, holding its PTX. Each kernel is assembled with
`ptxas -arch=ARCH -O3 -v`; one line per kernel gives its registers, stack
frame, spill stores and loads and static shared memory. Exits non-zero when
ptxas rejects a kernel, when there is no kernel, or (without
--allow-spills) when a kernel spills.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

BINARY = re.compile(r"gpu\.binary @([\w$.]+)[^\[]*\[(.*?)\]\s*$", re.M)
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"', re.S)
USED = re.compile(r"Used (\d+) registers")
FRAME = re.compile(
    r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
SMEM = re.compile(r"(\d+) bytes smem")


def unescape(text):
    """MLIR prints '"', '\\' and non-printable bytes as \\XX (hex)."""
    raw = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text)
    return raw.rstrip("\x00")


def kernels(mlir_text):
    """(name, ptx) of every gpu.binary: its longest string is the PTX."""
    for match in BINARY.finditer(mlir_text):
        strings = STRING.findall(match.group(2))
        if strings:
            yield match.group(1), unescape(max(strings, key=len))


def assemble(ptxas, arch, name, ptx):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name + ".ptx")
        with open(path, "w") as f:
            f.write(ptx)
        run = subprocess.run(
            [ptxas, "-arch=" + arch, "-O3", "-v", path, "-o", os.devnull],
            capture_output=True, text=True)
    return run.returncode, run.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mlir")
    parser.add_argument("--arch", required=True)
    parser.add_argument("--ptxas", default="ptxas")
    parser.add_argument("--allow-spills", action="store_true")
    args = parser.parse_args()
    with open(args.mlir) as f:
        found = list(kernels(f.read()))
    if not found:
        print("error: no gpu.binary with PTX in " + args.mlir)
        return 1
    failed = False
    print("%-40s %6s %6s %6s %6s %6s" %
          ("kernel (" + args.arch + ")", "regs", "stack", "st-sp", "ld-sp", "smem"))
    for name, ptx in found:
        if ".target " + args.arch not in ptx:
            print("error: %s: PTX is not for %s" % (name, args.arch))
            failed = True
            continue
        code, log = assemble(args.ptxas, args.arch, name, ptx)
        if code != 0:
            print("error: ptxas rejects %s:\n%s" % (name, log))
            failed = True
            continue
        regs = USED.search(log)
        frame = FRAME.search(log)
        smem = SMEM.search(log)
        if not regs or not frame:
            print("error: no register or spill counts for %s:\n%s" % (name, log))
            failed = True
            continue
        stack, stores, loads = (int(x) for x in frame.groups())
        print("%-40s %6s %6d %6d %6d %6s" %
              (name, regs.group(1), stack, stores, loads,
               smem.group(1) if smem else "0"))
        if (stores or loads) and not args.allow_spills:
            print("error: %s spills (%d bytes stored, %d loaded)" %
                  (name, stores, loads))
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
