#!/usr/bin/env python3
"""Reads x86 assembly (llc's, with its loop comments) and reports, for each
contraction's register-tile loop, how many of its instructions spill or
reload a vector register: llc marks those with "-byte Spill" / "-byte
Reload" comments, and any other vector load or store through the stack
pointer counts too. A register-tile loop is an innermost loop with at least
--min-fmas vector FMAs that broadcasts f32 operands from memory (the outer
products) and rounds nothing (the polynomial exps round to an integer).

Prints one line per such loop, with the software prefetches it issues
into L2 and into L1 (prefetcht1 and prefetcht0: mixer-prefetch-rows), and
a total; exits 1 if there is no such loop (the check would otherwise pass
vacuously)."""

import re
import sys

LABEL = re.compile(r"^(\.LBB\d+_\d+|# %bb\.\d+):")
LOOP = re.compile(r"# in Loop: Header=(BB\d+_\d+) Depth=(\d+)")
FMA = re.compile(r"^\s*vfn?madd\w*\s.*%[xyz]mm")
VECTOR = re.compile(r"%[xyz]mm\d+")
SPILL = re.compile(r"-byte (Folded )?(Spill|Reload)")
STACK = re.compile(r"\(%rsp\)")
# An f32 broadcast from data memory (not a constant: those are %rip-based).
BROADCAST = re.compile(
    r"^\s*(vbroadcastss\s+[-\w]*\(%r(?!ip)|v\w+\s+[-\w]*\(%r(?!ip)[^)]*\)\{1to)")
ROUND = re.compile(r"^\s*v(rndscale|round)p")
PREFETCH = re.compile(r"^\s*prefetcht1\s")
PREFETCH_L1 = re.compile(r"^\s*prefetcht0\s")
HEADER = re.compile(r"Loop Header: Depth=(\d+)")


def main():
    min_fmas = 4
    args = sys.argv[1:]
    if args[:1] == ["--min-fmas"]:
        min_fmas = int(args[1])
    loops = {}  # header -> {"depth", "fmas", "spills"}
    current = None
    function = ""
    in_header = False  # between a block's label and its first instruction
    label_name = ""
    for line in sys.stdin:
        if re.match(r"^[A-Za-z_][\w.]*:", line) and not line.startswith(".L"):
            function = line.split(":")[0]
        label = LABEL.match(line)
        if label:
            current, in_header = None, True
            label_name = label.group(1).lstrip(".")
            line = line[label.end():]
        if in_header and line.strip().startswith("#") or label:
            # The loop of the block: "in Loop: Header=BB0_5 Depth=3", or
            # the block is a header itself ("Loop Header: Depth=3").
            loop = LOOP.search(line)
            own = HEADER.search(line)
            if loop or own:
                key = (function, loop.group(1) if loop else label_name)
                depth = int((loop or own).group(2 if loop else 1))
                current = loops.setdefault(
                    key, {"depth": depth, "fmas": 0, "spills": 0,
                          "broadcasts": 0, "rounds": 0, "prefetches": 0,
                          "l1_prefetches": 0,
                          "lines": []})
            continue
        in_header = False
        if current is None:
            continue
        current["lines"].append(line.rstrip())
        if FMA.match(line):
            current["fmas"] += 1
        if BROADCAST.match(line):
            current["broadcasts"] += 1
        if ROUND.match(line):
            current["rounds"] += 1
        if PREFETCH.match(line):
            current["prefetches"] += 1
        if PREFETCH_L1.match(line):
            current["l1_prefetches"] += 1
        if VECTOR.search(line) and (SPILL.search(line) or STACK.search(line)):
            current["spills"] += 1
    tiles = [(k, v) for k, v in loops.items()
             if v["fmas"] >= min_fmas and v["broadcasts"] and not v["rounds"]]
    total = 0
    for (function, header), v in sorted(tiles):
        print(f"{function} loop {header} depth {v['depth']}: "
              f"{v['fmas']} FMAs, {v['spills']} vector spills or reloads, "
              f"{v['prefetches']} L2 prefetches, "
              f"{v['l1_prefetches']} L1 prefetches")
        total += v["spills"]
        if "--dump" in args:
            print("\n".join(v["lines"]))
    print(f"register-tile loops: {len(tiles)}, vector spills or reloads in "
          f"them: {total}")
    return 0 if tiles else 1


if __name__ == "__main__":
    sys.exit(main())
