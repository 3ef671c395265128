"""Run every proof script (each rebuilds models with build() before each compared run) and summarise."""
import glob, json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable


def one(p):
    r = subprocess.run([PY, os.path.basename(p)], cwd=HERE, capture_output=True, text=True, timeout=600)
    return p, r.returncode, r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-500:]


if __name__ == "__main__":
    scripts = sorted(glob.glob(os.path.join(HERE, "p_*.py")))
    with ThreadPoolExecutor(2) as ex:
        out = list(ex.map(one, scripts))
    bad = 0
    for p, rc, last in out:
        try:
            rec = json.loads(last)
            ok = rc == 0 and rec["ok"]
        except Exception:
            ok = False
        if not ok:
            bad += 1
            print("FAIL", os.path.basename(p), rc, last)
    print(f"{len(out) - bad}/{len(out)} proofs confirmed")
