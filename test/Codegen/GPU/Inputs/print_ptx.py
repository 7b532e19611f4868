"""Prints the PTX held by the gpu.binary ops of an MLIR file (format=isa).

Usage: print_ptx.py FILE [--count INSTRUCTION]. The PTX is the string of
each #gpu.object (its `assembly` property, or its bare string); MLIR prints
the string's non-printable bytes as two hex digits after a backslash. With
--count, prints one line per kernel entry instead: its name and how many
times INSTRUCTION occurs in it.
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
ptx = "".join(unescape(o) for o in objects)
if len(sys.argv) > 3 and sys.argv[2] == "--count":
    entries = re.split(r"^\.visible \.entry ", ptx, flags=re.M)[1:]
    for entry in entries:
        name = entry.split("(", 1)[0]
        print("%s %s=%d" % (name, sys.argv[3], entry.count(sys.argv[3])))
else:
    sys.stdout.write(ptx)
