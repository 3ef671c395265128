"""Autograder use: `attnscope check subs/*.py:build --json` over a folder of submissions, and the
`attnscope_check` pytest fixture that fails a course test with the compiler-style findings."""

from __future__ import annotations

import json
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from tracer.cli import main

pytest_plugins = ["pytester"]

ATTENTION = """
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        scores = self.q(x) @ self.k(x).transpose(-2, -1) / SCALE
        return torch.softmax(scores, dim=DIM) @ self.v(x)


def build():
    return Attention().eval(), torch.randn(2, 5, 8)
"""


def submission(dim: int = -1, scale: str = "8 ** 0.5") -> str:
    return textwrap.dedent(ATTENTION).replace("DIM", str(dim)).replace("SCALE", scale)


def softmax_line(source: str) -> int:
    return next(n for n, text in enumerate(source.splitlines(), 1) if "torch.softmax" in text)


# ----------------------------------------------------------------------------- a folder of submissions
def test_a_folder_of_submissions_gives_one_json_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "alice.py").write_text(submission())
    (subs / "bob.py").write_text(submission(dim=-2))
    (subs / "carol.py").write_text("import torch\ndef build(:\n")

    status = main(["check", f"{subs}/*.py:build", "--json"])
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]

    assert status == 2  # a submission that cannot be loaded
    assert [line["target"] for line in lines] == [f"{subs}/{name}.py:build" for name in ("alice", "bob", "carol")]
    alice, bob, carol = lines
    assert alice["findings"] == [] and alice["summary"]["attention_blocks"] == 1
    assert [f["code"] for f in bob["findings"]] == ["softmax-axis"] and bob["findings"][0]["line"] == softmax_line(submission())
    assert "SyntaxError" in carol["error"] and "findings" not in carol
    assert "[1/3]" in captured.err and "[3/3]" in captured.err  # progress on standard error


def test_a_pattern_that_matches_nothing_is_a_target_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", f"{tmp_path}/*.py:build", "--json"]) == 2
    (line,) = capsys.readouterr().out.splitlines()
    assert f"the pattern {tmp_path}/*.py matched no file" in json.loads(line)["error"]


# ----------------------------------------------------------------------------- the pytest fixture
COURSE_TESTS = """
import torch
from submission import build


def test_attention_is_clean(attnscope_check):
    model, x = build()
    report = attnscope_check(model, x)
    assert report.summary["attention_blocks"] == 1
"""


def grade(course: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Run the course's tests in a fresh process (torch cannot be imported twice in one); the snapshot plugin stays out."""
    return course.runpytest_subprocess("-p", "no:textual-snapshot", *args)  # torch imports once per process


@pytest.fixture
def course(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)  # the fixture comes from the entry point
    pytester.makepyfile(test_course=COURSE_TESTS)
    pytester.syspathinsert()
    return pytester


def test_the_plugin_is_registered_as_a_pytest_entry_point() -> None:
    (plugin,) = [point for point in entry_points(group="pytest11") if point.name == "attnscope"]
    assert plugin.value == "tracer.pytest_plugin"


def test_a_correct_submission_passes(course: pytest.Pytester) -> None:
    course.makepyfile(submission=submission())
    grade(course).assert_outcomes(passed=1)


def test_a_buggy_submission_fails_with_the_findings(course: pytest.Pytester) -> None:
    course.makepyfile(submission=submission(dim=-2))
    result = grade(course)
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "attnscope found problems in Attention" in output
    line = softmax_line((course.path / "submission.py").read_text())
    assert f"submission.py:{line}: error[softmax-axis]" in output
    assert "return torch.softmax(scores, dim=-2) @ self.v(x)" in output and "hint: normalize over the key axis" in output
    assert "test_attention_is_clean (Attention): 1 error, 0 warnings" in output
    assert "tracer/pytest_plugin.py" not in output  # the findings, not the plugin's traceback


def test_warnings_pass_unless_the_severity_is_raised(course: pytest.Pytester) -> None:
    course.makepyfile(submission=submission(scale="1.0"))  # scale-factor: a warning
    grade(course).assert_outcomes(passed=1)
    grade(course, "--attnscope-fail-on", "warning").assert_outcomes(failed=1)
    course.makeini("[pytest]\nattnscope_fail_on = warning\n")
    result = grade(course)
    result.assert_outcomes(failed=1)
    assert "warning[scale-factor]" in result.stdout.str()


def test_a_passing_test_shows_the_warnings_it_let_through(course: pytest.Pytester) -> None:
    course.makepyfile(submission=submission(scale="1.0"))  # scale-factor: a warning
    result = grade(course)
    result.assert_outcomes(passed=1, warnings=1)
    output = result.stdout.str()
    assert "AttnscopeWarning" in output and "warning[scale-factor]" in output  # pytest's warnings summary


def test_the_warnings_can_fail_the_test_through_pytest_filters(course: pytest.Pytester) -> None:
    course.makepyfile(submission=submission(scale="1.0"))
    grade(course, "-W", "error::tracer.pytest_plugin.AttnscopeWarning").assert_outcomes(failed=1)


def test_a_clean_submission_warns_nothing(course: pytest.Pytester) -> None:
    course.makepyfile(submission=submission())
    grade(course).assert_outcomes(passed=1, warnings=0)


def test_a_check_that_could_not_run_is_a_warning_too(course: pytest.Pytester) -> None:
    course.makepyfile(submission=submission())
    course.makepyfile(test_meta="""
        import torch
        from submission import build

        def test_on_meta(attnscope_check):
            with torch.device("meta"):
                attnscope_check(*build())
    """)
    result = grade(course, "test_meta.py")
    result.assert_outcomes(passed=1, warnings=1)
    assert "mask-axis" in result.stdout.str() and "did not run everywhere" in result.stdout.str()


def test_a_test_can_raise_the_severity_itself(course: pytest.Pytester) -> None:
    course.makepyfile(submission=submission(scale="1.0"))
    course.makepyfile(test_strict="""
        from submission import build

        def test_no_warnings(attnscope_check):
            attnscope_check.fail_on = "warning"
            attnscope_check(*build())
    """)
    grade(course).assert_outcomes(passed=1, failed=1)


def test_a_bad_severity_is_a_usage_error(course: pytest.Pytester) -> None:
    course.makepyfile(submission=submission())
    course.makeini("[pytest]\nattnscope_fail_on = info\n")
    result = grade(course)
    assert "attnscope_fail_on must be one of error, warning" in result.stdout.str() + result.stderr.str()
    assert result.ret != 0
