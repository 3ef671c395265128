"""What an experiment is, as plain data: the arms to compare and the training they all share.

`models` must not import `tracer`, and `tracer` must not import `models` (CONTRACT.md), so
this is the whole interface between them: the runner in `experiments` receives a
`Plan` through the entry-point group "attnscope.experiments" and only ever reads these
fields and calls `Variant.build`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from torch import nn

from .tasks import RepeatTask


@dataclass(frozen=True)
class Training:
    """Held fixed across every arm: the same number of updates of the same size, the same splits."""

    steps: int
    batch_size: int
    learning_rate: float
    train_size: int
    test_size: int
    data_seed: int = 1234  # train split from data_seed, test split from data_seed + 1


@dataclass(frozen=True)
class Variant:
    """One arm of a comparison.

    `factor` is the value of the varied quantity (the x axis of the plots); `series` names
    the line it belongs to; `columns` are the design facts shown in the table (T, H, window,
    whether the dependency is visible...). `invalid` says why the arm cannot be built (for
    instance d % H != 0); such an arm is reported, never trained, and `build` (and `task`,
    where there is none to name) is None.
    """

    label: str
    series: str
    factor: int
    task: RepeatTask | None
    build: Callable[[], nn.Module] | None
    columns: dict[str, Any] = field(default_factory=dict)
    invalid: str = ""


@dataclass(frozen=True)
class Plan:
    """A whole experiment: its arms, their shared training, and how to plot them."""

    name: str
    title: str
    question: str
    factor_label: str
    variants: tuple[Variant, ...]
    training: Training
    log_x: bool = True
    markers: tuple[tuple[str, float], ...] = ()  # vertical reference lines on the plots: (label, x)
    factor_names: tuple[tuple[int, str], ...] = ()  # tick labels other than the number, e.g. (T, "64 (global)")


@dataclass(frozen=True)
class Experiment:
    """A named experiment; `plan(quick, values)` lays out its arms (`values` overrides the varied factor)."""

    name: str
    summary: str
    plan: Callable[[bool, Sequence[int] | None], Plan]
