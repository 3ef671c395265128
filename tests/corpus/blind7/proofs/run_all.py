"""Run every proof p01..p50 (each rebuilds models with build()) and summarise results/*.json."""
import glob
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
py = sys.executable
fails = []
for p in sorted(glob.glob(os.path.join(here, "p[0-9][0-9].py"))):
    r = subprocess.run([py, "-W", "ignore", p], cwd=here, capture_output=True, text=True)
    last = [l for l in r.stdout.splitlines() if l.startswith("==")]
    print(os.path.basename(p), last[-1] if last else "(no result)", "" if r.returncode == 0 else "FAILED")
    if r.returncode != 0:
        fails.append(p)
        print(r.stdout[-2000:], r.stderr[-2000:])
summary = {}
for f in sorted(glob.glob(os.path.join(here, "results", "*.json"))):
    d = json.load(open(f))
    summary[d["file"]] = d
json.dump(summary, open(os.path.join(here, "results_summary.json"), "w"), indent=1)
print("files:", len(summary), "failed proofs:", len(fails))
sys.exit(1 if fails else 0)
