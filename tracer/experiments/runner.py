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
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .measure import Costs, inference_ms, keep_freed_memory, peak_training_mib, traced_counts

# One intra-op thread: on a shared two-core machine, two OpenMP threads stall whenever another
# process takes a core, and trial runs of the same arm then varied threefold in time.
THREADS = 1

Split = tuple[Tensor, Tensor]  # tokens (N, T), labels (N,)
Advance = Callable[[str, int], None]  # (what is running, steps done since the last call)


@dataclass(frozen=True)
class SeedRun:
    seed: int
    accuracy: float
    train_seconds: float
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


def train(model: nn.Module, split: Split, training: Any, seed: int, advance: Advance, label: str) -> tuple[float, float]:
    """`training.steps` AdamW updates on batches drawn (with replacement) in the seed's order.

    Returns the wall time of the loop and the mean loss of its last tenth of updates: near
    ln 2 = 0.69 the arm did not even fit its training batches, near 0 it did.
    """
    tokens, labels = split
    order = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=training.learning_rate)
    model.train()
    losses = []
    start = time.perf_counter()
    for _ in range(training.steps):
        pick = torch.randint(0, len(labels), (training.batch_size,), generator=order)
        loss = F.cross_entropy(model(tokens[pick]), labels[pick])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())
        advance(label, 1)
    seconds = time.perf_counter() - start
    tail = losses[-max(1, len(losses) // 10):]
    return seconds, float(torch.stack(tail).mean())


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


def measure(variant: Any, test: Split, training: Any) -> Costs:
    """Counts, inference time and peak training memory on the fixed batch (the test split's first samples)."""
    torch.manual_seed(0)
    model = variant.build()
    batch, labels = test[0][: training.batch_size], test[1][: training.batch_size]
    return Costs(
        parameters=sum(parameter.numel() for parameter in model.parameters()),
        infer_ms=inference_ms(model, batch),
        peak_mib=peak_training_mib(copy.deepcopy(model), batch, labels, training.learning_rate),
        counts=traced_counts(model, batch),
    )


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
    for result in results:
        if not result.variant.invalid:
            advance(f"{result.variant.label}: measuring", 0)
            result.costs = measure(result.variant, splits_for(result.variant.task, plan.training, cache)[1], plan.training)
    for seed in seeds:
        for result in results:
            variant = result.variant
            if variant.invalid:
                continue
            train_split, test_split = splits_for(variant.task, plan.training, cache)
            torch.manual_seed(seed)
            model = variant.build()
            seconds, loss = train(model, train_split, plan.training, seed, advance, f"{variant.label} seed {seed}")
            result.runs.append(SeedRun(seed, accuracy(model, test_split), seconds, loss))
    return results
