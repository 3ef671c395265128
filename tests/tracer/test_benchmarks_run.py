"""The benchmarks that docs/performance.md quotes run and print every figure (timings are
never asserted: they are the benchmarks' output, not a test's)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_per_op_prints_every_stage_per_op_and_as_json() -> None:
    out = run("benchmarks/per_op.py", "--only", "small", "--repeat", "2", "--no-torchlens", "--json")
    for stage in ("floor (bare TorchFunctionMode)", "recording", "analysis + checks", "checked, all of it"):
        assert re.search(rf"{re.escape(stage)}\s+\+\s*-?[\d.]+ µs/op", out), stage
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["model"] == "small" and figures["ops"] == 196
    assert {"untraced", "floor", "recording", "analysis", "checked", "witnessed"} <= set(figures)
    assert figures["forwards"] == 1  # one sample, no mask: the repeat witness alone, on the recorded outputs


def test_per_op_values_and_profile() -> None:
    out = run("benchmarks/per_op.py", "--only", "small", "--repeat", "2", "--values")
    assert re.search(r"small: a recorded forward [\d.]+ ms, of which values \(statistics and copies\) [\d.]+ ms "
                     r"for 196 ops", out)
    out = run("benchmarks/per_op.py", "--only", "small", "--repeat", "1", "--profile", "recording", "--top", "60")
    assert "cProfile over 1 runs" in out and "__torch_function__" in out


def test_overhead_prints_the_ratio() -> None:
    out = run("benchmarks/overhead.py", "--only", "tiny", "--repeat", "1", "--no-memory")
    assert re.search(r"tiny\s+untraced\s+[\d.]+ ms\s+checked\s+[\d.]+ ms\s+ratio\s+[\d.]+ \(CPU time ratio\s+[\d.]+\)", out)
