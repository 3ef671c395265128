"""Run the course's comparison experiments (exercises 8-10) and report them with the tracer's counts.

An application of the tracer, beside `tui`, not part of it: `tracer` holds record → axes →
graph → checks → present and the CLI, and finds this package's `attnscope experiment`
command through the entry-point group "attnscope.commands". The experiments themselves
(tasks, models, which arms) are plain PyTorch in `models.experiments`, found through the
group "attnscope.experiments" so other catalogues can add theirs. This package trains every
arm under one protocol (`runner`), measures it (`measure`, with counts from a traced forward
pass) and writes the table and plots (`report`, `plots`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tracer.targets import TargetError

if TYPE_CHECKING:  # torch comes with them: imported where an experiment runs, not for `attnscope --help`
    from .runner import Advance, ArmResult

GROUP = "attnscope.experiments"


@dataclass(frozen=True)
class Outcome:
    """A finished experiment: its plan, every arm's results, the table rows and the files written."""

    plan: Any
    results: list[ArmResult]
    rows: list[dict[str, Any]]
    files: tuple[Path, ...]

    @property
    def invalid(self) -> list[str]:
        """Why each arm that could not be built was skipped (e.g. d % H != 0)."""
        return [variant.invalid for variant in self.plan.variants if variant.invalid]


def load_experiments() -> dict[str, Any]:
    """Every experiment by name, merged over the catalogues registered under "attnscope.experiments"."""
    merged: dict[str, Any] = {}
    for point in entry_points(group=GROUP):
        try:
            merged.update(point.load()())
        except Exception as error:  # noqa: BLE001 - a broken plug-in is a one-line error, not a traceback
            raise TargetError(f"experiment catalogue {point.name} ({point.value}) failed to load: {error}") from None
    return merged


def run_experiment(
    plan: Any, *, quick: bool, seeds: Sequence[int], out: Path, advance: Advance = lambda label, steps: None,
) -> Outcome:
    """Run and report one plan (`Experiment.plan(quick, values)`); writes NAME.md, NAME.csv and NAME.png into `out`."""
    from .plots import (
        plot,  # matplotlib takes a while to import: only experiments pay for it
    )
    from .report import table_rows, write_csv, write_markdown
    from .runner import run_plan

    results = run_plan(plan, seeds, advance)
    rows = table_rows(plan, results)
    out.mkdir(parents=True, exist_ok=True)
    markdown, table, figure = (out / f"{plan.name}{suffix}" for suffix in (".md", ".csv", ".png"))
    write_csv(rows, table)
    plot(plan, results, figure)
    write_markdown(plan, rows, seeds, quick, markdown, figure.name)
    return Outcome(plan, results, rows, (markdown, table, figure))


__all__ = ["GROUP", "Outcome", "load_experiments", "run_experiment"]
