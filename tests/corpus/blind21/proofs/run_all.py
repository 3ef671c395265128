"""Run every proof, write results.json and labels.json (both in proofs/)."""
import glob
import importlib.util
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lib  # noqa

only = sys.argv[1:]
results, labels = {}, {}
if os.path.exists(os.path.join(HERE, "results.json")) and only:
    results = json.load(open(os.path.join(HERE, "results.json")))
bad = []
for p in sorted(glob.glob(os.path.join(HERE, "p_g*.py"))):
    key = os.path.basename(p)[2:-3]
    if only and not any(key.startswith(o) for o in only):
        continue
    t0 = time.time()
    spec = importlib.util.spec_from_file_location("proof_" + key, p)
    m = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(m)
        r = m.result()
    except Exception:
        traceback.print_exc()
        r = {"ok": False, "verdict": "?", "failures": ["proof raised"], "label": {}}
    r["seconds"] = round(time.time() - t0, 2)
    results[m.NAME if hasattr(m, "NAME") else key] = r
    if not r.get("ok"):
        bad.append(key)
    nums = {k: v for k, v in r.items() if k.endswith("_diff")}
    print(f"{key:34s} {r.get('verdict','?'):7s} ok={r.get('ok')} {r.get('failures','')} {nums}", flush=True)

# labels
for name, r in sorted(results.items()):
    lab = dict(r.get("label", {}))
    src = lib.source(name)
    sub = lab.get("line_sub", "")
    if src.count(sub) != 1:
        bad.append(name + " (line_sub count %d)" % src.count(sub))
    for s in lab.get("also_subs", []):
        if src.count(s) != 1:
            bad.append(name + " (also_sub count %d: %r)" % (src.count(s), s))
    nums = {k: v for k, v in r.items() if k.endswith("_diff") or k in ("finite", "fixed_finite")}
    labels[name + ".py"] = {
        "verdict": r["verdict"],
        "expected": lab.get("expected", []),
        "line_sub": sub,
        "also_subs": lab.get("also_subs", []),
        "also_ok_codes": lab.get("also_ok_codes", []),
        "consequence_codes": lab.get("consequence_codes", []),
        "harm": r.get("harm"),
        "why": lab.get("why", ""),
        "proof": f"proofs/p_{name}.py: " + ", ".join(f"{k}={v}" for k, v in nums.items()),
    }
out = results
json.dump(out, open(os.path.join(HERE, "results.json"), "w"), indent=1)
json.dump(labels, open(os.path.join(HERE, "labels.json"), "w"), indent=1)
nb = sum(1 for v in out.values() if v.get("verdict") == "buggy")
print(f"{len(out)} files, {nb} buggy, {len(out)-nb} correct; problems: {bad}")
sys.exit(1 if bad else 0)
