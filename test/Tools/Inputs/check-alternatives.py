"""Prints "op case impl library status" for every row of mixer-bench's JSON
that comes from a library of the bench venv, after checking that such a
row has a version, an error against the reference when it is ok, and a
reason when it is not."""

import json
import sys

rows = json.load(open(sys.argv[1]))["rows"]
bad = []
for r in rows:
    if not r.get("library"):
        continue
    print(r["op"], r["case"], r["impl"], r["library"], r["status"])
    if not r.get("version") or r["version"] == "not installed":
        bad.append(f"{r['impl']}: no version")
    if r["status"] == "ok" and not isinstance(r.get("rel_error"), (int, float)):
        bad.append(f"{r['impl']}: ok without a rel_error")
    if r["status"] != "ok" and not r.get("reason"):
        bad.append(f"{r['impl']}: {r['status']} without a reason")
if bad:
    sys.exit("\n".join(bad))
print("every alternative row has a version and a reason when not ok")
