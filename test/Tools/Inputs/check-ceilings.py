"""Checks a mixer-bench JSON file's ceilings: each is the highest of the
calibrations before the cases, between their rounds and after them, and
every row's fraction of the FMA
peak or of the triad is its rate over that kept ceiling. Prints one line per
finding; a mismatch prints MISMATCH and exits 1."""
import json
import sys

data = json.load(open(sys.argv[1]))
machine = data["machine"]
before, after = machine["calibration_before"], machine["calibration_after"]
between = machine.get("calibration_between_rounds", [])
print(f"calibrations between rounds: {len(between)}")
failed = False
for key in ("fma_peak_gflops", "triad_gbps", "exp_gps"):
    measured = [before[key]] + [c[key] for c in between] + [after[key]]
    ok = machine[key] == max(measured)
    failed |= not ok
    print(f"{key}: {'kept the highest' if ok else 'MISMATCH'} "
          f"(measured {', '.join(f'{v:.3g}' for v in measured)}, kept {machine[key]:.3g})")
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
