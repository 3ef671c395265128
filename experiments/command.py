"""`attnscope experiment NAME`: the course's comparison experiments (exercises 8-10), run and reported.

NAME is gru-vs-transformer, heads or window (any catalogue registered under the entry-point
group "attnscope.experiments" may add more). Training runs on the CPU with a progress bar
on stderr; the table is printed on stdout and written with the plots to --out.

The command reaches `attnscope` through the entry-point group "attnscope.commands", as the
TUI's do: the experiments are an application of the tracer, not part of it. Everything
heavy (torch, the runner) is imported when the command runs, not when `attnscope` starts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracer.commands.common import OK, USAGE, Command, error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="EXPERIMENT", help="gru-vs-transformer, heads or window")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke test of the same code path: tiny sizes and few updates, numbers not meaningful")
    parser.add_argument("--seeds", type=int, nargs="+", metavar="SEED",
                        help="model seeds, the same set for every arm (default: 0 1 2; with --quick: 0)")
    parser.add_argument("--values", type=int, nargs="+", metavar="N",
                        help="override the varied factor: lengths T (gru-vs-transformer), head counts H (heads) "
                             "or window widths w (window)")
    parser.add_argument("--out", type=Path, default=Path("attnscope-experiments"),
                        help="folder for NAME.md, NAME.csv and NAME.png (default: ./attnscope-experiments)")


def run(options: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from . import load_experiments, run_experiment
    from .report import print_table

    experiments = load_experiments()
    experiment = experiments.get(options.name)
    if experiment is None:
        listing = "; ".join(f"{name} ({entry.summary})" for name, entry in experiments.items())
        error(f"no experiment named {options.name!r}; choose one of: {listing}")
        return USAGE
    seeds = options.seeds or ([0] if options.quick else [0, 1, 2])
    plan = experiment.plan(options.quick, options.values)
    total = len(seeds) * plan.training.steps * sum(not variant.invalid for variant in plan.variants)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        bar = progress.add_task(f"{plan.name}", total=total)

        def advance(label: str, steps: int) -> None:
            progress.update(bar, advance=steps, description=f"{plan.name}: {label}")

        outcome = run_experiment(plan, quick=options.quick, seeds=seeds, out=options.out, advance=advance)
    wide = None if sys.stdout.isatty() else 200  # a pipe or a log gets the whole table, not a squeezed one
    print_table(Console(file=sys.stdout, highlight=False, width=wide), outcome.plan, outcome.rows, seeds, options.quick)
    print("wrote " + ", ".join(str(path) for path in outcome.files))
    for reason in outcome.invalid:
        error(f"{plan.name}: {reason}; that arm was not run")
    return USAGE if outcome.invalid else OK


COMMAND = Command("experiment", "run one of the course's comparison experiments (exercises 8-10) on the CPU",
                  add_arguments, run)
