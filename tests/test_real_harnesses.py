"""benchmarks/real: every harness names its repository, commit, folder and expected codes, and the
runner skips (and says so) the repositories that were not fetched."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.real.run import harnesses  # noqa: E402


def test_every_harness_says_what_it_runs_and_expects() -> None:
    found = harnesses()
    assert {harness.REPOSITORY for harness in found} >= {"pytorch-labs/gpt-fast", "karpathy/nanochat"}
    for harness in found:
        assert harness.COMMIT and harness.FOLDER and harness.EXPECTED
        assert all(callable(getattr(harness, name)) for name in harness.EXPECTED)
        assert any("causal-leak" in codes for codes in harness.EXPECTED.values())  # a planted leak each


def test_repositories_not_fetched_are_skipped_by_name(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "real" / "run.py"), "--sources", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0
    assert "skipped pytorch-labs/gpt-fast:" in done.stdout and "skipped karpathy/nanochat:" in done.stdout
