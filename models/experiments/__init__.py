"""The course's comparison experiments (exercises 8-10) in plain PyTorch: tasks, models, plans.

Nothing here imports `tracer`; the runner in `experiments` finds these plans through
the entry-point group "attnscope.experiments" (see pyproject.toml), as the zoo is found
through "attnscope.zoo".
"""

from __future__ import annotations

from .design import Experiment, Plan, Training, Variant
from .plans import EXPERIMENTS
from .tasks import RepeatTask
from .window import SlidingWindowAttention, window_classifier


def catalogue() -> dict[str, Experiment]:
    """Every experiment by name, in the course's order."""
    return {experiment.name: experiment for experiment in EXPERIMENTS}


__all__ = [
    "Experiment", "Plan", "RepeatTask", "SlidingWindowAttention", "Training", "Variant", "catalogue",
    "window_classifier",
]
