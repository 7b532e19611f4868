#!/usr/bin/env python3
"""Writes the seed corpus of mixer-fuzz-parse-verify: every lit test file
under test/ (*.mlir) split at `// -----` into one file per part, named by
the hash of its content so that reruns add nothing twice."""

import hashlib
import pathlib
import re
import sys

SEPARATOR = re.compile(r"^// -----\s*$", re.MULTILINE)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: fuzz-corpus.py TEST_DIR OUTPUT_DIR")
    tests, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    output.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(tests.rglob("*.mlir")):
        for part in SEPARATOR.split(path.read_text()):
            if not part.strip():
                continue
            data = part.encode()
            name = hashlib.sha1(data).hexdigest()
            (output / name).write_bytes(data)
            count += 1
    print(f"fuzz-corpus: {count} seeds in {output}")


if __name__ == "__main__":
    main()
