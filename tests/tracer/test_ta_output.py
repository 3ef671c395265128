"""What a teaching assistant reads: the second walk-through of issue 20, its findings fixed.

`render` and `stats` keep a submission's own output apart as `check` does; `render` refuses a
wrong option before it traces; a submission with no attention says so; the failure kind
"target" reads as words; `print(tracer.check(...))` names the model; the small messages.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import torch
from torch import nn

import tracer
from tracer.cli import main
from tracer.analysis import NO_ATTENTION

LINEAR = """
import os
import torch
from torch import nn


def build():
    print("\\x1b[31mloading the weights\\x1b[0m\\r")  # a student's colours and carriage return
    os.write(1, b"from C: done\\n")  # written below Python, on file descriptor 1
    return nn.Linear(4, 4), torch.randn(2, 4)
"""

ATTENTION = """
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        scores = self.q(x) @ self.k(x).transpose(-2, -1) / 8 ** 0.5
        return torch.softmax(scores, dim=-1) @ self.v(x)


def build():
    return Attention().eval(), torch.randn(2, 5, 8)
"""


def write(folder: Path, name: str, body: str) -> str:
    (folder / name).write_text(textwrap.dedent(body))
    return f"{folder / name}:build"


def run(capfd: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capfd.readouterr()
    return status, out, err


# ----------------------------------------------------------------------------- render and stats keep output apart
def test_render_frames_what_the_target_prints(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    target = write(tmp_path, "noisy.py", LINEAR)
    status, out, err = run(capfd, "render", target, "-o", str(tmp_path / "noisy.dot"))
    assert status == 0, err
    assert "\x1b" not in out and "\r" not in out  # the student's escape codes never reach the terminal
    assert out.splitlines() == [f"{target}: output (2 lines):", "  | loading the weights", "  | from C: done",
                                f"wrote {tmp_path / 'noisy.dot'}"]


def test_stats_frames_it_too_and_keeps_json_alone_on_stdout(tmp_path: Path,
                                                             capfd: pytest.CaptureFixture[str]) -> None:
    target = write(tmp_path, "noisy.py", LINEAR)
    status, out, err = run(capfd, "stats", "--json", target)
    assert status == 0 and json.loads(out)["ops"] == 1  # nothing else on standard output
    assert err.splitlines()[:2] == [f"{target}: output (2 lines):", "  | loading the weights"]
    status, out, _ = run(capfd, "stats", target)
    assert status == 0 and "\x1b[31m" not in out and out.startswith(f"{target}: output (2 lines):\n")


def test_a_target_that_cannot_load_shows_its_output_under_the_error(tmp_path: Path,
                                                                    capfd: pytest.CaptureFixture[str]) -> None:
    target = write(tmp_path, "fails.py", "def build():\n    print('reading data.pt')\n    open('/nowhere/data.pt')\n")
    status, out, err = run(capfd, "render", target, "-o", str(tmp_path / "x.svg"))
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith(f"attnscope: error: {target}: calling build() raised FileNotFoundError")
    assert lines[1:] == [f"{target}: output (1 line):", "  | reading data.pt"]


# ----------------------------------------------------------------------------- render checks its options first
@pytest.mark.parametrize(("options", "said"), [
    (["-o", "{tmp}/x.jpg"], "cannot tell the format from .jpg: use one of .svg, .png, .pdf, .dot, .gv, .graphml, .json"),
    (["-o", "{tmp}/nowhere/x.svg"], "no such folder"),
    (["-o", "{tmp}/x.svg", "--depth", "-1"], "--depth -1: the depth is a whole number >= 0"),
    (["-o", "{tmp}/x.svg", "--theme", "purple"], "--theme purple: the themes are light and dark"),
    (["-o", "{tmp}"], "cannot tell the format from no suffix"),
])
def test_render_refuses_a_wrong_option_before_it_traces(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch, options: list[str],
                                                        said: str) -> None:
    import tracer.commands.common as common

    def not_now(*_: object, **__: object) -> None:
        raise AssertionError("traced before the options were checked")

    monkeypatch.setattr(common, "trace_target", not_now)
    status, out, err = run(capfd, "render", "zoo:softmax_axis_query", *(o.format(tmp=tmp_path) for o in options))
    assert status == 2 and out == "" and said in err and len(err.splitlines()) == 1, err


def test_render_writes_dot_as_gv(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capfd, "render", "zoo:softmax_axis_query", "-o", str(tmp_path / "a.gv"), "--depth", "0")
    assert status == 0 and (tmp_path / "a.gv").read_text().startswith("digraph")


def test_renders_options_known_early_are_the_renderers_own() -> None:
    from tracer.commands import render as command
    from tracer.render import model, output

    assert {suffix.lstrip(".") for suffix in command.SUFFIXES} == set(output.SUFFIXES) >= set(output.FORMATS)
    assert command.THEMES == model.THEMES
    with pytest.raises(model.RenderError, match=r"\.dot, \.gv, \.graphml"):
        output.format_of("x.jpg")


# ----------------------------------------------------------------------------- no attention at all
def test_a_submission_without_attention_says_so(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    linear = write(tmp_path, "linear.py", LINEAR)
    attention = write(tmp_path, "attention.py", ATTENTION)
    status, out, _ = run(capfd, "check", linear)
    assert status == 0
    assert f"{linear}: note: {NO_ATTENTION}" in out.splitlines()
    assert out.splitlines()[-1] == f"{linear}: no findings (1 op, 0 attention blocks)"
    status, out, _ = run(capfd, "check", "--json", linear, attention)
    with_none, with_one = (json.loads(line) for line in out.splitlines())
    assert NO_ATTENTION in with_none["notes"] and NO_ATTENTION not in with_one.get("notes", [])
    status, out, _ = run(capfd, "check", linear, attention)
    assert out.splitlines()[-1] == "2 submissions: 2 clean (1 with no attention block)"


def test_the_python_api_says_it_too() -> None:
    """`tracer.check` in a notebook or a course's own tests: the same note as the command line."""
    import torch

    import tracer

    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU()).eval()
    assert NO_ATTENTION in tracer.check(model, torch.randn(2, 4)).notes
    attention = torch.nn.MultiheadAttention(4, 1, batch_first=True).eval()
    x = torch.randn(2, 3, 4)
    assert NO_ATTENTION not in tracer.check(attention, x, x, x).notes


def test_a_forward_that_raised_before_its_attention_gets_no_such_note(tmp_path: Path,
                                                                      capfd: pytest.CaptureFixture[str]) -> None:
    broken = write(tmp_path, "broken.py", ATTENTION.replace(".transpose(-2, -1)", ""))
    status, out, _ = run(capfd, "check", "--json", broken)
    result = json.loads(out)
    assert status == 1 and [f["code"] for f in result["findings"]] == ["shape-error"]
    assert NO_ATTENTION not in result.get("notes", [])  # the shape-error says why it met none


def test_the_report_counts_them_too(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # short targets: each row of the table on one line
    write(tmp_path, "linear.py", LINEAR)
    write(tmp_path, "attention.py", ATTENTION)
    results = tmp_path / "results.jsonl"
    run(capfd, "check", "--results", str(results), "linear.py:build", "attention.py:build")
    status, out, _ = run(capfd, "report", str(results))
    assert status == 0 and out.splitlines()[0] == "2 submissions: 2 clean (1 with no attention block)"
    row = next(line for line in out.splitlines() if "linear.py:build" in line)
    assert "no attention block" in row
    run(capfd, "report", str(results), "-o", str(tmp_path / "report.html"))
    assert "of them clean with no attention block" in (tmp_path / "report.html").read_text()


# ----------------------------------------------------------------------------- a failure in words
def test_a_target_that_could_not_be_loaded_is_said_in_words() -> None:
    from tracer.cohort.progress import verdict
    from tracer.formats.cohort import failed_label, verdict_counts

    failure = {"target": "s.py:build", "error": "s.py:build: importing s.py raised SyntaxError", "kind": "target"}
    assert verdict(failure) == "could not be loaded"
    assert failed_label("target") == "could not be loaded" and failed_label("timeout") == "failed (timeout)"
    from collections import Counter

    assert verdict_counts(Counter({"target": 2, "clean": 1})) == "2 could not be loaded, 1 clean"


# ----------------------------------------------------------------------------- the Python API's text
def test_a_report_without_a_target_is_named_after_its_model() -> None:
    class Scorer(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.softmax(x @ x.transpose(-2, -1), dim=-2) @ x

    report = tracer.check(Scorer().eval(), torch.randn(2, 5, 8))
    report.notes.append("padding witness not run")  # as a padded model's report has (it read ": note: ...")
    lines = str(report).splitlines()
    assert not [line for line in lines if line.startswith(": ")]
    assert lines[-1].startswith("Scorer: 1 error")
    assert "Scorer: note: padding witness not run" in lines
    assert json.loads(report.to_json())["target"] == ""  # the JSON's target stays as given


# ----------------------------------------------------------------------------- small messages
@pytest.mark.parametrize(("target", "said"), [
    ("nonexistent.py", "'nonexistent.py' is not a target: no such file nonexistent.py"),
    ("*.py", "'*.py' is a pattern without a NAME: give what to build in each file, e.g. '*.py:build'"),
    ("helpers.py", "'helpers.py' is a file, not a target: name what builds the model in it, helpers.py:NAME"),
    ("nomatch/*.py:build", "nomatch/*.py:build: the pattern nomatch/*.py matched no file"),
    ("nomatch/*.py", "'nomatch/*.py': the pattern matched no file"),
])
def test_target_mistakes_say_what_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capfd: pytest.CaptureFixture[str], target: str, said: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "alice.py").write_text(textwrap.dedent(ATTENTION))
    (tmp_path / "helpers.py").write_text("def scale(x):\n    return x\n")
    status, out, err = run(capfd, "check", target)
    assert status == 2 and out == "" and said in err and len(err.splitlines()) == 1, err


def test_no_memory_at_all_is_refused(capfd: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capfd, "check", "--max-memory", "0", "zoo:exercise4")
    assert status == 2 and "'0' is no memory at all" in err


def test_a_crash_report_leaves_out_the_extension_modules_line() -> None:
    from tracer.cohort.frames import student_frames

    dump = ("Fatal Python error: Segmentation fault\n\nCurrent thread 0x7f (most recent call first):\n"
            '  File "/subs/lee.py", line 13 in build\n\n'
            "Extension modules: numpy._core._multiarray_umath, torch._C, torch._C._nn (total: 13)\n")
    assert student_frames(dump) == ("Fatal Python error: Segmentation fault\n\nCurrent thread 0x7f (most recent "
                                    'call first):\n  File "/subs/lee.py", line 13 in build\n')


def test_a_warning_is_drawn_amber_and_an_error_red() -> None:
    from tracer.render import diagram
    from tracer.render.dot import LIGHT

    def traced(name: str) -> tracer.Trace:
        from models.zoo import catalogue
        from support import build_workload

        model, args, kwargs = build_workload(catalogue()[name])
        return tracer.run_check(model, args, kwargs, witness=False)[1]

    warned = diagram(traced("scale_factor_d_k")).source
    assert f'color="{LIGHT.warn_border}"' in warned and f'color="{LIGHT.flag_border}"' not in warned
    assert "warning finding: warning[code] and why" in warned and "error finding" not in warned
    wrong = diagram(traced("softmax_axis_query")).source
    assert f'color="{LIGHT.flag_border}"' in wrong and f'color="{LIGHT.warn_border}"' not in wrong
