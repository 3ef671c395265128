"""Where each µs of a checked op goes: the mode's floor, recording, analysis, checks, per op.

    .venv/bin/python benchmarks/per_op.py                      # every model of `workloads.py`, and BERT-base
    .venv/bin/python benchmarks/per_op.py --only small --repeat 50 --profile recording
    .venv/bin/python benchmarks/per_op.py --only padded --profile analysis

All figures come from one process, on one thread, in CPU seconds (`time.process_time`),
the minimum over `--repeat` runs after a warm-up: the machine is shared, and the minimum of
CPU time is what moves least. The models are the kinds people write (`benchmarks/workloads.py`:
the course encoder, one with `nn.LayerNorm` and a padding mask, a causal decoder with a KV
cache, a timm-style ViT, tiny HuggingFace BERT and Llama) and BERT-base. Per model it prints
the untraced forward, then per recorded op what each stage adds, and at the end one table of
all models with the whole check as a ratio to the untraced forward:

- floor: a TorchFunctionMode that only calls through (torch's own dispatch to Python);
- recording: `tracer.trace(model)` around the forward (the mode, hooks, events, value copies);
- analysis: axes, dataflow, attention blocks and padding, from the recording;
- checks: every check of the catalogue (`run_checks`), timed inside the same `analyse` call;
- checked: `tracer.run_check` without witnesses, and its ratio to the untraced forward;
- witnesses: what `tracer.check`'s default witnesses add on top (the model run again: the
  table gives how many forwards), and the whole check's ratio with them;
- torchlens (`torchlens.trace`, its defaults) where it is installed, in a process of its own
  since it wraps torch's functions globally.

`--profile recording|analysis|checked|witnessed` prints cProfile's top functions of that stage
(`witnessed`: the whole `tracer.check`). `--values` prints how much of one recording went
into the values (statistics and copies), timed directly: on BERT-base those are the
recording's main cost, and a direct figure does not drown in the noise of a two-second
forward the way a difference of two forwards does.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import time
from typing import Any, Callable

import torch
from torch.overrides import TorchFunctionMode

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tracer  # noqa: E402
import tracer.api  # noqa: E402,F401
import tracer.analysis  # noqa: E402
from benchmarks import workloads  # noqa: E402
from benchmarks.overhead import Workload, bert_base  # noqa: E402
from tracer.analysis import analyse  # noqa: E402

MODELS: dict[str, Callable[[], Workload]] = {
    "small": workloads.course_encoder, "padded": workloads.padded_encoder, "kvcache": workloads.kv_cache_decoder,
    "vit": workloads.vit, "hf-bert": workloads.hf_bert_tiny, "hf-llama": workloads.hf_llama_tiny,
    "bert": bert_base,
}
LARGE = frozenset({"bert"})  # seconds per forward: fewer repeats


class Floor(TorchFunctionMode):
    """The least a TorchFunctionMode costs: every call dispatched to Python and straight back."""

    def __torch_function__(self, func: Callable, types: tuple, args: tuple = (), kwargs: dict | None = None) -> Any:
        return func(*args, **(kwargs or {}))


def cpu_seconds(function: Callable[[], object], repeat: int) -> float:
    """Minimum CPU time of `function` over `repeat` runs, after one warm-up run."""
    function()
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


class Analysing:
    """Analysis + checks of a fresh recording each call (a recording caches what it computed),
    with the recording made before the clock starts. `parts` holds the figures of the last call:
    `analysis` (all of `analyse`) and `checks` (the time inside `run_checks`, of that)."""

    def __init__(self, record: Callable[[], tracer.Trace]) -> None:
        self.record = record
        self.parts: dict[str, float] = {}

    def __call__(self) -> object:
        recording = self.record().recording
        run_checks, inside = tracer.analysis.run_checks, [0.0]

        def timed_checks(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return run_checks(*args, **kwargs)
            finally:
                inside[0] += time.process_time() - start

        tracer.analysis.run_checks = timed_checks
        try:
            start = time.process_time()
            analyse(recording)
            self.parts = {"analysis": time.process_time() - start, "checks": inside[0]}
        finally:
            tracer.analysis.run_checks = run_checks
        return recording


def stages(model: torch.nn.Module, args: tuple, kwargs: dict) -> dict[str, Callable[[], object]]:
    """The measured callables of one workload; each runs one forward pass (or analyses one)."""

    def floor() -> None:
        with Floor():
            model(*args, **kwargs)

    def record() -> tracer.Trace:
        with tracer.trace(model) as recorded:
            model(*args, **kwargs)
        return recorded

    # A new stage of `tracer.check` is one entry here and one row in ROWS.
    return {
        "untraced": lambda: model(*args, **kwargs),
        "floor": floor,
        "recording": record,
        "analysis": Analysing(record),
        "checked": lambda: tracer.run_check(model, args, kwargs, witness=False)[0],
        "witnessed": lambda: tracer.check(model, *args, **kwargs),  # the default: witnesses on
    }


# The rows printed per model: a label, and the seconds that stage adds, from the minima of `measure`.
ROWS: tuple[tuple[str, Callable[[dict[str, float]], float]], ...] = (
    ("floor (bare TorchFunctionMode)", lambda f: f["floor"] - f["untraced"]),
    ("recording", lambda f: f["recording"] - f["untraced"]),
    ("analysis (axes, blocks, padding)", lambda f: f["analysis"] - f["checks"]),
    ("checks", lambda f: f["checks"]),
    ("analysis + checks", lambda f: f["analysis"]),
    ("checked, without witnesses", lambda f: f["checked"] - f["untraced"]),
    ("witnesses (the model run again)", lambda f: f["witnessed"] - f["checked"]),
    ("checked, all of it", lambda f: f["witnessed"] - f["untraced"]),
)


def torchlens_seconds(name: str, repeat: int) -> float | None:
    """torchlens's CPU time for the same forward, measured the same way in a fresh process."""
    code = (
        "import sys, torch; sys.path.insert(0, %r); torch.set_num_threads(1)\n"
        "try:\n    import torchlens\nexcept ImportError:\n    print('absent'); raise SystemExit\n"
        "import benchmarks.per_op as b\n"
        "torch.manual_seed(0); m, a, k = b.MODELS[%r](); m.eval()\n"
        "with torch.no_grad():\n"
        "    print(b.cpu_seconds(lambda: torchlens.trace(m, list(a) or None, input_kwargs=k or None), %d))"
    ) % (ROOT, name, repeat)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines or lines[-1] == "absent":
        if out.returncode != 0:
            print(f"  torchlens failed on {name}: {(out.stderr.strip().splitlines() or ['?'])[-1][:160]}")
        return None
    return float(lines[-1])


def measure(name: str, repeat: int, with_torchlens: bool) -> dict[str, float]:
    torch.manual_seed(0)
    model, args, kwargs = MODELS[name]()
    model.eval()
    with torch.no_grad():
        measured = stages(model, args, kwargs)
        ops = len(measured["recording"]().recording.events)
        # Interleaved rounds in a rotating order, so that neither a burst of load from other
        # jobs nor the allocator's state left by the previous stage favours one stage.
        best = {stage: float("inf") for stage in measured}
        for function in measured.values():
            function()  # warm-up
        order = list(measured.items())
        for round_ in range(repeat):
            for stage, function in order[round_ % len(order):] + order[: round_ % len(order)]:
                start = time.process_time()
                function()
                elapsed = time.process_time() - start
                for part, seconds in getattr(function, "parts", {stage: elapsed}).items():
                    best[part] = min(best.get(part, float("inf")), seconds)
        best["ops"] = ops
        best["forwards"] = tracer.check(model, *args, **kwargs).summary["witnesses"]["forwards"]
    if with_torchlens:
        peer = torchlens_seconds(name, max(3, repeat // 5))
        if peer is not None:
            best["torchlens"] = peer
    return best


def report(name: str, figures: dict[str, float]) -> None:
    ops, untraced = int(figures["ops"]), figures["untraced"]
    per_op = lambda seconds: seconds / ops * 1e6  # noqa: E731
    print(f"{name}: {ops} ops, untraced forward {untraced * 1e3:.2f} ms ({per_op(untraced):.1f} µs/op)")
    for label, figure in ROWS:
        extra = figure(figures)
        print(f"  {label:32} +{per_op(extra):8.1f} µs/op  (+{extra * 1e3:8.2f} ms)")
    print(f"  checked / untraced: {figures['checked'] / untraced:.2f}x without witnesses, "
          f"{figures['witnessed'] / untraced:.2f}x with them   recorded / untraced: {figures['recording'] / untraced:.2f}x")
    if "torchlens" in figures:
        peer = figures["torchlens"]
        print(f"  torchlens: {peer * 1e3:.1f} ms, +{per_op(peer - untraced):.1f} µs/op, "
              f"{peer / untraced:.1f}x untraced, {peer / figures['checked']:.1f}x attnscope's check")


def summary(measured: dict[str, dict[str, float]]) -> None:
    """One table of every model measured: the stages in ms, the whole check as a ratio."""
    print("\n| model | ops | untraced | recording | analysis | checks | witnesses (forwards) | checked / untraced | "
          "with witnesses |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, f in measured.items():
        print(f"| {name} | {int(f['ops'])} | {f['untraced'] * 1e3:.2f} ms | +{(f['recording'] - f['untraced']) * 1e3:.2f} ms "
              f"| {(f['analysis'] - f['checks']) * 1e3:.2f} ms | {f['checks'] * 1e3:.2f} ms "
              f"| +{(f['witnessed'] - f['checked']) * 1e3:.2f} ms ({int(f['forwards'])}) | {f['checked'] / f['untraced']:.2f}× "
              f"| {f['witnessed'] / f['untraced']:.2f}× |")


def profile(name: str, stage: str, repeat: int, top: int) -> None:
    torch.manual_seed(0)
    model, args, kwargs = MODELS[name]()
    model.eval()
    with torch.no_grad():
        measured = stages(model, args, kwargs)
        measured["checked"]()  # warm-up: first calls import and cache
        profiler = cProfile.Profile()
        for _ in range(repeat):
            recording = measured["recording"]().recording
            profiler.enable()
            analyse(recording) if stage == "analysis" else measured[stage]()
            profiler.disable()
    print(f"{name}, {stage}: cProfile over {repeat} runs (profiling inflates Python-heavy code)")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def values_share(name: str, repeat: int) -> None:
    """CPU time spent in `ValueBook.output` and `ValueBook.source` during one recorded forward
    (the run with the least of it among `repeat`)."""
    from tracer.valuebook import ValueBook

    spent = [0.0]

    def timed(method: Callable) -> Callable:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                spent[0] += time.process_time() - start
        return wrapper

    torch.manual_seed(0)
    model, args, kwargs = MODELS[name]()
    model.eval()
    originals = ValueBook.output, ValueBook.source
    with torch.no_grad():
        record = stages(model, args, kwargs)["recording"]
        record()
        ValueBook.output, ValueBook.source = timed(originals[0]), timed(originals[1])
        runs = []
        try:
            for _ in range(repeat):
                spent[0] = 0.0
                start = time.process_time()
                recording = record().recording
                runs.append((spent[0], time.process_time() - start))
        finally:
            ValueBook.output, ValueBook.source = originals
    values, total = min(runs)
    print(f"{name}: a recorded forward {total * 1e3:.1f} ms, of which values (statistics and copies) "
          f"{values * 1e3:.1f} ms for {len(recording.events)} ops; {len(recording.values)} values copied")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(MODELS), action="append")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--no-torchlens", action="store_true")
    parser.add_argument("--profile", choices=("recording", "analysis", "checked", "witnessed"))
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    parser.add_argument("--values", action="store_true", help="time spent on values in one recording")
    options = parser.parse_args()
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, 1 thread, CPU time, min of {options.repeat}")
    measured = {}
    for name in options.only or MODELS:
        if options.profile:
            profile(name, options.profile, options.repeat, options.top)
            continue
        if options.values:
            values_share(name, options.repeat if name not in LARGE else max(3, options.repeat // 4))
            continue
        repeat = options.repeat if name not in LARGE else max(5, options.repeat // 4)
        figures = measured[name] = measure(name, repeat, not options.no_torchlens)
        report(name, figures)
        if options.json:
            print(json.dumps({"model": name, **figures}))
    if len(measured) > 1:
        summary(measured)


if __name__ == "__main__":
    main()
