import datetime, glob, json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import labels
from common import ROOT, RESULTS, resolve


def find_line(fname, needle):
    lines = open(os.path.join(ROOT, fname)).read().splitlines()
    hits = [i + 1 for i, l in enumerate(lines) if needle in l]
    assert len(hits) == 1, (fname, needle, hits)
    return hits[0]


files = {}
for name, lab in labels.B.items():
    fname = resolve(name)
    res = json.load(open(os.path.join(RESULTS, name + ".json")))
    assert res["ok"], name
    entry = {
        "expected": lab["expected"],
        "line": find_line(fname, lab["line"]) if lab["line"] else None,
        "also_lines": [find_line(fname, s) for s in lab["also"]],
        "also_ok_codes": lab["also_ok_codes"],
        "consequence_codes": lab["consequence_codes"],
        "harm": lab["harm"],
        "why": lab["why"],
        "proof": lab["proof"].format(**res) + f" (proofs/p_{name}.py)",
    }
    files[fname] = entry

files = dict(sorted(files.items()))
man = {"set": "blind8", "written": datetime.date.today().isoformat(), "files": files}
json.dump(man, open(os.path.join(ROOT, "manifest.json"), "w"), indent=1)
print(len(files), "files;", sum(1 for v in files.values() if v["expected"]), "buggy")
