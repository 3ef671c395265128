"""Run every proof p_rNN.py in a fresh interpreter and collect RESULT lines into results.json."""
import glob
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
results = {}
failed = []
for p in sorted(glob.glob(os.path.join(HERE, "p_r*.py"))):
    r = subprocess.run([sys.executable, p], cwd=HERE, capture_output=True, text=True)
    recs = [json.loads(l[len("RESULT "):]) for l in r.stdout.splitlines() if l.startswith("RESULT ")]
    if r.returncode != 0 or not recs:
        failed.append(os.path.basename(p))
        print("FAIL", p, r.stderr[-800:])
        continue
    main = recs[0]
    for extra in recs[1:]:
        main.setdefault("extra", []).append(extra)
    results[main["name"]] = main
    print("ok  ", main["name"], main["verdict"])
json.dump(results, open(os.path.join(HERE, "results.json"), "w"), indent=1, default=float)
shutil.rmtree(os.path.join(HERE, "_fixed"), ignore_errors=True)
print(len(results), "proved;", len(failed), "failed", failed)
