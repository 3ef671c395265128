"""How fast `attnscope` answers: help, version, zoo, usage errors, and one zoo check.

    .venv/bin/python benchmarks/cli_start.py            # 5 runs each, median and best
    .venv/bin/python benchmarks/cli_start.py --runs 9

Targets (issue 12): `--help`, `--version`, `zoo`, `<command> --help` and usage errors in
< 0.5 s (no torch import), and `check zoo:NAME` in at most the time `python -c "import
torch"` takes + 0.5 s. Each command runs as a fresh process, the way a user types it, and
the torch import is timed the same way in the same run, interleaved with the check. Figures
only, never asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ATTNSCOPE = str(Path(sys.executable).with_name("attnscope"))

COMMANDS = {
    "attnscope --help": [ATTNSCOPE, "--help"],
    "attnscope --version": [ATTNSCOPE, "--version"],
    "attnscope zoo": [ATTNSCOPE, "zoo"],
    "attnscope check --help": [ATTNSCOPE, "check", "--help"],
    "attnscope render --help": [ATTNSCOPE, "render", "--help"],
    "attnscope stats --help": [ATTNSCOPE, "stats", "--help"],
    "attnscope tui --help": [ATTNSCOPE, "tui", "--help"],
    "attnscope report --help": [ATTNSCOPE, "report", "--help"],
    "attnscope check (usage error)": [ATTNSCOPE, "check"],
    "attnscope check x.py (target error)": [ATTNSCOPE, "check", "x.py"],
}
# The import itself, timed inside the process (a whole `python -c "import torch"` also pays
# for tearing torch down at exit, which attnscope's check does not wait for).
TORCH = [sys.executable, "-c", "import time; t = time.perf_counter(); import torch; print(time.perf_counter() - t)"]
ZOO_CHECK = [ATTNSCOPE, "check", "zoo:softmax_axis_query"]


def timed(argv: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return times


def torch_import() -> float:
    done = subprocess.run(TORCH, capture_output=True, text=True, check=True)
    return float(done.stdout)


def line(label: str, times: list[float]) -> str:
    return f"{label:<40} median {statistics.median(times):6.3f} s   best {min(times):6.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{runs} runs each, each a new process")
    for label, argv in COMMANDS.items():
        print(line(label, timed(argv, runs)), flush=True)
    torch_times, check_times = [], []
    for _ in range(runs):  # interleaved, so both see the same load on a shared machine
        torch_times.append(torch_import())
        check_times += timed(ZOO_CHECK, 1)
    print(line("import torch (inside a fresh process)", torch_times))
    print(line("attnscope check zoo:softmax_axis_query", check_times))
    over = statistics.median(check_times) - statistics.median(torch_times)
    print(f"check minus the torch import (medians): {over:+.3f} s (target: at most +0.5 s)")


if __name__ == "__main__":
    main()
