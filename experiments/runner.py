"""Train and evaluate every arm of a plan under the same protocol.

Held fixed across arms: the data splits (generated once per task from the plan's data
seed), the number of updates, the samples per update, the optimizer and learning rate, and
the set of seeds. A seed fixes the model's initialization (torch.manual_seed before
building) and the order of the training batches (its own generator), so two arms trained
with the same seed see the same batches in the same order.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .measure import (
    Costs,
    inference_ms,
    keep_freed_memory,
    peak_training_mib,
    traced_counts,
)

# One intra-op thread: on a shared two-core machine, two OpenMP threads stall whenever another
# process takes a core, and the same arm's time per update then varied severalfold between repeats.
THREADS = 1

Split = tuple[Tensor, Tensor]  # tokens (N, T), labels (N,)
Advance = Callable[[str, int], None]  # (what is running, steps done since the last call)


@dataclass(frozen=True)
class SeedRun:
    seed: int
    accuracy: float
    train_seconds: float
    train_cpu_seconds: float
    train_loss: float  # mean over the last tenth of the updates


@dataclass
class ArmResult:
    """One arm: its variant (a `models.experiments.Variant`), costs, and one run per seed."""

    variant: Any
    costs: Costs | None = None
    runs: list[SeedRun] = field(default_factory=list)


def splits_for(task: Any, training: Any, cache: dict[Any, tuple[Split, Split]]) -> tuple[Split, Split]:
    """The train and test split of `task`, the same for every arm and seed."""
    if task not in cache:
        cache[task] = (task.sample(training.train_size, training.data_seed),
                       task.sample(training.test_size, training.data_seed + 1))
    return cache[task]


def train(
    model: nn.Module, split: Split, training: Any, seed: int, advance: Advance, label: str,
) -> tuple[tuple[float, float], float]:
    """`training.steps` AdamW updates on batches drawn (with replacement) in the seed's order.

    Returns (wall seconds, CPU seconds) of the loop and the mean loss of its last tenth of
    updates: near ln 2 = 0.69 the arm did not even fit its training batches, near 0 it did.
    With one thread, CPU time leaves out the waits for a core that other processes hold.
    """
    tokens, labels = split
    order = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=training.learning_rate)
    model.train()
    losses = []
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(training.steps):
        pick = torch.randint(0, len(labels), (training.batch_size,), generator=order)
        loss = F.cross_entropy(model(tokens[pick]), labels[pick])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())
        advance(label, 1)
    timing = (time.perf_counter() - start, time.process_time() - cpu_start)
    tail = losses[-max(1, len(losses) // 10):]
    return timing, float(torch.stack(tail).mean())


def accuracy(model: nn.Module, split: Split, chunk: int = 256) -> float:
    """Fraction of the split classified correctly, in eval mode."""
    tokens, labels = split
    model.eval()
    correct = 0
    with torch.no_grad():
        for begin in range(0, len(labels), chunk):
            guesses = model(tokens[begin:begin + chunk]).argmax(dim=-1)
            correct += int((guesses == labels[begin:begin + chunk]).sum())
    return correct / len(labels)


def measure(variants: Sequence[Any], tests: Sequence[Split], training: Any, advance: Advance) -> list[Costs]:
    """Counts, peak training memory and inference time of each arm on its fixed batch (first test samples).

    Models are built from seed 0; counts and memory do not depend on the weights' values.
    """
    probes, costs = [], []
    for variant, (tokens, labels) in zip(variants, tests):
        advance(f"{variant.label}: measuring", 0)
        torch.manual_seed(0)
        model = variant.build()
        batch = tokens[: training.batch_size]
        probes.append((model, batch))
        costs.append(Costs(
            parameters=sum(parameter.numel() for parameter in model.parameters()),
            infer_ms=float("nan"),
            peak_mib=peak_training_mib(copy.deepcopy(model), batch, labels[: training.batch_size], training.learning_rate),
            counts=traced_counts(model, batch),
        ))
    advance("timing inference", 0)
    return [replace(cost, infer_ms=ms) for cost, ms in zip(costs, inference_ms(probes))]


def run_plan(plan: Any, seeds: Sequence[int], advance: Advance) -> list[ArmResult]:
    """Measure, then train and evaluate once per seed, every valid arm of `plan`; invalid arms stay empty."""
    keep_freed_memory()
    threads = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    try:
        return _run(plan, seeds, advance)
    finally:
        torch.set_num_threads(threads)


def _run(plan: Any, seeds: Sequence[int], advance: Advance) -> list[ArmResult]:
    cache: dict[Any, tuple[Split, Split]] = {}
    results = [ArmResult(variant) for variant in plan.variants]
    valid = [result for result in results if not result.variant.invalid]
    tests = [splits_for(result.variant.task, plan.training, cache)[1] for result in valid]
    for result, costs in zip(valid, measure([result.variant for result in valid], tests, plan.training, advance)):
        result.costs = costs
    for seed in seeds:  # seed by seed, every arm in turn: a busy spell on the machine hits all arms
        for result in valid:
            variant = result.variant
            train_split, test_split = splits_for(variant.task, plan.training, cache)
            torch.manual_seed(seed)
            model = variant.build()
            timing, loss = train(model, train_split, plan.training, seed, advance, f"{variant.label} seed {seed}")
            result.runs.append(SeedRun(seed, accuracy(model, test_split), *timing, loss))
    return results
