"""The `attnscope` command line, run in-process through `tracer.cli.main` (CONTRACT.md `check`)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tracer.cli import main
from tracer.findings import Finding, Report

SUMMARY_KEYS = {"ops", "modules", "attention_blocks", "score_elements", "score_bytes", "findings"}
FINDING_KEYS = {"code", "severity", "message", "file", "line", "module", "op", "node"}

HEADER = "import torch\nfrom torch import nn\n\n"

# Hand-written attention without the 1/sqrt(d_k) factor: a small, fast, realistic target.
ATTENTION = """
class Attention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        scores = q @ k.transpose(-2, -1)
        return torch.softmax(scores, dim=-1) @ v


def build():
    return Attention().eval(), torch.randn(2, 5, 8)
"""

# A forward pass that raises inside a torch op: CONTRACT.md makes it a finding, exit 1.
RAISES = """
class Broken(nn.Module):
    def forward(self, x):
        return x @ torch.ones(3, 3)


def build():
    return Broken(), torch.ones(2, 4)
"""


ROOT = Path(__file__).resolve().parents[2]


def write(directory: Path, name: str, body: str) -> str:
    path = directory / name
    path.write_text(HEADER + textwrap.dedent(body))
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


# ----------------------------------------------------------------------------- usage
def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "usage: attnscope" in out and "check" in out
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.startswith("attnscope ")


@pytest.mark.parametrize("argv", [[], ["nonsense"], ["check"], ["check", "x.py:f", "--fail-on", "info"]])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert "usage:" in err


def test_console_script_help() -> None:
    script = Path(sys.executable).with_name("attnscope")
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert "usage: attnscope" in done.stdout
    assert "Traceback" not in done.stderr


# `attnscope` must answer these before torch could have loaded (issue 12): none may import it.
WITHOUT_TORCH = [
    ["--help"], ["--version"], ["zoo"], ["nonsense"], ["check"], ["check", "--help"], ["check", "x.py"],
    ["check", "--jobs", "0", "zoo:x"], ["render", "--help"], ["run", "--help"], ["stats", "--help"],
    ["report", "--help"], ["report", "absent.jsonl"], ["tui", "--help"],
]


@pytest.mark.parametrize("argv", WITHOUT_TORCH, ids=" ".join)
def test_help_version_zoo_and_usage_errors_do_not_import_torch(argv: list[str], tmp_path: Path) -> None:
    probe = (
        "import sys, io, contextlib\n"
        "from tracer.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        f"    status = main({argv!r})\n"
        "heavy = sorted(name for name in ('torch', 'networkx', 'transformers', 'textual') if name in sys.modules)\n"
        "print(status, heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    status, heavy = done.stdout.split(" ", 1)
    assert heavy.strip() == "[]"
    assert status in ("0", "2")


def test_the_zoo_listing_read_from_the_files_matches_the_imported_catalogue() -> None:
    from tracer.commands.zoo import listing
    from tracer.targets import zoo_entries

    imported = [(name, ", ".join(entry.expected) or "correct", entry.summary) for name, entry in zoo_entries().items()]
    assert listing() == imported


def test_built_in_help_lines_are_the_commands_own() -> None:
    from tracer.commands import BUILT_IN, load_command

    for name, built_in in BUILT_IN.items():
        command = load_command(name)
        assert command.name == name and command.help == built_in.help


def test_zoo_lists_one_line_per_model(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "zoo")
    lines = out.splitlines()
    assert status == 0 and lines
    for line in lines:  # name, then "correct" or the expected codes, then the summary
        assert re.match(r"^\w+ +(correct|[a-z-]+(, [a-z-]+)*)( {2,}|$)", line), line


# ----------------------------------------------------------------------------- target errors
ERROR_CASES = {
    "missing-file": ("", "absent.py:build", "no such file"),
    "missing-name": ("def build_model():\n    pass\n", "t.py:build", "has no attribute 'build'"),
    "not-callable": ("build = 42\n", "t.py:build", "not callable"),
    "wrong-form": ("def build():\n    return nn.Linear(2, 2)\n", "t.py:build", "returned a Linear (expected (model, args)"),
    "wrong-args": ("def build():\n    return nn.Linear(2, 2), 3\n", "t.py:build", "returned a tuple of (Linear, int)"),
    "raising-import": ("raise ValueError('broken at import')\n", "t.py:build", "raised ValueError: broken at import"),
    "missing-import": ("import no_such_module_xyz\n", "t.py:build", "ModuleNotFoundError: No module named 'no_such_module_xyz'"),
    "syntax-error": ("def build(:\n", "t.py:build", "raised SyntaxError"),
    "raising-build": ("def build():\n    raise RuntimeError('no weights')\n", "t.py:build", "calling build() raised RuntimeError: no weights"),
    "module-without-example-inputs": (
        "class Net(nn.Module):\n    def forward(self, x):\n        return x\n", "t.py:Net", "without example_inputs()"
    ),
    "bad-example-inputs": (
        "class Net(nn.Module):\n    def forward(self, x):\n        return x\n\n    def example_inputs(self):\n        return 7\n",
        "t.py:Net", "Net.example_inputs() returned an int (expected args, (args, kwargs) or kwargs_dict)",
    ),
    "unknown-zoo": ("", "zoo:no_such_model_xyz", "no zoo model named 'no_such_model_xyz'"),
    "bad-spec": ("", "just_a_name", "is not a target (expected path/to/file.py:NAME"),
    "file-without-name": ("def build():\n    pass\n", "t.py", "'t.py' is a file, not a target: name what to build in it, e.g. t.py:build"),
    "module-class-without-name": (
        "class Net(nn.Module):\n    def example_inputs(self):\n        return torch.ones(1)\n\ndef helper(x):\n    pass\n",
        "t.py", "e.g. t.py:Net",
    ),
    "file-without-buildable": ("def helper(x):\n    pass\n", "t.py", "name what builds the model in it, t.py:NAME"),
    "directory": ("", ".", "is a directory, not a target: for each submission in it, give the pattern './*.py:build'"),
    "directory-as-file": ("", "./:build", "is a directory, not a Python file"),
}


@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_target_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    source, spec, expected = ERROR_CASES[case]
    if source:
        write(tmp_path, "t.py", source)
    monkeypatch.chdir(tmp_path)
    for command in ("check", "stats"):
        status, out, err = run(capsys, command, spec)
        assert status == 2
        assert out == ""
        assert err.count("\n") == 1 and err.startswith("attnscope: error: ")
        assert expected in err


# ----------------------------------------------------------------------------- check
def test_check_json_is_one_object_per_target(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = write(tmp_path, "attention.py", ATTENTION) + ":build"
    broken = write(tmp_path, "broken.py", RAISES) + ":build"
    status, out, _ = run(capsys, "check", "--json", good, broken)
    objects = json_lines(out)
    assert [obj["target"] for obj in objects] == [good, broken]
    for obj in objects:
        assert set(obj) >= {"target", "findings", "summary"}
        assert set(obj["summary"]) >= SUMMARY_KEYS
        assert set(obj["summary"]["findings"]) == {"error", "warning", "info"}
        for finding in obj["findings"]:
            assert set(finding) >= FINDING_KEYS
    # The forward pass that raised is a finding, not a usage error.
    assert status == 1
    assert any(finding["severity"] == "error" for finding in objects[1]["findings"])
    assert objects[0]["summary"]["attention_blocks"] >= 1


def test_check_reports_unloadable_target_and_checks_the_others(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = write(tmp_path, "attention.py", ATTENTION) + ":build"
    other = write(tmp_path, "other.py", ATTENTION) + ":build"
    missing = str(tmp_path / "absent.py") + ":build"
    status, out, err = run(capsys, "check", "--json", good, missing, other)
    objects = json_lines(out)
    assert status == 2
    assert len(objects) == 3
    assert objects[1] == {"target": missing, "error": objects[1]["error"], "kind": "target"}
    assert "no such file" in objects[1]["error"]
    assert "findings" in objects[0] and "findings" in objects[2]
    assert "attnscope: error: " in err
    assert "[1/3]" in err and "[3/3]" in err  # progress for several targets


def test_check_single_target_shows_no_progress_when_stderr_is_redirected(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = write(tmp_path, "attention.py", ATTENTION) + ":build"
    _, _, err = run(capsys, "check", good)
    assert err == ""


def test_fail_on_follows_the_reported_severities(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = write(tmp_path, "attention.py", ATTENTION) + ":build"
    _, out, _ = run(capsys, "check", "--json", target)
    counts = json_lines(out)[0]["summary"]["findings"]
    status_error, _, _ = run(capsys, "check", target)
    status_warning, _, _ = run(capsys, "check", "--fail-on", "warning", target)
    assert status_error == (1 if counts["error"] else 0)
    assert status_warning == (1 if counts["error"] or counts["warning"] else 0)


@pytest.fixture
def one_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A result object holding exactly one warning at the target's softmax line, whatever the checks say."""
    target = write(tmp_path, "attention.py", ATTENTION) + ":build"
    line = (HEADER + textwrap.dedent(ATTENTION)).splitlines().index("        return torch.softmax(scores, dim=-1) @ v") + 1
    warning = Finding(
        "test-code", "warning", "scores are not scaled", str(tmp_path / "attention.py"), line,
        "", "softmax", "n0", hint="divide by sqrt(d_k)",
    )
    monkeypatch.chdir(tmp_path)
    return Report([warning], {"ops": 8, "attention_blocks": 1}, target).to_dict()


def test_fail_on_warning(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = write(tmp_path, "attention.py", ATTENTION) + ":build"  # no 1/sqrt(d_k): a scale-factor warning
    _, out, _ = run(capsys, "check", "--json", target)
    assert [(f["code"], f["severity"]) for f in json_lines(out)[0]["findings"]] == [("scale-factor", "warning")]
    assert run(capsys, "check", target)[0] == 0
    assert run(capsys, "check", "--fail-on", "error", target)[0] == 0
    assert run(capsys, "check", "--fail-on", "warning", target)[0] == 1
    assert run(capsys, "check", "--fail-on", "warning", "--exit-zero", target)[0] == 0


def test_check_text_is_compiler_style(capsys: pytest.CaptureFixture[str], one_warning: dict[str, Any]) -> None:
    from tracer.formats.text import Text

    Text().show(one_warning)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "attention.py:13: warning[test-code]: scores are not scaled"
    assert lines[1] == " 13 |         return torch.softmax(scores, dim=-1) @ v"
    assert lines[2].startswith("    | ") and lines[2].endswith("^~~~~~~")  # under "softmax"
    assert lines[2].index("^") == lines[1].index("softmax")
    assert lines[3] == "  hint: divide by sqrt(d_k)"
    assert lines[-1].startswith(f"{one_warning['target']}: 0 errors, 1 warning (")


def test_text_frames_the_targets_own_output(capsys: pytest.CaptureFixture[str], one_warning: dict[str, Any]) -> None:
    from tracer.formats.text import Text

    Text().show({**one_warning, "output": "number of parameters: 216\nready\n"})
    lines = capsys.readouterr().out.splitlines()
    start = lines.index(f"{one_warning['target']}: output (2 lines):")
    assert lines[start + 1:start + 3] == ["  | number of parameters: 216", "  | ready"]
    assert lines[-1].startswith(f"{one_warning['target']}: 0 errors, 1 warning (")


def test_check_on_the_meta_device_notes_skipped_value_checks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = write(tmp_path, "attention.py", ATTENTION) + ":build"
    _, out, _ = run(capsys, "check", "--json", "--device", "meta", target)
    notes = json_lines(out)[0]["notes"]
    assert any(note.startswith("on the meta device no values exist: mask-axis") for note in notes)
    assert not any("value checks skipped" in note for note in notes)  # said once, by the note that names them


def test_meta_device_covers_tensors_the_forward_pass_creates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = """
    class Causal(nn.Module):
        def forward(self, x):
            keep = torch.tril(torch.ones(x.size(1), x.size(1), dtype=torch.bool))
            return x.masked_fill(~keep, 0.0)


    def build():
        return Causal(), torch.randn(2, 4, 4)
    """
    target = write(tmp_path, "causal.py", body) + ":build"
    _, out, _ = run(capsys, "check", "--json", "--device", "meta", target)
    assert not [f for f in json_lines(out)[0]["findings"] if "device" in f["message"]]


def test_layout_option_reaches_the_tracer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--layout` goes from the command line into each job, and from the job into `run_check` as given."""
    import tracer.api
    from tracer.cli import build_parser
    from tracer.cohort.child import check
    from tracer.cohort.jobs import make_jobs
    from tracer.commands.check import _settings

    target = write(tmp_path, "attention.py", ATTENTION) + ":build"
    layouts = []
    real_run_check = tracer.api.run_check

    def run_check(*args: Any, **kwargs: Any) -> tuple[Report, Any]:
        layouts.append(kwargs["layout"])
        return real_run_check(*args, **kwargs)

    monkeypatch.setattr(tracer.api, "run_check", run_check)
    for argv in (["check", target], ["check", "--layout", "seq-first", target]):
        options = build_parser("check").parse_args(argv)
        (job,) = make_jobs([target], **_settings(options, 1))
        assert "findings" in check(job)
    assert layouts == [None, "seq-first"]  # None: the analysis decides


def test_each_target_is_loaded_in_its_own_clean_state(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Two submissions with a sibling module of the same name each see their own."""
    specs = []
    for mark in ("a", "b"):
        folder = tmp_path / mark
        folder.mkdir()
        (folder / "helper.py").write_text(f"MARK = {mark!r}\n")
        body = f"import helper\n\ndef build():\n    assert helper.MARK == {mark!r}, helper.MARK\n    return nn.Linear(2, 2), torch.ones(1, 2)\n"
        specs.append(write(folder, "model.py", body) + ":build")
    status, out, _ = run(capsys, "check", "--json", *specs)
    assert status == 0
    assert all("error" not in obj for obj in json_lines(out))


# ----------------------------------------------------------------------------- stats
def test_stats_json_has_the_contract_summary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = write(tmp_path, "attention.py", ATTENTION) + ":build"
    status, out, _ = run(capsys, "stats", "--json", target)
    summary = json.loads(out)
    assert status == 0
    assert set(summary) >= SUMMARY_KEYS | {"ops_by_kind", "module_calls_by_type"}
    assert summary["ops_by_kind"]["linear"] == 3
    assert summary["module_calls_by_type"]["Linear"] == 3


def test_stats_tables_without_the_optional_summary_keys(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tracer.api

    target = write(tmp_path, "attention.py", ATTENTION) + ":build"
    real_run_check = tracer.api.run_check

    def run_check(*args: Any, **kwargs: Any) -> tuple[Report, Any]:
        report, recorded = real_run_check(*args, **kwargs)
        minimal = {key: value for key, value in report.summary.items() if key in SUMMARY_KEYS}
        return Report(report.findings, minimal, report.target, report.notes), recorded

    monkeypatch.setattr(tracer.api, "run_check", run_check)
    status, out, _ = run(capsys, "stats", target)
    assert status == 0
    assert "Ops by kind" in out and "Module calls by type" in out and "linear" in out
    assert "Attention blocks" not in out


# ----------------------------------------------------------------------------- sizes and the value budget
@pytest.mark.parametrize(("text", "size"), [("2G", 2 << 30), ("512M", 512 << 20), ("1.5GiB", 3 << 29), ("64k", 65536),
                                            ("1000", 1000), (" 3 MB ", 3 << 20)])
def test_sizes_read_as_bytes(text: str, size: int) -> None:
    from tracer.commands.common import parse_size

    assert parse_size(text) == size


def test_a_bad_size_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "check", "--max-memory", "lots", "zoo:ref_encoder_decoder")
    assert status == 2 and "'lots' is not a size" in err


def test_the_value_budget_reaches_the_recorder(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "check", "--json", "--value-budget", "1K", "zoo:ref_encoder_decoder")
    small = json_lines(out)[0].get("notes", [])
    _, out, _ = run(capsys, "check", "--json", "--value-budget", "1G", "zoo:ref_encoder_decoder")
    large = json_lines(out)[0].get("notes", [])
    assert any("budget" in note for note in small)
    assert not any("budget" in note for note in large)


def test_a_file_reached_through_dot_dot_is_named_without_it(tmp_path: Path) -> None:
    """A model imported from `harness/../src/` is reported at `src/...`: the path a user, SARIF and
    GitHub's annotations expect, not the one sys.path happened to spell."""
    (tmp_path / "src").mkdir()
    (tmp_path / "harness").mkdir()
    (tmp_path / "src" / "attention.py").write_text(textwrap.dedent("""
        import torch
        from torch import nn
        class Attention(nn.Module):
            def forward(self, q, k, v):
                return torch.softmax(q @ k.transpose(-2, -1) / 2.0, dim=-2) @ v
    """))
    (tmp_path / "harness" / "build.py").write_text(textwrap.dedent("""
        import os, sys, torch
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
        from attention import Attention
        def build():
            torch.manual_seed(0)
            q = torch.randn(2, 5, 4)
            return Attention(), (q, torch.randn(2, 5, 4), torch.randn(2, 5, 4))
    """))
    script = Path(sys.executable).parent / "attnscope"
    done = subprocess.run([str(script), "check", "harness/build.py:build", "--json", "--jobs", "1"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    [finding] = json.loads(done.stdout.splitlines()[0])["findings"]
    assert finding["code"] == "softmax-axis"
    assert ".." not in finding["file"] and finding["file"].endswith(os.path.join("src", "attention.py"))
