"""One row per arm, written as Markdown and CSV and printed as a terminal table.

Accuracy is the mean over seeds with its sample standard deviation and every seed's value,
so the spread is always in the table next to the mean. Times are means over seeds (train)
or the fastest of 30 passes (inference); memory and counts are seed-independent.
"""

from __future__ import annotations

import csv
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .measure import COUNTS
from .runner import THREADS, ArmResult

METRICS = ("params", "accuracy", "acc_std", "acc_by_seed", "train_loss", "train_s", "train_cpu_s", "infer_ms", "peak_mib", *COUNTS, "note")

# The design facts of the arms (what varies and what is held), in words: "D" is the task's
# lag, not the model width d, which a bare "D" next to "fixed d = 32" would suggest.
DESIGN_DEFINITIONS = {
    "T": "sequence length",
    "D": "lag of the task: class 1 repeats x[t] = x[t-D], so a model must relate positions D apart (not the width d)",
    "H": "attention heads",
    "d_head": "width of one head, d / H",
    "model": "which model",
    "width": "hidden width: d for the Transformer, the state size for the GRU (chosen to match the parameter count)",
    "window": "keys each query reads (global: all T)",
    "method": "how the window is computed: chunked blocks of w queries against 2w keys, a masked T x T table, or global",
    "reach": "how far back the stacked layers can see: layers x (w - 1)",
    "dependency": "where x[t-D] lies for that window",
}
LABELS = {"D": "lag D"}  # a column's heading where its key alone would mislead

DEFINITIONS = {
    "accuracy": "test accuracy, mean over seeds (acc_std: sample standard deviation, empty for one seed; acc_by_seed: each seed)",
    "train_loss": "training loss over the last tenth of the updates, mean over seeds (ln 2 = 0.693 is guessing)",
    "train_s": "wall time of the training loop, mean over seeds",
    "train_cpu_s": "CPU time of the same loop (one thread: leaves out waiting for a core other processes hold)",
    "infer_ms": "fastest of 30 eval forward passes on the fixed batch, no gradients, arms timed in turns",
    "peak_mib": "peak MiB held by torch's CPU allocator in one training step on the fixed batch (torch.profiler memory events)",
    "module_calls": "layer calls: every nn.Module call in one forward pass of the fixed batch, as recorded",
    "attention_calls": "module calls in which the tracer found an attention block",
    "ops": "function calls: torch functions and tensor methods the tracer recorded",
    "score_elements": "tracer's score_elements: sum over attention blocks of the score table it recorded (m x H x T_q x T_k as computed)",
    "visible_scores": "entries of those tables that no mask hides before the softmax: m x H x (visible keys summed over queries)",
}


def design_columns(plan: Any) -> list[str]:
    """The design facts of the arms (T, H, window...), in the order the plan first names them."""
    names: list[str] = []
    for variant in plan.variants:
        names.extend(name for name in variant.columns if name not in names)
    return names


def table_rows(plan: Any, results: Sequence[ArmResult]) -> list[dict[str, Any]]:
    rows = []
    for result in results:
        variant = result.variant
        row: dict[str, Any] = {"arm": variant.label, **{name: variant.columns.get(name, "") for name in design_columns(plan)}}
        row.update({name: "" for name in METRICS})
        if variant.invalid or result.costs is None:
            row["note"] = variant.invalid or "not run"
            rows.append(row)
            continue
        scores = [run.accuracy for run in result.runs]
        row.update(
            params=result.costs.parameters,
            accuracy=statistics.fmean(scores) if scores else "",
            acc_std=statistics.stdev(scores) if len(scores) > 1 else "",  # undefined for one seed
            acc_by_seed=" ".join(f"{score:.3f}" for score in scores),
            train_loss=statistics.fmean(run.train_loss for run in result.runs) if scores else "",
            train_s=statistics.fmean(run.train_seconds for run in result.runs) if scores else "",
            train_cpu_s=statistics.fmean(run.train_cpu_seconds for run in result.runs) if scores else "",
            infer_ms=result.costs.infer_ms,
            peak_mib=result.costs.peak_mib,
            **{name: result.costs.counts.get(name) for name in COUNTS},
        )
        rows.append(row)
    return rows


def shown(value: Any, column: str) -> str:
    """A cell as people read it: 3 decimals for accuracy and loss, 2 for times and MiB, thousands separators."""
    if value is None:
        return "unknown"
    if isinstance(value, bool) or value == "":
        return str(value)
    if isinstance(value, float):
        return f"{value:.3f}" if column.startswith("acc") or column.endswith("loss") else f"{value:,.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def label(column: str) -> str:
    """The heading people read for a table column (the CSV keeps the short key)."""
    return LABELS.get(column, column)


def column_notes(rows: list[dict[str, Any]]) -> list[str]:
    """`- heading: meaning` for every column of `rows` that has a definition, in table order."""
    meanings = {**DESIGN_DEFINITIONS, **DEFINITIONS}
    return [f"- `{label(name)}`: {meanings[name]}" for name in rows[0] if name in meanings]


def write_csv(rows: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def markdown_table(rows: list[dict[str, Any]]) -> str:
    columns = list(rows[0])
    lines = ["| " + " | ".join(label(column) for column in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(shown(row[column], column) for column in columns) + " |" for row in rows]
    return "\n".join(lines)


QUICK_CAVEAT = "--quick (a smoke test: too few updates for the numbers to mean anything)"


def settings_lines(plan: Any, seeds: Sequence[int], quick: bool) -> list[str]:
    training = plan.training
    tasks = dict.fromkeys(variant.task.describe() for variant in plan.variants if not variant.invalid)
    mode = QUICK_CAVEAT if quick else "full"
    return [
        f"- mode: {mode}; seeds: {' '.join(map(str, seeds))}",
        (f"- training: {training.steps} AdamW updates of {training.batch_size} samples, lr {training.learning_rate}; "
         f"{training.train_size} training and {training.test_size} test sequences per task "
         f"(data seed {training.data_seed})"),
        f"- fixed batch for counts, inference time and memory: the first {training.batch_size} test sequences",
        f"- CPU: torch {torch.__version__}, {THREADS} intra-op thread(s)",
        *(f"- task: {task}" for task in tasks),
    ]


def write_markdown(plan: Any, rows: list[dict[str, Any]], seeds: Sequence[int], quick: bool, path: Path, plot: str) -> None:
    text = [f"# {plan.title}", "", plan.question, "", *settings_lines(plan, seeds, quick), "",
            markdown_table(rows), "", f"![{plan.title}]({plot})", "", "Columns:", "", *column_notes(rows)]
    path.write_text("\n".join(text) + "\n")


def print_table(console: Console, plan: Any, rows: list[dict[str, Any]], seeds: Sequence[int], quick: bool) -> None:
    """The markdown report on a terminal: the same settings and caveats, the same headings and notes.

    The table is turned on its side, one column per arm: arms are few and fields many, so it
    fits a terminal.
    """
    console.print(Text(plan.title, style="bold"))
    console.print(plan.question)
    for line in settings_lines(plan, seeds, quick):
        console.print(Text(line, style="bold yellow" if QUICK_CAVEAT in line else ""))
    table = Table("", *(row["arm"] for row in rows))
    for field in list(rows[0])[1:]:
        if field == "acc_std":
            continue
        cells = [shown(row[field], field) for row in rows]
        if field == "accuracy":
            cells = [cell + (f" ± {row['acc_std']:.3f}" if row["acc_std"] != "" else "") for cell, row in zip(cells, rows)]
        table.add_row(label(field), *cells)
    console.print(table)
    console.print("Columns:")
    for note in column_notes(rows):
        console.print(Text(note.replace("`", ""), style="dim"))
