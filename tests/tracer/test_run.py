"""`attnscope run SCRIPT.py [args...]`: the script runs as under `python`, its forward passes are
checked, and a crash shows Python's traceback with the `shape-error` finding beneath it."""

from __future__ import annotations

import json
import sys
import textwrap
import types
from pathlib import Path
from typing import Any

import pytest

import tracer
from models.zoo import catalogue
from support import check_entry
from tracer.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TRAIN = str(FIXTURES / "train_buggy.py")
CRASH = str(FIXTURES / "crash_transpose.py")
COMPILED = str(FIXTURES / "compiled.py")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["run", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def script(tmp_path: Path, body: str, name: str = "script.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


# ----------------------------------------------------------------------------- a training script
def test_a_training_script_keeps_its_output_and_gets_its_findings(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, TRAIN, "--steps", "4")
    assert status == 0
    assert out == "step 0\nstep 1\nstep 2\nstep 3\ndone\n"
    assert f"{Path(TRAIN).name}:22: error[softmax-axis]" in err.replace(TRAIN, Path(TRAIN).name)
    assert "torch.softmax(scores, dim=-2)" in err and "hint: normalize over the key axis" in err
    assert "recorded the first 3 forward passes" in err


@pytest.mark.parametrize(("argv", "expected"), [(["--exit", "3"], 3), (["--exit", "0"], 0), (["--steps", "x"], 2)])
def test_the_scripts_exit_status_is_kept(argv: list[str], expected: int, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, _ = run(capsys, TRAIN, "--steps", "1", *argv)
    assert status == expected


def test_fail_on_turns_findings_into_a_failing_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--fail-on", "error", TRAIN, "--steps", "1")[0] == 1
    assert run(capsys, "--fail-on", "error", COMPILED)[0] == 0  # a warning only
    assert run(capsys, "--fail-on", "warning", COMPILED)[0] == 1


def test_json_is_one_line_after_the_scripts_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--json", "--max-passes", "2", TRAIN, "--steps", "5")
    *printed, last = out.splitlines()
    report = json.loads(last)
    assert status == 0 and printed == ["step 0", "step 1", "step 2", "step 3", "step 4", "done"]
    assert report["target"] == TRAIN and report["summary"]["forward_passes"] == 2
    assert [f["code"] for f in report["findings"]] == ["softmax-axis"]
    assert "error[" not in err


def test_the_script_sees_its_own_argv_and_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "attnscope_run_sibling.py").write_text("VALUE = 'sibling'\n")
    path = script(tmp_path, """
        import sys
        import attnscope_run_sibling
        print(sys.argv[1:], attnscope_run_sibling.VALUE, __name__)
        sys.exit("bye")
    """)
    argv_before, path_before = list(sys.argv), list(sys.path)
    try:
        status, out, err = run(capsys, path, "a", "--json", "-x")
    finally:
        sys.modules.pop("attnscope_run_sibling", None)
    assert out == "['a', '--json', '-x'] sibling __main__\n"
    assert status == 1 and err.startswith("bye\n")  # sys.exit("text"): printed, status 1, as in Python
    assert "no forward pass of an nn.Module ran" in err
    assert sys.argv == argv_before and sys.path == path_before


@pytest.mark.parametrize("passes, note", [(3, None), (5, "2 later passes ran untraced")])
def test_untraced_passes_are_noted_only_when_some_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], passes: int, note: str | None,
) -> None:
    path = script(tmp_path, f"""
        import torch
        layer = torch.nn.Linear(4, 4)
        for _ in range({passes}):
            layer(torch.randn(2, 4))
    """)
    status, _, err = run(capsys, "--max-passes", "3", path)
    assert status == 0
    if note is None:
        assert "--max-passes" not in err  # exactly 3 passes: none ran untraced
    else:
        assert f"recorded the first 3 forward passes (--max-passes); {note}" in err


def test_a_missing_script_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, str(tmp_path / "absent.py"))
    assert status == 2 and err.count("\n") == 1


# ----------------------------------------------------------------------------- crash reports
def test_a_crash_shows_the_traceback_then_the_shape_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "crash.attntrace"
    status, out, err = run(capsys, "--save", str(saved), CRASH)
    assert status == 1 and out == "before the forward pass\n"
    traceback, _, report = err.partition("RuntimeError: Expected size")
    assert traceback.startswith("Traceback (most recent call last):\n")
    assert f'File "{CRASH}", line 28, in <module>' in traceback and "scores = q @ k" in traceback
    assert "tracer" + "/" not in traceback and "runpy" not in traceback  # attnscope's own frames are hidden
    finding = report[report.index("crash_transpose.py:22: error[shape-error]"):]
    assert "q: B=2 × H=2 × T=6 × dh=8" in finding and "k: B=2 × H=2 × T=6 × dh=8" in finding
    assert "hint: did you mean `.transpose(-2, -1)`" in finding
    assert f"recording saved to {saved}" in report

    partial = tracer.load(saved)
    assert partial.recording.error.startswith("RuntimeError")
    assert [f.code for f in partial.findings] == ["shape-error"]


def test_the_zoo_missing_transpose_names_both_operands_and_the_hint() -> None:
    report, _ = check_entry(catalogue()["shape_error_missing_transpose"])
    (finding,) = report.findings
    assert finding.code == "shape-error" and finding.op == "matmul"
    assert "q: B=2 × H=2 × T=6 × dh=8" in finding.message and "k: B=2 × H=2 × T=6 × dh=8" in finding.message
    assert ".transpose(-2, -1)" in finding.hint


def test_an_error_outside_the_forward_pass_is_not_blamed_on_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = script(tmp_path, """
        import torch
        torch.nn.Linear(2, 2)(torch.ones(1, 2))
        try:
            torch.nn.Linear(2, 2)(torch.ones(1, 3))
        except RuntimeError:
            print("caught")
        raise KeyError("data")
    """)
    status, out, err = run(capsys, "--json", path)
    report = json.loads(out.splitlines()[-1])
    assert status == 1 and "KeyError: 'data'" in err
    assert [f["code"] for f in report["findings"]] == ["shape-error"]  # the caught one, from the recording
    assert "linear failed" in report["findings"][0]["message"]
    assert "the script raised KeyError outside the recorded forward passes" in report["notes"]


# ----------------------------------------------------------------------------- torch.compile, --tui
def test_compiled_models_are_traced_through_the_original_module(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--json", COMPILED)
    report = json.loads(out.splitlines()[-1])
    assert status == 0 and out.splitlines()[0] == "(2, 5)"
    assert [f["code"] for f in report["findings"]] == ["scale-factor"]
    assert "torch.compile(Scaled) ran uncompiled: attnscope traced the original module (_orig_mod)" in report["notes"]
    assert "torch.compile(head) ran uncompiled under attnscope" in report["notes"]
    assert not hasattr(sys.modules["torch"].compile, "__wrapped__") and sys.modules["torch"].compile.__module__ == "torch"


def test_tui_opens_the_recording_when_the_app_exists(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    opened: list[tuple[Any, str]] = []
    app = types.SimpleNamespace(run_app=lambda trace, label="": opened.append((trace, label)))
    monkeypatch.setitem(sys.modules, "tui.app", app)
    status, _, _ = run(capsys, "--tui", TRAIN, "--steps", "1")
    assert status == 0 and len(opened) == 1
    trace, label = opened[0]
    assert isinstance(trace, tracer.Trace) and trace.findings[0].code == "softmax-axis" and label == TRAIN


def test_tui_without_the_app_says_so(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "tui.app", None)  # an import of tui.app now fails as if it were absent
    status, _, err = run(capsys, "--tui", TRAIN, "--steps", "1")
    assert status == 0 and "the terminal UI is not available here" in err


@pytest.mark.parametrize(("where", "expected"), [
    ("absent/run.attntrace", "no such directory"),
    ("run.json", "name the recording *.attntrace"),
    ("folder.attntrace", "is a directory"),
])
def test_a_save_that_cannot_work_is_refused_before_the_script_runs(
    where: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "folder.attntrace").mkdir()
    target = tmp_path / where
    status, out, err = run(capsys, "--save", str(target), TRAIN, "--steps", "1")
    assert status == 2 and out == ""  # the script never ran
    assert err.startswith(f"attnscope: error: --save {target}: ") and expected in err and err.count("\n") == 1
    assert not (tmp_path / "absent").exists()


def test_a_save_that_fails_while_writing_exits_non_zero_after_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import tracer.store

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tracer.store, "save", refuse)
    target = tmp_path / "run.attntrace"
    status, _, err = run(capsys, "--save", str(target), TRAIN, "--steps", "1")
    assert status == 2 and f"attnscope: error: cannot write {target}: No space left on device" in err
    assert "error[softmax-axis]" in err and not target.exists()


def test_a_save_option_after_the_script_is_pointed_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The README once showed `attnscope run train.py --save run.attntrace`: --save went to the script."""
    status, out, err = run(capsys, TRAIN, "--steps", "1", "--save", "run.attntrace")
    assert "attnscope: note: --save comes after the script, so it is the script's own argument" in err
    assert f"attnscope run --save run.attntrace {TRAIN}" in err


def test_a_directory_is_not_a_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, str(tmp_path))
    assert status == 2 and "it is a directory" in err and err.count("\n") == 1
