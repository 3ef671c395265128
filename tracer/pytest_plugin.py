"""A pytest fixture so a course's test suite can require a clean attnscope report.

    def test_attention_is_correct(attnscope_check):
        model = MultiHeadAttention(d_model=16, n_heads=2).eval()
        attnscope_check(model, torch.randn(2, 5, 16))

The fixture traces one forward pass (as `tracer.check`) and fails the test with the
findings printed as `attnscope check` prints them when one reaches the severity set by
`attnscope_fail_on` (an ini option, or `--attnscope-fail-on`; default "error"), or by
`attnscope_check.fail_on = "warning"` inside a test. It returns the `Report` otherwise.

A passing test is not silent about what it let through: each finding below that severity
(a `scale-factor` warning under the default "error"), and each value check that could not
run (the report's `checks_not_run`), becomes an `AttnscopeWarning` in pytest's warnings
summary. `-W error::tracer.pytest_plugin.AttnscopeWarning` (or a `filterwarnings` ini line)
fails the test on them instead; `-W ignore::...` hides them.

Installed through the `pytest11` entry point, so this module is imported by every pytest
run in an environment where attnscope is installed: it imports torch and the tracer only
when a test asks for the fixture.
"""

from __future__ import annotations

import io
import warnings
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .findings import Report

SEVERITIES = ("error", "warning")


class AttnscopeWarning(UserWarning):
    """A finding that did not fail the test, or a check that could not run: shown, not failed."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("attnscope_fail_on", "attnscope_check fails a test on findings at least this severe (error or warning)",
                  default="error")
    parser.addoption("--attnscope-fail-on", choices=SEVERITIES, default=None,
                     help="attnscope_check fails a test on findings at least this severe (overrides the ini option)")


class AttnscopeCheck:
    """The fixture's value: call it like the model, with `model` in front."""

    def __init__(self, fail_on: str, label: str) -> None:
        if fail_on not in SEVERITIES:
            raise pytest.UsageError(f"attnscope_fail_on must be one of {', '.join(SEVERITIES)}, not {fail_on!r}")
        self.fail_on = fail_on
        self.label = label

    def __call__(self, model: Any, *args: Any, **kwargs: Any) -> "Report":
        from .api import run_check

        report, _ = run_check(model, args, kwargs, target=f"{self.label} ({type(model).__name__})")
        if report.fails(self.fail_on):
            pytest.fail(f"attnscope found problems in {type(model).__name__}:\n\n{compiler_style(report)}", pytrace=False)
        for finding in report.findings:
            warnings.warn(AttnscopeWarning(f"{finding.file}:{finding.line}: {finding.severity}[{finding.code}]: "
                                           f"{finding.message}"), stacklevel=2)
        not_run = report.summary.get("checks_not_run", {})
        if not_run:
            why = [note for note in report.notes if any(code in note for code in not_run)]
            warnings.warn(AttnscopeWarning(f"{type(model).__name__}: {', '.join(not_run)} did not run everywhere: "
                                           + " ".join(why)), stacklevel=2)
        return report


def compiler_style(report: "Report") -> str:
    """The report exactly as `attnscope check` prints it, without colours."""
    from rich.console import Console

    from .formats.text import print_report

    buffer = io.StringIO()
    print_report(Console(file=buffer, soft_wrap=True, highlight=False, no_color=True, width=120), report)
    return buffer.getvalue()


@pytest.fixture
def attnscope_check(request: pytest.FixtureRequest) -> AttnscopeCheck:
    """Trace `model(*args, **kwargs)` once; fail the test when a finding reaches the configured severity."""
    config = request.config
    fail_on = config.getoption("--attnscope-fail-on") or config.getini("attnscope_fail_on")
    return AttnscopeCheck(str(fail_on), request.node.name)
