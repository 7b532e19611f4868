"""Checks the A/B fields of a mixer-bench JSON file written with --ab
OPTIONS (argv[2]): every mixer and mixer-fwd+bwd row was also built with
OPTIONS and carries that build's median, error (of its result, or of its
gradients on a fwd+bwd row) and the median ratio of the paired calls; the
naive rows carry none. Prints one line per row; a mismatch
prints MISMATCH and exits 1."""
import json
import math
import sys

data = json.load(open(sys.argv[1]))
options = sys.argv[2]
failed = data["config"]["ab_options"] != options
print(f"config ab_options: {data['config']['ab_options']}")
for row in data["rows"]:
    name = f"{row['case']} {row['impl']}"
    if row["impl"] not in ("mixer", "mixer-fwd+bwd"):
        ok = "ab_ratio" not in row
        print(f"{name}: {'single build' if ok else 'MISMATCH: ' + str(row)}")
    else:
        ratio, median, error = (row.get("ab_ratio"), row.get("ab_median_ms"),
                                row.get("ab_rel_error"))
        ok = (row.get("ab_options") == options and row["status"] == "ok"
              and ratio is not None and math.isfinite(ratio) and ratio > 0
              and median is not None and median > 0
              and error is not None and error < 1e-4)
        print(f"{name}: {'two builds, B error below 1e-4' if ok else 'MISMATCH: ' + str(row)}")
    failed |= not ok
sys.exit(1 if failed else 0)
