"""Write ../manifest.json (set blind21) from labels.json (the writer's labels) and results.json (run_all.py's proofs).

Lines are found from each label's substring, so the manifest follows the files as written.
"""

import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
labels = json.load(open(os.path.join(HERE, "labels.json")))
results = json.load(open(os.path.join(HERE, "results.json")))


def line_of(source: str, sub: str) -> int:
    assert source.count(sub) == 1, ("not exactly once", sub)
    return source[:source.index(sub)].count("\n") + 1


files = {}
for name, label in sorted(labels.items()):
    source = open(os.path.join(ROOT, name)).read()
    result = results[name[:-3]]
    assert result["verdict"] == label["verdict"], name
    buggy = label["verdict"] == "buggy"
    entry = dict(expected=label["expected"], line=line_of(source, label["line_sub"]) if buggy else None,
                 also_lines=[line_of(source, sub) for sub in label["also_subs"]] if buggy else [],
                 also_ok_codes=label["also_ok_codes"], consequence_codes=label["consequence_codes"],
                 harm=label["harm"], why=label["why"] if buggy else "correct: " + label["why"], proof=label["proof"])
    if buggy:
        entry["fix"] = [{"old": old, "new": new} for old, new in result["fix"]]
    files[name] = entry
date = subprocess.run(["date", "-I"], capture_output=True, text=True).stdout.strip()
manifest = {"files": files, "set": "blind21", "written": date}
with open(os.path.join(ROOT, "manifest.json"), "w") as handle:
    json.dump(manifest, handle, indent=1, sort_keys=True)
    handle.write("\n")
print(len(files), "files")
