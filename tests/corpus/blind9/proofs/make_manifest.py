import json
import os
import subprocess

from labels import B, C

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
res = json.load(open(os.path.join(HERE, "results.json")))
files = sorted(f for f in os.listdir(ROOT) if f.startswith("r") and f.endswith(".py"))
assert len(files) == len(res), (len(files), len(res))


def line_of(src, sub):
    i = src.index(sub)
    assert src.count(sub) == 1, ("ambiguous", sub)
    return src[:i].count("\n") + 1


def fmt(v):
    if isinstance(v, float):
        return "%.3g" % v
    if isinstance(v, list):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    return str(v)


def proof_text(name, r):
    skip = {"name", "verdict", "fix", "note", "harm", "extra"}
    parts = ["%s=%s" % (k, fmt(v)) for k, v in r.items() if k not in skip]
    for e in r.get("extra", []):
        parts += ["%s=%s" % (k, fmt(v)) for k, v in e.items() if k != "name"]
    s = "proofs/p_%s.py: " % name.split("_")[0] + "; ".join(parts)
    if r.get("note"):
        s += ". " + r["note"]
    return s


out = {}
for f in files:
    name = f[:-3]
    r = res[name]
    src = open(os.path.join(ROOT, f)).read()
    if name in B:
        b = B[name]
        assert r["verdict"] == "buggy", name
        assert (b["harm"] or "null") == (r.get("harm") or "null"), (name, b["harm"], r.get("harm"))
        fix_old = r["fix"][0][0]
        ln = line_of(src, b["line_sub"])
        assert b["line_sub"].strip().splitlines()[0] in fix_old or any(b["line_sub"] in fx[0] or fx[0] in src for fx in r["fix"]), name
        also = [line_of(src, s) for s in b["also_subs"]]
        out[f] = dict(expected=b["expected"], line=ln, also_lines=also, also_ok_codes=b["also_ok_codes"],
                      consequence_codes=b["consequence_codes"], harm=b["harm"], why=b["why"], proof=proof_text(name, r),
                      fix=[{"old": o, "new": n} for o, n in r["fix"]])
    else:
        assert name in C, name
        assert r["verdict"] == "correct", name
        out[f] = dict(expected=[], line=None, also_lines=[], also_ok_codes=[], consequence_codes=[], harm=None,
                      why="correct: " + C[name], proof=proof_text(name, r))
date = subprocess.run(["date", "-I"], capture_output=True, text=True).stdout.strip()
json.dump({"set": "blind9", "written": date, "files": out}, open(os.path.join(ROOT, "manifest.json"), "w"), indent=1)
nb = sum(1 for v in out.values() if v["expected"])
print(len(out), "files;", nb, "buggy;", len(out) - nb, "correct")
from collections import Counter
print(Counter(c for v in out.values() for c in v["expected"]))
