"""One PNG per experiment: quality, time, memory and counts against the varied factor.

Each panel draws one line per series (GRU / Transformer, global / chunked / masked); a
series with a single arm (the global model) is a single marker. Accuracy shows every seed
as a dot and the mean as the line, so the spread is visible without reading the table.
Linear axes start at 0 so that heights compare honestly; score elements span orders of
magnitude and use a log axis (arms without attention, at 0, are left out of that panel).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only; no display on a server or in CI
import matplotlib.pyplot as plt
from matplotlib.ticker import EngFormatter, LogLocator, MaxNLocator, NullFormatter

from .runner import ArmResult

Value = Callable[[ArmResult], float]

PANELS: tuple[tuple[str, Value | None], ...] = (
    ("test accuracy (line: mean, dots: seeds)", None),
    ("training time, s (solid: wall, dashed: CPU)", lambda r: sum(run.train_seconds for run in r.runs) / len(r.runs)),
    ("inference, ms per fixed batch", lambda r: r.costs.infer_ms),
    ("peak memory of one training step, MiB", lambda r: r.costs.peak_mib),
    ("layer calls (nn.Module calls per forward)", lambda r: r.costs.counts["module_calls"]),
    ("attention-module calls per forward", lambda r: r.costs.counts["attention_calls"]),
    ("function calls (recorded ops per forward)", lambda r: r.costs.counts["ops"]),
    ("score elements (solid: computed, dashed: visible)", lambda r: r.costs.counts["score_elements"]),
)
COUNT_PANELS = 4  # panels from this index on are integer counts


def _series(results: Sequence[ArmResult]) -> dict[str, list[ArmResult]]:
    grouped: dict[str, list[ArmResult]] = defaultdict(list)
    for result in results:
        if result.costs is not None and result.runs:
            grouped[result.variant.series].append(result)
    return {name: sorted(arms, key=lambda r: r.variant.factor) for name, arms in grouped.items()}


def _accuracy(axes: Any, name: str, arms: list[ArmResult], colour: str) -> None:
    xs = [arm.variant.factor for arm in arms]
    means = [sum(run.accuracy for run in arm.runs) / len(arm.runs) for arm in arms]
    axes.plot(xs, means, "o-", color=colour, label=name)
    for arm in arms:
        axes.scatter([arm.variant.factor] * len(arm.runs), [run.accuracy for run in arm.runs],
                     s=16, color=colour, alpha=0.5, zorder=3)


def _scores(axes: Any, arms: list[ArmResult], colour: str) -> None:
    """Computed table (solid) and visible entries (dashed, hollow), positive values only (log axis)."""
    for key, style in (("score_elements", "o-"), ("visible_scores", "s--")):
        points = [(arm.variant.factor, arm.costs.counts[key]) for arm in arms if (arm.costs.counts[key] or 0) > 0]
        if points:
            xs, ys = zip(*points)
            axes.plot(xs, ys, style, color=colour, markerfacecolor=colour if key == "score_elements" else "none")


def plot(plan: Any, results: Sequence[ArmResult], path: Path) -> None:
    """Write the experiment's figure (2 x 4 panels, legend below) to `path`."""
    series = _series(results)
    factors = sorted({arm.variant.factor for arms in series.values() for arm in arms})
    names = dict(plan.factor_names)
    colours = dict(zip(series, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    figure, grid = plt.subplots(2, 4, figsize=(17, 8.4), layout="constrained")
    for index, (axes, (title, value)) in enumerate(zip(grid.flat, PANELS)):
        for name, arms in series.items():
            if value is None:
                _accuracy(axes, name, arms, colours[name])
            elif index == len(PANELS) - 1:
                _scores(axes, arms, colours[name])
            else:
                xs = [arm.variant.factor for arm in arms]
                axes.plot(xs, [value(arm) for arm in arms], "o-", color=colours[name])
                if index == 1:
                    cpu = [sum(run.train_cpu_seconds for run in arm.runs) / len(arm.runs) for arm in arms]
                    axes.plot(xs, cpu, "s--", color=colours[name], markerfacecolor="none", alpha=0.8)
        if value is None:
            lowest = min((run.accuracy for arms in series.values() for arm in arms for run in arm.runs), default=0.5)
            axes.axhline(0.5, color="grey", linewidth=1, linestyle=":", label="chance (balanced test set)")
            axes.set_ylim(min(0.4, lowest - 0.03), 1.02)
        elif index == len(PANELS) - 1:
            if axes.has_data():
                axes.set_yscale("log")
                axes.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
                axes.yaxis.set_major_formatter(EngFormatter(sep=""))
                axes.yaxis.set_minor_formatter(NullFormatter())
        else:
            axes.set_ylim(bottom=0, top=max(axes.get_ylim()[1], 1))
            if index >= COUNT_PANELS:
                axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        if plan.log_x:
            axes.set_xscale("log", base=2)
            axes.minorticks_off()
        axes.set_xticks(factors, [names.get(factor, str(factor)) for factor in factors])
        for number, (label, x) in enumerate(plan.markers):
            axes.axvline(x, color="black", linestyle=("--", ":")[number % 2], linewidth=1, label=label)
        axes.set_title(title, fontsize=11)
        axes.set_xlabel(plan.factor_label, fontsize=9)
        axes.grid(alpha=0.3)
    handles, labels = grid.flat[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 6), fontsize=10, frameon=False)
    figure.suptitle(plan.title, fontsize=13)
    figure.savefig(path, dpi=110)
    plt.close(figure)
