"""`attnscope stats` as people read it: fits 80 columns, module paths keep their ends, counts in words."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from tracer.cli import main
from tracer.commands.common import trace_target
from tracer.commands.stats import elide_middle, findings_line, print_stats, with_counts
from tracer.targets import isolated


def stats_text(spec: str, width: int) -> str:
    with isolated():
        report, recorded = trace_target(spec)
    console = Console(file=io.StringIO(), width=width, highlight=False, color_system=None)
    print_stats(console, spec, with_counts(report.to_dict()["summary"], recorded.recording), report.notes)
    return console.file.getvalue()


def test_eighty_columns_keep_every_block_apart() -> None:
    text = stats_text("zoo:ref_encoder_decoder", 80)
    assert max(len(line) for line in text.splitlines()) <= 80
    table = text[text.index("Attention blocks"):]
    modules = [row.split("│")[1].strip() for row in table.splitlines() if row.startswith("│") and row.split("│")[1].strip()]
    assert modules == ["encoder.layers.0.self_attn", "encoder.layers.1.self_attn", "decoder.layers.0.self_attn",
                       "decoder.layers.0.cross_attn", "decoder.layers.1.self_attn", "decoder.layers.1.cross_attn"]
    assert "Tq_tgt_tokens=5" in table and "Tk_src_tokens=7" in table
    assert "(float32 scores)" in table


def test_narrower_terminals_shorten_the_middle_of_a_path() -> None:
    paths = ["encoder.layers.10.self_attn", "encoder.layers.11.self_attn", "decoder.layers.1.cross_attn"]
    for width in (22, 16):
        shortened = [elide_middle(path, width) for path in paths]
        assert all(len(short) <= width for short in shortened)
        assert len(set(shortened)) == len(paths)
        assert [short.rsplit(".", 2)[-2:] for short in shortened] == [["10", "self_attn"], ["11", "self_attn"], ["1", "cross_attn"]]
    assert elide_middle("encoder.layers.11.self_attn", 22) == "encoder.l.11.self_attn"
    assert elide_middle("layers.0", 40) == "layers.0"


@pytest.mark.parametrize("counts, said", [
    ({"error": 1, "warning": 2, "info": 0}, "1 error, 2 warnings"),
    ({"error": 3, "warning": 1, "info": 1}, "3 errors, 1 warning, 1 info"),
    ({"error": 0, "warning": 0, "info": 0}, "none"),
])
def test_findings_are_counted_in_words(counts: dict[str, int], said: str) -> None:
    assert findings_line(counts) == said


def test_stats_command_says_what_it_found(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "zoo:softmax_axis_query"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"│ findings\s+│ 1 error\s+│", out), out
    assert "0 warning" not in out


def test_the_score_size_is_labelled_in_the_axis_names_of_the_blocks_table() -> None:
    text = stats_text("zoo:exercise4", 100)
    overview, blocks = text[:text.index("Ops by kind")], text[text.index("Attention blocks"):]
    assert "score elements (B×H×Tq×Tk)" in overview and "m×" not in overview
    assert "B=8 × H=8 × Tq=128 × Tk=128" in blocks  # the same names, with their sizes
