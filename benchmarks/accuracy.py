"""How well attnscope generalizes: every labelled corpus entry checked, scored against its manifest.

    .venv/bin/python benchmarks/accuracy.py --jobs 2                 # every set in tests/corpus
    .venv/bin/python benchmarks/accuracy.py --sets blind6 --jobs 2   # one set
    .venv/bin/python benchmarks/accuracy.py --record-first-run blind7 # a new set's first run, before any fix

Each set is a folder `tests/corpus/<set>/` of model files (`build()` returns the target) and a
`manifest.json` that labels every file: the codes expected, the line, other lines that count,
codes also acceptable and codes that may follow as consequences, and how the label was proven.
The entries are checked through the cohort runner (`attnscope check --json --jobs N`), as a
teaching assistant would check a folder, and each gets an outcome:

- `found`: an error or warning with an expected (or also acceptable) code at the line (any line
  of its statement: a call written over several lines is one place), or with a note at it;
  `found-elsewhere`: the right code at another line; `missed`: none;
- `clean`: a correct file with no error and no warning; `false-alarm`: one with either;
- `failed`: the target could not be checked.

The manifest records each entry's expected `outcome` (known misses included), so the script
exits 1 when any outcome changes, for better or worse, and names the entries; `--update`
writes today's outcomes into the manifests. A set's `first_run` figures are written once, by
`--record-first-run`, and never changed.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
SERIOUS = ("error", "warning")


@dataclass
class Scored:
    name: str
    outcome: str
    detail: str


def statement_lines(path: Path, line: int) -> set[int]:
    """Every line of the simple statement that holds `line` (a call written over several lines is
    one place to a user: `F.scaled_dot_product_attention(` over `dropout_p=...`), else {line}."""
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError):
        return {line}
    spans = [(node.lineno, node.end_lineno) for node in ast.walk(tree)
             if isinstance(node, ast.stmt) and not hasattr(node, "body") and node.lineno <= line <= (node.end_lineno or 0)]
    if not spans:
        return {line}
    first, last = min(spans, key=lambda span: span[1] - span[0])
    return set(range(first, last + 1))


def score(entry: dict[str, Any], result: dict[str, Any], path: Path | None = None) -> tuple[str, str]:
    """The outcome of one entry's result object, with what decided it. `path`: the model file, whose
    statements make a manifest line stand for every line of its statement."""
    if "error" in result:
        return "failed", result["error"]
    findings = [f for f in result.get("findings", ()) if f["severity"] in SERIOUS]
    expected = set(entry.get("expected", ()))
    if not expected:
        if findings:
            return "false-alarm", ", ".join(f"{f['code']}@{f.get('line')}" for f in findings)
        return "clean", ""
    acceptable = expected | set(entry.get("also_ok_codes", ()))
    lines = {entry.get("line"), *entry.get("also_lines", ())} - {None}
    if path is not None:
        lines = {place for line in lines for place in statement_lines(path, line)}
    right = [f for f in findings if f["code"] in acceptable]
    for finding in right:
        places = [finding.get("line")] + [place.get("line") for place in finding.get("related", ())]
        if lines & set(places) or not lines:
            return "found", f"{finding['code']}@{finding.get('line')}"
    if right:
        return "found-elsewhere", ", ".join(f"{f['code']}@{f.get('line')}" for f in right)
    return "missed", ", ".join(f"{f['code']}@{f.get('line')}" for f in findings) or "no findings"


def check_set(folder: Path, jobs: int, witness: str = "on") -> tuple[list[Scored], float]:
    manifest = json.loads((folder / "manifest.json").read_text())
    names = sorted(manifest["files"])
    targets = [f"{folder / name}:build" for name in names]
    started = time.perf_counter()
    done = subprocess.run([str(Path(sys.executable).with_name("attnscope")), "check", "--json", "--exit-zero", "--jobs", str(jobs),
                           "--witness", witness, *targets], capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - started
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    by_target = {result["target"]: result for result in results}
    scored = []
    for name, target in zip(names, targets):
        result = by_target.get(target, {"target": target, "error": "no result"})
        outcome, detail = score(manifest["files"][name], result, folder / name)
        scored.append(Scored(name, outcome, detail))
    return scored, elapsed


def figures(scored: list[Scored], manifest: dict[str, Any]) -> dict[str, Any]:
    buggy = [s for s in scored if manifest["files"][s.name].get("expected")]
    correct = [s for s in scored if not manifest["files"][s.name].get("expected")]
    return {
        "buggy": len(buggy), "found": sum(s.outcome == "found" for s in buggy),
        "found_elsewhere": sum(s.outcome == "found-elsewhere" for s in buggy),
        "correct": len(correct), "false_alarms": sum(s.outcome == "false-alarm" for s in correct),
        "failed": sum(s.outcome == "failed" for s in scored),
    }


def row(name: str, numbers: dict[str, Any], seconds: float | None) -> str:
    recall = f"{100.0 * numbers['found'] / numbers['buggy']:5.1f} %" if numbers["buggy"] else "    —  "
    took = f"{seconds:7.1f} s" if seconds is not None else ""
    return (f"{name:<14} {numbers['found']:>3}/{numbers['buggy']:<3} found ({recall})  "
            f"+{numbers['found_elsewhere']} elsewhere  {numbers['false_alarms']:>2}/{numbers['correct']:<3} false alarms  "
            f"{numbers['failed']} failed  {took}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="*", help="set names under tests/corpus (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the folder of sets (default: tests/corpus)")
    parser.add_argument("--witness", choices=("on", "off"), default="on", help="passed to attnscope check")
    parser.add_argument("--update", action="store_true", help="write today's outcomes into the manifests")
    parser.add_argument("--record-first-run", metavar="SET", help="check SET and write its first-run figures")
    options = parser.parse_args(argv)
    names = [options.record_first_run] if options.record_first_run else (
        options.sets or sorted(p.name for p in options.corpus.iterdir() if (p / "manifest.json").exists()))
    changed: list[str] = []
    totals: dict[str, Any] = {}
    for name in names:
        folder = options.corpus / name
        manifest = json.loads((folder / "manifest.json").read_text())
        scored, seconds = check_set(folder, options.jobs, options.witness)
        numbers = figures(scored, manifest)
        print(row(name, numbers, seconds))
        for key, value in numbers.items():
            totals[key] = totals.get(key, 0) + value
        for item in scored:
            entry = manifest["files"][item.name]
            if item.outcome not in ("found", "clean"):
                print(f"    {item.name}: {item.outcome} ({item.detail})")
            if options.record_first_run or options.update:
                entry.setdefault("first_run", item.outcome) if options.record_first_run else None
                entry["outcome"] = item.outcome
            elif entry.get("outcome") != item.outcome:
                changed.append(f"{name}/{item.name}: {entry.get('outcome')} -> {item.outcome}")
        if options.record_first_run and "first_run" not in manifest:
            manifest["first_run"] = {**numbers, "date": time.strftime("%Y-%m-%d")}
        if options.record_first_run or options.update:
            (folder / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    if len(names) > 1:
        print(row("total", totals, None))
    if changed:
        print("outcomes changed (update the manifests with --update if this is meant):")
        for line in changed:
            print(f"  {line}")
        return 1
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    sys.exit(main())
