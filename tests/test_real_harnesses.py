"""benchmarks/real: every harness names its repository, commit, folder and expected codes, the
runner skips (and says so) the repositories that were not fetched, and a known wrong answer
is told apart from the expected one and from a new difference."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.real.run import harnesses, judged  # noqa: E402

REPOSITORIES = {"pytorch-labs/gpt-fast", "karpathy/nanochat", "facebookresearch/detr", "pytorch/examples",
                "Lightning-AI/litgpt", "OpenNMT/OpenNMT-py"}


def test_every_harness_says_what_it_runs_and_expects() -> None:
    found = harnesses()
    assert {harness.REPOSITORY for harness in found} >= REPOSITORIES
    for harness in found:
        assert harness.COMMIT and harness.FOLDER and harness.EXPECTED
        assert all(callable(getattr(harness, name)) for name in harness.EXPECTED)
        assert any(codes for codes in harness.EXPECTED.values())  # a planted (or true) finding each
        assert any(not codes for codes in harness.EXPECTED.values())  # and clean code


def test_known_wrong_answers_name_their_target_and_reason() -> None:
    for harness in harnesses():
        for name, (observed, reason) in getattr(harness, "KNOWN_WRONG", {}).items():
            assert name in harness.EXPECTED
            assert sorted(observed) != sorted(harness.EXPECTED[name])
            assert "real-repros/" in reason  # the reproduction that shows it


def test_a_known_wrong_answer_passes_as_known_and_a_new_one_fails() -> None:
    known = (["causal-leak"], "pad queries counted")
    assert judged([], [], None) == ("as expected", True)
    assert judged(["causal-leak"], [], known) == ("known wrong: expected [], got ['causal-leak']: pad queries counted",
                                                  True)
    assert judged([], [], known) == ("fixed: as expected (remove it from KNOWN_WRONG)", True)
    assert judged(["nan"], [], known) == ("expected [], got ['nan']", False)
    assert judged("no result", ["causal-leak"], None) == ("expected ['causal-leak'], got no result", False)


def test_repositories_not_fetched_are_skipped_by_name(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "real" / "run.py"), "--sources", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0
    assert all(f"skipped {repository}:" in done.stdout for repository in REPOSITORIES)
