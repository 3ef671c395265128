"""A course's worth of submissions checked safely: 100 generated files, `--jobs 2`.

    .venv/bin/python benchmarks/cohort.py                  # 100 submissions, local, then a local Dask cluster
    .venv/bin/python benchmarks/cohort.py --count 40 --no-dask

The submissions mix correct and buggy attention modules (softmax over the queries, no
scaling, a mask after the softmax, a causal mask off by one, heads split without a
transpose) with one that hangs, one that segfaults, one that prints, one that exits in
`build` and one that allocates past `--max-memory`. Issue 11's acceptance, printed and
never asserted here (tests/tracer/test_cohort.py asserts the behaviour):

- every target gets exactly one JSON line, in target order;
- the hang is killed at its timeout and the rest are unaffected;
- wall time <= 2 x the torch import time + 0.15 s per submission;
- the same results come back through a local Dask cluster.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ATTNSCOPE = str(Path(sys.executable).with_name("attnscope"))
TIMEOUT = 10

TEMPLATE = '''
import math

import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, d={d}, heads={heads}):
        super().__init__()
        self.heads, self.d_h = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q, k, v = ({split} for t in (q, k, v))
        scores = q @ k.transpose(-2, -1){scale}
        {mask_before}
        weights = torch.softmax(scores, dim={dim})
        {mask_after}
        return self.out((weights @ v).transpose(1, 2).reshape(B, T, d))


def build():
    {build}
    torch.manual_seed({seed})
    return Attention().eval(), torch.randn(2, {t}, {d})
'''

SPLIT_OK = "t.view(B, T, self.heads, self.d_h).transpose(1, 2)"
SPLIT_BUG = "t.reshape(B, self.heads, T, self.d_h)"
CAUSAL = "mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal={offset}); scores = scores.masked_fill(mask, float('-inf'))"
AFTER = "weights = weights.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1), 0.0)"

# The bad submissions (by position in the cohort) and what each does in build().
BAD = {
    7: ("hangs", "while True: pass"),
    23: ("segfaults", "import ctypes; ctypes.string_at(0)"),
    41: ("prints", "print('number of parameters: 1.2K'); print('training on cpu')"),
    59: ("exits", "import sys; sys.exit(3)"),
    77: ("allocates", "hoard = torch.ones(2 ** 29)  # 2 GiB"),
}


def submission(number: int, rng: random.Random) -> tuple[str, str]:
    """(file name, source) of submission `number`; a fifth of them each carry one bug."""
    kind, build = BAD.get(number, ("", "pass"))
    bug = rng.choice(["", "", "", "", "softmax-axis", "scale", "mask-after", "causal-leak", "head-split"]) if not kind else ""
    d, heads = rng.choice([(8, 2), (16, 2), (16, 4)])
    source = TEMPLATE.format(
        d=d, heads=heads, t=rng.choice([4, 5, 6]), seed=number, build=build,
        split=SPLIT_BUG if bug == "head-split" else SPLIT_OK,
        scale="" if bug == "scale" else " / math.sqrt(self.d_h)",
        dim=-2 if bug == "softmax-axis" else -1,
        mask_before=CAUSAL.format(offset=2 if bug == "causal-leak" else 1) if number % 3 == 0 or bug == "causal-leak" else "",
        mask_after=AFTER if bug == "mask-after" else "",
    )
    return f"s{number:03d}_{kind or bug or 'ok'}.py", source


def torch_import_seconds() -> float:
    code = "import time; t = time.perf_counter(); import torch; print(time.perf_counter() - t)"
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def become_subreaper() -> None:
    """Adopt orphaned descendants (the warm parent, which attnscope does not wait for at exit),
    so that their CPU time is counted in this process's RUSAGE_CHILDREN (Linux only)."""
    PR_SET_CHILD_SUBREAPER = 36
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def reap_all() -> None:
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def check(folder: Path, *options: str) -> tuple[float, float, int, list[dict[str, Any]]]:
    """(wall seconds, CPU seconds of every process involved, exit status, objects) of one run."""
    cpu, start = cpu_of_children(), time.perf_counter()
    done = subprocess.run(
        [ATTNSCOPE, "check", f"{folder}/*.py:build", "--json", "--jobs", "2", "--timeout", str(TIMEOUT),
         "--max-memory", "1G", *options],
        capture_output=True, text=True, cwd=folder,
    )
    wall = time.perf_counter() - start
    reap_all()
    return wall, cpu_of_children() - cpu, done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def comparable(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Without a crash's stack (it names the process's own frames)."""
    return [{key: value for key, value in obj.items() if not (obj.get("kind") == "crashed" and key == "output")}
            for obj in objects]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--no-dask", action="store_true", help="skip the run through a local Dask cluster")
    options = parser.parse_args()
    rng = random.Random(0)
    become_subreaper()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{options.count} submissions, --jobs 2, --timeout {TIMEOUT}, --max-memory 1G")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        names = []
        for number in range(options.count):
            name, source = submission(number, rng)
            (folder / name).write_text(source)
            names.append(name)
        one = folder / "single"
        one.mkdir()
        (one / names[0]).write_text((folder / names[0]).read_text())

        torch_seconds = min(torch_import_seconds() for _ in range(3))
        load = os.getloadavg()[0]
        single_wall, single_cpu, _, _ = check(one)
        wall, cpu, status, objects = check(folder)
        budget = 2 * torch_seconds + 0.15 * options.count
        targets = [f"{folder}/{name}:build" for name in names]
        print(f"load average before: {load:.1f} on {os.cpu_count()} cores (other work on the machine slows every figure)")
        print(f"torch import (best of 3): {torch_seconds:.2f} s; one submission: {single_wall:.2f} s wall, "
              f"{single_cpu:.2f} s CPU")
        print(f"{options.count} submissions: {wall:.2f} s wall, exit status {status}; "
              f"budget 2 x torch + 0.15 s each = {budget:.2f} s ({'within' if wall <= budget else 'OVER'})")
        print(f"CPU of every process (attnscope, warm parent, children): {cpu:.2f} s; "
              f"{(cpu - single_cpu) / max(1, options.count - 1):.3f} s per submission after the first "
              f"(the hang spins for {TIMEOUT} s of it)")
        print(f"wall per submission after the first: {(wall - single_wall) / max(1, options.count - 1):.3f} s "
              f"(the hang holds one of the two slots for {TIMEOUT} s)")
        print(f"one JSON line per target, in order: {[obj['target'] for obj in objects] == targets} "
              f"({len(objects)} lines)")
        verdicts = Counter(obj.get("kind") or ("findings" if obj.get("findings") else "clean") for obj in objects)
        print("outcomes: " + ", ".join(f"{count} {verdict}" for verdict, count in verdicts.most_common()))
        for number in sorted(BAD):
            if number < len(objects):
                obj = objects[number]
                shown = obj.get("kind") or f"checked, output {obj.get('output', '')!r}"
                print(f"  {names[number]}: {shown}")
        codes = Counter(f["code"] for obj in objects for f in obj.get("findings", ()))
        print("finding codes: " + ", ".join(f"{code} {count}" for code, count in codes.most_common()))
        if not options.no_dask:
            dask_wall, _, dask_status, through_dask = check(folder, "--scheduler", "local")
            same = comparable(through_dask) == comparable(objects)
            print(f"through a local Dask cluster: {dask_wall:.2f} s wall, exit status {dask_status}, "
                  f"same results: {same}")


if __name__ == "__main__":
    main()
