"""Run every real-repository harness whose repository the user fetched, and say which were skipped.

    .venv/bin/python benchmarks/real/run.py --sources ~/src     # ~/src/gpt-fast, ~/src/nanochat, ...

Each harness (a module here) names its repository, the commit it was written against, the
folder it expects under `--sources`, and the error codes each build function must give.
Every target is checked with `attnscope check --json`, as a user would; the script prints
one line per target (as expected, or what differed) and exits 1 when any target differs.
A target in the harness's `KNOWN_WRONG` (attnscope's current answer, and why it is wrong)
is reported as known when it still gives that answer, as fixed when it gives the expected
one; neither fails the run. Fetched code is never part of this project.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def harnesses() -> list:
    sys.path.insert(0, str(ROOT))
    return [importlib.import_module(f"benchmarks.real.{info.name}") for info in pkgutil.iter_modules([str(HERE)])
            if info.name != "run"]


def errors_of(target: str, sources: Path) -> list[str] | str:
    """The sorted error codes attnscope reports for `target`, or the reason it could not be checked."""
    env = {**os.environ, "ATTNSCOPE_REAL_SOURCES": str(sources)}
    done = subprocess.run([str(Path(sys.executable).with_name("attnscope")), "check", "--json", "--exit-zero", target],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "no result"
    result = json.loads(lines[0])
    if "error" in result:
        return result["error"]
    return sorted({f["code"] for f in result["findings"] if f["severity"] == "error"})


def judged(found: list[str] | str, expected: list[str], known: tuple[list[str], str] | None) -> tuple[str, bool]:
    """The verdict line for one target and whether it counts as expected; `known` is the
    KNOWN_WRONG entry (the wrong codes attnscope gives now, and why they are wrong), if any."""
    if found == expected:
        return ("fixed: as expected (remove it from KNOWN_WRONG)" if known else "as expected"), True
    if known and found == sorted(known[0]):
        return f"known wrong: expected {expected}, got {found}: {known[1]}", True
    return f"expected {expected}, got {found}", False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, required=True, help="the folder the repositories were fetched into")
    options = parser.parse_args(argv)
    differed = 0
    for harness in harnesses():
        folder = options.sources / harness.FOLDER
        if not folder.is_dir():
            print(f"skipped {harness.REPOSITORY}: {folder} is not there (fetch it at {harness.COMMIT})")
            continue
        known_wrong = getattr(harness, "KNOWN_WRONG", {})
        for name, expected in harness.EXPECTED.items():
            target = f"{Path(harness.__file__).relative_to(ROOT)}:{name}"
            found = errors_of(target, options.sources)
            verdict, same = judged(found, sorted(expected), known_wrong.get(name))
            differed += not same
            print(f"{harness.REPOSITORY} @ {harness.COMMIT} {name}: {verdict}")
    return 1 if differed else 0


if __name__ == "__main__":
    sys.exit(main())
