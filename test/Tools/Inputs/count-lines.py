"""Reads stdin and says whether it has at most argv[1] lines."""
import sys

bound = int(sys.argv[1])
lines = sys.stdin.read().splitlines()
print(f"{len(lines)} lines:", "lines within bound" if len(lines) <= bound
      else f"more than {bound} lines")
