"""`attnscope stats TARGET`: what one forward pass did and what its attention scores cost.

The score table (B x H x Tq x Tk per attention block, in the axis names the rest of the
report uses) is what dominates attention's memory, so its size is shown next to the op and
module counts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..events import Recording
from .common import OK, USAGE, Command, add_layout_argument, trace_apart


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="TARGET", help="path/to/file.py:NAME, notebook.ipynb[:NAME], dotted.module:NAME or zoo:NAME")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    add_layout_argument(parser)


def with_counts(summary: dict[str, Any], recording: Recording) -> dict[str, Any]:
    """The analysis summary, with op and module tallies from the recording where it lacks them."""
    summary = dict(summary)
    summary.setdefault("ops_by_kind", dict(Counter(event.op for event in recording.events).most_common()))
    summary.setdefault(
        "module_calls_by_type", dict(Counter(call.type_name for call in recording.module_calls).most_common())
    )
    return summary


def human_bytes(count: int) -> str:
    size = float(count)
    for unit in ("B", "KiB", "MiB"):
        if size < 1024:
            return f"{count} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GiB"


def plural(count: int, word: str) -> str:
    """`1 error`, `2 errors`, `0 warnings`."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def findings_line(counts: dict[str, int]) -> str:
    """`2 errors, 1 warning`: only the severities that occur; `none` when nothing was found."""
    shown = [plural(count, severity) for severity, count in counts.items() if count]
    return ", ".join(shown) or "none"


def elide_middle(path: str, width: int) -> str:
    """A dotted module path shortened to `width` from its middle, keeping its distinctive end.

    Middle names shrink to their first letter first (`encoder.layers.11.self_attn` ->
    `encoder.l.11.self_attn` -> `e.l.11.self_attn`); layer numbers and the module's own
    name stay, where cutting the end would leave identical rows.
    """
    parts = path.split(".")
    order = list(range(1, len(parts) - 1)) + [0]  # the middle first, then the start; never the end
    for index in order:
        if len(".".join(parts)) <= width:
            break
        if not parts[index].isdigit():
            parts[index] = parts[index][:1]
    shortened = ".".join(parts)
    return shortened if len(shortened) <= width else "…" + shortened[-max(width - 1, 1):]


def _counts_table(title: str, column: str, counts: dict[str, int]) -> Table:
    table = Table(column, "count", title=title, title_justify="left")
    for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        table.add_row(name, str(count))
    return table


def _blocks_table(blocks: list[dict[str, Any]], width: int) -> Table:
    """One row per attention block; the module path keeps its end, the score axes wrap between axes."""
    dtypes = {str(block.get("dtype", "")) for block in blocks}
    title = "Attention blocks" + (f" ({dtypes.pop()} scores)" if len(dtypes) == 1 else "")
    columns = ["module", "score table", "elements", "bytes"] + (["dtype"] if len(dtypes) > 1 else [])
    paths = [block.get("module") or "(top level)" for block in blocks]
    module_width = max(16, min(max(map(len, paths)), width - 50))
    table = Table(*columns, title=title, title_justify="left")
    table.columns[0].no_wrap = True
    for path, block in zip(paths, blocks):
        sizes, names = block.get("shape", ()), block.get("axes", ())
        axes = " × ".join(f"{name}={size}" for name, size in zip(names, sizes)) if len(names) == len(sizes) else \
            "×".join(str(size) for size in sizes)
        row = [elide_middle(path, module_width), axes, f"{block.get('elements', 0):,}", human_bytes(block.get("bytes", 0))]
        if len(columns) == 5:
            row.append(str(block.get("dtype", "")))
        table.add_row(*row)
    return table


def print_stats(console: Console, target: str, summary: dict[str, Any], notes: list[str]) -> None:
    overview = Table(show_header=False, title=Text(target), title_justify="left")
    overview.add_row("ops", f"{summary.get('ops', 0):,}")
    overview.add_row("module calls", f"{summary.get('modules', 0):,}")
    overview.add_row("attention blocks", f"{summary.get('attention_blocks', 0):,}")
    overview.add_row("score elements (B×H×Tq×Tk)", f"{summary.get('score_elements', 0):,}")
    score_bytes = summary.get("score_bytes", 0)
    overview.add_row("score bytes", f"{score_bytes:,} ({human_bytes(score_bytes)})")
    overview.add_row("findings", findings_line(summary.get("findings", {})))
    console.print(overview)
    console.print(_counts_table("Ops by kind", "op", summary["ops_by_kind"]))
    console.print(_counts_table("Module calls by type", "module type", summary["module_calls_by_type"]))
    if summary.get("blocks"):
        console.print(_blocks_table(summary["blocks"], console.width))
    for note in notes:
        console.print(f"note: {note}", markup=False)


def run(options: argparse.Namespace) -> int:
    # the target's own output is framed under its name, on standard error under --json
    traced = trace_apart(options.target, layout=options.layout, output_to=sys.stderr if options.json else None)
    if traced is None:
        return USAGE
    report, recorded = traced
    summary = with_counts(report.to_dict()["summary"], recorded.recording)
    if options.json:
        print(json.dumps({"target": options.target, **summary}))
    else:
        print_stats(Console(file=sys.stdout, highlight=False), options.target, summary, report.notes)
    return OK


COMMAND = Command("stats", "count the ops, modules and attention-score memory of one forward pass", add_arguments, run)
