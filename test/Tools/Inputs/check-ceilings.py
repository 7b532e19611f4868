"""Checks a mixer-bench JSON file's ceilings: each is the higher of the
calibrations before and after the cases, and every row's fraction of the FMA
peak or of the triad is its rate over that kept ceiling. Prints one line per
finding; a mismatch prints MISMATCH and exits 1."""
import json
import sys

data = json.load(open(sys.argv[1]))
machine = data["machine"]
before, after = machine["calibration_before"], machine["calibration_after"]
failed = False
for key in ("fma_peak_gflops", "triad_gbps", "exp_gps"):
    kept = max(before[key], after[key])
    ok = machine[key] == kept
    failed |= not ok
    print(f"{key}: {'kept the higher' if ok else 'MISMATCH'} "
          f"(before {before[key]:.3g}, after {after[key]:.3g}, kept {machine[key]:.3g})")
rows = 0
for row in data["rows"]:
    peak = row.get("peak")
    if peak not in ("fma", "triad"):
        continue
    rate = row["gflops"] if peak == "fma" else row["gbps"]
    ceiling = machine["fma_peak_gflops" if peak == "fma" else "triad_gbps"]
    if abs(row["peak_fraction"] * ceiling - rate) > 1e-9 * rate:
        print(f"MISMATCH: {row['case']} {row['impl']}: fraction "
              f"{row['peak_fraction']} of {ceiling} for {rate}")
        failed = True
    rows += 1
print(f"rows of a kept ceiling: {rows}")
sys.exit(1 if failed else 0)
