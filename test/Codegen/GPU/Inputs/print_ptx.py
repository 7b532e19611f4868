"""Prints the PTX held by the gpu.binary ops of an MLIR file (format=isa).

Usage: print_ptx.py FILE. The PTX is the string of each #gpu.object (its
`assembly` property, or its bare string); MLIR prints the string's
non-printable bytes as two hex digits after a backslash.
"""
import re
import sys


def unescape(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            nxt = text[i + 1]
            if nxt in "\\\"":
                out.append(nxt)
                i += 2
            else:
                out.append(chr(int(text[i + 1:i + 3], 16)))
                i += 3
        else:
            out.append(text[i])
            i += 1
    return "".join(out).rstrip("\x00")


source = open(sys.argv[1]).read()
objects = re.findall(
    r'#gpu\.object<#nvvm\.target<[^>]*>(?:, properties = \{[^}]*\})?,'
    r' (?:assembly = )?"((?:[^"\\]|\\.)*)"', source)
if not objects:
    sys.exit("print_ptx.py: no #gpu.object with PTX in " + sys.argv[1])
for ptx in objects:
    sys.stdout.write(unescape(ptx))
