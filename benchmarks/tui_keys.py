"""What one key press costs in the TUI, driven by Textual's Pilot on a 12-layer encoder.

Run: `.venv/bin/python benchmarks/tui_keys.py [--size 120x40] [--profile KEY]`. Traces the
reference 12-layer encoder (T=32, key padding; 684 ops), opens the debugger headless and
presses each key many times: stepping (`n`, `p`, over/into/out), jumps back and forth
(blocks, softmaxes, masks; findings on twelve flagged layers), switching the pane (`tab`)
and the filter (`t`), and the tensor view's heatmap of a 128 × 128 table. For each it prints the CPU time
of this process per press (what the app spends; a busy machine does not inflate it) and the
wall time. Target (issue 12): ≤ 30 ms of CPU per key, ≤ 100 ms for the heatmap.
`--profile KEY` prints the cProfile of that key's presses instead.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tui_open import encoder  # noqa: E402 - the same model as the open benchmark

from tracer.trace import Trace  # noqa: E402
from tui.app import ScopeApp  # noqa: E402
from tui.screens.tensor import TensorScreen  # noqa: E402

# Pairs go back and forth, so every press moves (a jump past the last block would cost nothing).
KEYS = (("n", "next op"), ("p", "previous op"), ("o", "step over"), ("i", "step into"), ("u", "step out"),
        ("a A", "next / previous block"), ("s S", "next / previous softmax"), ("m M", "next / previous mask"),
        ("tab", "switch pane"), ("t", "attention filter"))
FINDING_KEYS = (("f F", "next / previous finding"),)
PRESSES = 24


def traced(build) -> Trace:
    model, args, kwargs = build()
    with torch.no_grad(), Trace(model) as trace:
        model(*args, **kwargs)
    trace.analysis
    return trace


def flagged_stack() -> tuple[torch.nn.Module, tuple, dict]:
    """Twelve zoo softmax_axis_query layers in a row: the softmax-axis finding in every layer."""
    from models.zoo.softmax_axis_query import SelfAttention

    torch.manual_seed(0)
    return torch.nn.Sequential(*(SelfAttention() for _ in range(12))).eval(), (torch.randn(2, 5, 16),), {}


def long_scores() -> tuple[torch.nn.Module, tuple, dict]:
    """One attention layer over T=128, so its heatmap is a 128 × 128 table (drawn as the view's 96 × 96 slice)."""
    from models.reference import MultiHeadAttention

    torch.manual_seed(0)
    x = torch.randn(1, 128, 32)
    return MultiHeadAttention(32, 4).eval(), (x, x), {}


async def press_cost(app: ScopeApp, size: tuple[int, int], profile: str | None,
                     keys_to_press: tuple[tuple[str, str], ...] = KEYS) -> dict[str, tuple[float, float]]:
    costs: dict[str, tuple[float, float]] = {}
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for keys, label in keys_to_press:
            pair = keys.split()
            profiler = cProfile.Profile() if profile in pair else None
            wall, cpu = time.perf_counter(), time.process_time()
            if profiler:
                profiler.enable()
            for press in range(PRESSES):
                await pilot.press(pair[press % len(pair)])
            await pilot.pause()
            if profiler:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
            costs[label] = ((time.process_time() - cpu) / PRESSES, (time.perf_counter() - wall) / PRESSES)
    return costs


async def heatmap_cost(trace: Trace) -> dict[str, tuple[float, float]]:
    """CPU and wall time of opening the heatmap (`v`) and of redrawing it for the next head (`h`)."""
    app = ScopeApp(trace, "heatmap")
    costs: dict[str, tuple[float, float]] = {}
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        wall, cpu = time.perf_counter(), time.process_time()
        await pilot.press("v")
        while not isinstance(app.screen, TensorScreen):
            await pilot.pause()
        await pilot.pause()
        costs["open the view (v)"] = (time.process_time() - cpu, time.perf_counter() - wall)
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(8):
            await pilot.press("h")
        await pilot.pause()
        costs["redraw for the next head (h)"] = ((time.process_time() - cpu) / 8, (time.perf_counter() - wall) / 8)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="120x40", help="terminal size, COLSxROWS (default 120x40)")
    parser.add_argument("--profile", metavar="KEY", help="print the cProfile of this key's presses")
    options = parser.parse_args()
    size = tuple(int(part) for part in options.size.split("x"))
    trace = traced(encoder)
    print(f"12-layer encoder, T=32: {len(trace.recording.events)} ops, {len(trace.analysis.blocks)} attention blocks; "
          f"terminal {size[0]}x{size[1]}; {PRESSES} presses per key (findings: 12 softmax_axis_query layers)")
    costs = asyncio.run(press_cost(ScopeApp(trace, "keys"), size, options.profile))
    flagged = traced(flagged_stack)
    costs.update(asyncio.run(press_cost(ScopeApp(flagged, "findings"), size, options.profile, FINDING_KEYS)))
    for label, (cpu, wall) in costs.items():
        print(f"  {label:22s} {cpu * 1000:6.1f} ms CPU  {wall * 1000:6.1f} ms wall")
    print("heatmap of a 1×4×128×128 score table (drawn: the view's 96 × 96 slice), terminal 200x50")
    for label, (cpu, wall) in asyncio.run(heatmap_cost(traced(long_scores))).items():
        print(f"  {label:28s} {cpu * 1000:6.1f} ms CPU  {wall * 1000:6.1f} ms wall")


if __name__ == "__main__":
    main()
