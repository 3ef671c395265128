"""How long the TUI takes to open a big recording, and whether stepping and scrolling stay instant.

Run: `.venv/bin/python benchmarks/tui_open.py`. Traces the reference 12-layer encoder
(T=32, key padding) and a 12+12-layer encoder-decoder, then opens each in a headless app
at 120×40 and times: tracing, analysis, the app's first full screen, and the mean time of
one key press (wall clock, and CPU time of this process, which a busy machine does not
inflate) when stepping (`n`, `a`) and paging through the op list. Target: open under 3 s;
a key press's cost must not grow with the number of ops (the op list is a DataTable,
which draws only the rows on screen).
"""

from __future__ import annotations

import asyncio
import time

import torch

from models.reference.transformer import EncoderDecoderTransformer, TransformerEncoder
from tracer.trace import Trace
from tui.app import ScopeApp
from tui.widgets.op_timeline import OpTimeline


def encoder() -> tuple[torch.nn.Module, tuple, dict]:
    torch.manual_seed(0)
    model = TransformerEncoder(12, 64, 4, 128).eval()
    padding = torch.zeros(2, 32, dtype=torch.bool)
    padding[1, 24:] = True
    return model, (torch.randn(2, 32, 64),), {"key_padding_mask": padding}


def encoder_decoder() -> tuple[torch.nn.Module, tuple, dict]:
    torch.manual_seed(0)
    model = EncoderDecoderTransformer(100, 100, 64, 4, 128, 12, 64).eval()
    source, target = torch.randint(1, 100, (2, 32)), torch.randint(1, 100, (2, 32))
    source[1, 24:] = 0
    return model, (source, target), {}


async def drive(trace: Trace) -> dict[str, float]:
    timings: dict[str, float] = {}
    start = time.perf_counter()
    app = ScopeApp(trace, "benchmark")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        timeline = app.screen.query_one(OpTimeline)
        assert timeline.row_count == len(trace.recording.events)
        timings["open (first full screen)"] = time.perf_counter() - start
        for keys, label in ((["n"] * 100, "step n"), (["a"] * 12, "next block a"),
                            (["pagedown"] * 30, "page down"), (["pageup"] * 30, "page up"), (["t"] * 4, "filter t")):
            begin, cpu = time.perf_counter(), time.process_time()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            timings[f"one key: {label}"] = (time.perf_counter() - begin) / len(keys)
            timings[f"one key: {label} (CPU)"] = (time.process_time() - cpu) / len(keys)
    return timings


def main() -> None:
    for name, build in (("12-layer encoder, T=32", encoder), ("12+12-layer encoder-decoder, T=32", encoder_decoder)):
        model, args, kwargs = build()
        begin = time.perf_counter()
        with torch.no_grad(), Trace(model) as trace:
            model(*args, **kwargs)
        traced = time.perf_counter() - begin
        begin = time.perf_counter()
        trace.analysis
        analysed = time.perf_counter() - begin
        timings = asyncio.run(drive(trace))
        print(f"{name}: {len(trace.recording.events)} ops, {len(trace.recording.module_calls)} module calls, "
              f"{len(trace.analysis.blocks)} attention blocks")
        print(f"  trace {traced:.2f} s, analysis {analysed:.2f} s")
        for label, seconds in timings.items():
            unit = f"{seconds:.2f} s" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"
            print(f"  {label}: {unit}")


if __name__ == "__main__":
    main()
