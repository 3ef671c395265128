"""The findings of every zoo model and every model the style, library and HuggingFace tests check.

    .venv/bin/python benchmarks/findings_snapshot.py --write tests/fixtures/findings_snapshot.json
    .venv/bin/python benchmarks/findings_snapshot.py --compare tests/fixtures/findings_snapshot.json

Speed work must not weaken a check: the findings (code, severity, file, line, message, ...)
of each model stay identical before and after. Zoo models are built with
`tracer.targets.load_target("zoo:NAME")`; the test files' models are caught by running those
tests under pytest with `tracer.run_check` wrapped, so every model they check is covered
exactly as they check it. tests/tracer/test_findings_snapshot.py runs `--compare`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATISTICS = ("minimum", "maximum", "mean", "nonfinite", "nan")
TEST_FILES = ("tests/tracer/test_styles.py", "tests/tracer/test_library_models.py",
              "tests/tracer/test_huggingface.py")


def _where(place: dict[str, Any]) -> None:
    """Paths relative to the checkout; a library model called straight from the wrapper below
    has its finding at the wrapper's line, which is no part of what is compared."""
    if place["file"] == os.path.abspath(__file__):
        place["file"], place["line"] = "(the caller)", 0
    elif "site-packages" + os.sep in place["file"]:  # an installed library's file, wherever it lives;
        place["file"] = place["file"].split("site-packages" + os.sep, 1)[1]  # its lines move between releases
        place["line"] = 0
    elif place["file"]:
        place["file"] = os.path.relpath(place["file"], ROOT)


def _plain(finding: Any) -> dict[str, Any]:
    """A finding as compared: places made portable, a witness's move to 4 significant digits (the last
    digits of a float sum move with the number of threads that computed it)."""
    data = finding.to_dict()
    for found in (data, *data.get("consequences", ())):
        for place in (found, *found.get("related", ())):
            _where(place)
        if found.get("witness"):
            found["witness"]["by"] = float(f"{found['witness']['by']:.4g}")
    return data


def _statistics(recording: Any) -> list[Any]:
    """`stats_of` of every value, in vid order: what the TUI shows and the value checks read."""
    vids = sorted({meta.vid for event in recording.events for meta in (*event.inputs, *event.outputs)}
                  | set(recording.sources))
    return [[vid, None if (stats := recording.stats_of(vid)) is None else [repr(getattr(stats, name)) for name in STATISTICS]]
            for vid in vids]


def zoo_findings(with_statistics: bool = False) -> dict[str, list[Any]]:
    import torch

    from tracer.api import run_check
    from tracer.targets import load_target, zoo_entries

    found = {}
    for name in zoo_entries():
        torch.manual_seed(0)
        workload = load_target(f"zoo:{name}")
        report, recorded = run_check(workload.model, workload.args, workload.kwargs,
                                     layout=workload.options.get("layout"))  # as the CLI reads it
        found[f"zoo:{name}"] = [_plain(finding) for finding in report.findings]
        if with_statistics:
            found[f"zoo:{name}/statistics"] = _statistics(recorded.recording)
    return found


class _Catcher:
    """A pytest plugin that wraps `tracer.run_check` and keeps each call's findings by test id."""

    def __init__(self) -> None:
        self.found: dict[str, list[dict[str, Any]]] = {}
        self.failed: list[str] = []
        self.skipped: set[str] = set()
        self._test = ""

    def pytest_sessionstart(self, session: Any) -> None:
        import tracer
        import tracer.api

        original = tracer.api.run_check

        def caught(*args: Any, **kwargs: Any) -> Any:
            report, recorded = original(*args, **kwargs)
            key = self._test
            calls = sum(1 for name in self.found if name.split("#")[0] == key)
            self.found[f"{key}#{calls}"] = [_plain(finding) for finding in report.findings]
            return report, recorded

        tracer.api.run_check = caught
        tracer.run_check = caught
        self._original = original

    def pytest_sessionfinish(self, session: Any) -> None:
        import tracer
        import tracer.api

        tracer.api.run_check = tracer.run_check = self._original

    def pytest_runtest_setup(self, item: Any) -> None:
        self._test = item.nodeid

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed:
            self.failed.append(report.nodeid)
        if report.skipped:  # e.g. the HuggingFace tests without transformers installed
            self.skipped.add(report.nodeid)


def findings_of_test_files() -> tuple[dict[str, list[dict[str, Any]]], set[str]]:
    import pytest

    catcher = _Catcher()
    code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:randomly", *TEST_FILES],
                       plugins=[catcher])
    if code not in (0, 1) or catcher.failed:
        print(f"findings_snapshot: pytest exit {code}, failed: {catcher.failed}", file=sys.stderr)
    return catcher.found, catcher.skipped


def snapshot(with_statistics: bool = False) -> tuple[dict[str, list[Any]], set[str]]:
    """Findings by model, and the test ids that were skipped here (their models are not compared)."""
    os.chdir(ROOT)
    sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]
    zoo = zoo_findings(with_statistics)  # first: the test files draw their inputs from the global seed
    found, skipped = findings_of_test_files()
    return {**zoo, **found}, skipped


def differences(expected: dict[str, Any], actual: dict[str, Any], skipped: set[str] = frozenset()) -> list[str]:
    lines = []
    for name in sorted(set(expected) | set(actual)):
        if name.split("#")[0] in skipped:
            continue
        if expected.get(name) != actual.get(name):
            lines.append(f"{name}:\n  expected {json.dumps(expected.get(name))}\n  actual   {json.dumps(actual.get(name))}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE")
    group.add_argument("--compare", metavar="FILE")
    parser.add_argument("--statistics", action="store_true",
                        help="also every value's statistics (exact floats: compare on one machine only)")
    options = parser.parse_args()
    found, skipped = snapshot(options.statistics)
    if options.write:
        with open(options.write, "w") as out:
            json.dump(found, out, indent=1, sort_keys=True)
            out.write("\n")
        print(f"wrote the findings of {len(found)} models to {options.write}")
        return 0
    with open(options.compare) as stored:
        expected = json.load(stored)
    changed = differences(expected, found, skipped)
    print("\n".join(changed) if changed else f"the findings of all {len(found)} models are identical")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
