"""Checks the rounds of a mixer-bench JSON file written with --rounds N
(argv[2]): every timed row but the naive ones has N round medians and is
its median round; naive rows ran once. Prints one line per finding; a
mismatch prints MISMATCH and exits 1."""
import json
import sys

data = json.load(open(sys.argv[1]))
rounds = int(sys.argv[2])
failed = data["config"]["rounds"] != rounds
print(f"config rounds: {data['config']['rounds']}")
for row in data["rows"]:
    medians = row.get("round_medians_ms")
    name = f"{row['case']} {row['impl']}"
    if row["impl"] == "mixer-naive":
        ok = medians is None
        print(f"{name}: {'one round' if ok else 'MISMATCH: rounds ' + str(medians)}")
    else:
        ok = (medians is not None and len(medians) == rounds
              and row["median_ms"] == sorted(medians)[rounds // 2])
        print(f"{name}: {'median of ' + str(len(medians)) + ' rounds' if ok else 'MISMATCH: ' + str(medians) + ' ' + str(row['median_ms'])}")
    failed |= not ok
sys.exit(1 if failed else 0)
