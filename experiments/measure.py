"""What one arm costs, measured once on a fixed batch: counts, inference time, peak memory.

Counts come from attnscope's own recording of one forward pass (the point of running these
experiments through attnscope), never from formulas. Memory is what torch's CPU allocator
holds: Python's tracemalloc cannot see it, and the process's resident size mixes in the
interpreter, the allocator's caches and other arms run earlier in the same process.
"""

from __future__ import annotations

import ctypes
import math
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.profiler import ProfilerActivity, profile

from tracer.api import run_check
from tracer.blocks import AttentionBlock

COUNTS = ("module_calls", "attention_calls", "ops", "attention_blocks", "score_elements", "visible_scores")


@dataclass(frozen=True)
class Costs:
    """One arm's measurements on the fixed batch (independent of the seed, measured once)."""

    parameters: int
    infer_ms: float
    peak_mib: float
    counts: dict[str, int | None]


def visible_scores(blocks: list[AttentionBlock]) -> int | None:
    """Score entries some query may read: each recorded table minus what its masks hide.

    The masks are the ones the tracer saw applied before the softmax (kept as bool tables,
    broadcast dims left at size 1). None when one of them was not kept (over the value budget).
    """
    total = 0
    for block in blocks:
        hidden: Tensor | None = None
        for use in block.masks:
            if use.after:
                continue
            if use.hidden is None:
                return None
            hidden = use.hidden if hidden is None else hidden | use.hidden
        if hidden is None:
            total += block.elements
            continue
        repeats = math.prod(size for size, kept in zip(block.table_shape, hidden.shape) if kept == 1)
        total += int((~hidden).sum()) * repeats
    return total


def traced_counts(model: nn.Module, batch: Tensor) -> dict[str, int | None]:
    """Trace one forward pass of `model` on `batch` and read its counts off the recording.

    attention_calls: module calls inside which the tracer found an attention block (the
    module that ran the softmax), so a GRU has none and an L-layer encoder has L per pass.
    forward_passes is kept beside the table's counts so that this can be checked.
    """
    _, recorded = run_check(model.eval(), (batch,))
    recording = recorded.recording
    if recording.error:
        raise RuntimeError(f"the traced forward pass raised {recording.error}")
    summary = recorded.summary
    blocks = recorded.analysis.blocks
    attention_modules = {block.module for block in blocks}
    return {
        "module_calls": summary["modules"],
        "attention_calls": sum(call.path in attention_modules for call in recording.module_calls),
        "ops": summary["ops"],
        "attention_blocks": summary["attention_blocks"],
        "score_elements": summary["score_elements"],
        "visible_scores": visible_scores(blocks),
        "forward_passes": summary["forward_passes"],
    }


def keep_freed_memory() -> None:
    """Ask glibc to keep freed memory in the process instead of handing it back to the kernel.

    By default glibc serves blocks of 128 KiB and more (score tables, activations) with fresh
    mmaps and returns them when freed, so every pass page-faults its memory back in; how
    often depends on what ran before (glibc adapts its threshold), and in trial runs the
    same model's inference took 9 or 25 ms depending on the arm measured before it. With a
    fixed 32 MiB mmap threshold and no trimming, times measure the model. The allocator's
    peak (`peak_training_mib`) is unaffected. The setting lasts for the rest of the process;
    elsewhere than glibc this does nothing.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # from glibc's malloc.h
    libc.mallopt(m_mmap_threshold, 32 * 2**20)
    libc.mallopt(m_trim_threshold, 2**30)


def inference_ms(probes: Sequence[tuple[nn.Module, Tensor]], rounds: int = 10, repeats: int = 3) -> list[float]:
    """Per (model, batch): the fastest eval-mode forward pass without gradients, in milliseconds.

    The fastest, as `timeit` advises: on a shared machine the slower passes measure the
    other processes. The arms take turns (`rounds` of `repeats` passes each) instead of
    being timed one after the other, so a busy spell slows every arm a little rather than
    one arm entirely.
    """
    fastest = [float("inf")] * len(probes)
    with torch.no_grad():
        for model, batch in probes:  # warm-up: lazy kernel set-up is not the model's time
            model.eval()
            model(batch)
        for _ in range(rounds):
            for index, (model, batch) in enumerate(probes):
                for _ in range(repeats):
                    start = time.perf_counter()
                    model(batch)
                    fastest[index] = min(fastest[index], time.perf_counter() - start)
    return [seconds * 1000 for seconds in fastest]


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence file descriptor 2: the profiler's C++ side logs start/stop lines there."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as sink:
            os.dup2(sink.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def peak_training_mib(model: nn.Module, batch: Tensor, labels: Tensor, learning_rate: float) -> float:
    """Peak bytes held by torch's CPU allocator during one training step, above the step's start.

    The step is forward, cross-entropy, backward and an AdamW update on `batch`. A first,
    unmeasured step does the lazy set-up (kernels, the optimizer's moment buffers). The
    second runs under torch.profiler with memory events; the running sum of their sizes, in
    time order, peaks at the most the step ever held beyond what was live when it began.
    """
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        F.cross_entropy(model(batch), labels).backward()
        optimizer.step()

    step()
    with _quiet_stderr(), profile(activities=[ProfilerActivity.CPU], profile_memory=True) as profiled:
        step()
    events = sorted(
        (event.start_ns(), event.nbytes())
        for event in profiled.profiler.kineto_results.events() if event.name() == "[memory]"
    )
    live = peak = 0
    for _, size in events:
        live += size
        peak = max(peak, live)
    return peak / 2**20
