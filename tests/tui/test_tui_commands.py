"""`attnscope tui` / `attnscope demo` as commands, and the render key's report."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest
from tui_support import ROOT, SIZE

from tracer.cli import main
from tracer.commands import all_commands
from tracer.trace import Trace
from tui.app import ScopeApp


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend standard output and input are a terminal (pytest captures them), as they are for a person."""
    monkeypatch.setattr("tui.commands.stdout_is_terminal", lambda: True)
    monkeypatch.setattr("tui.commands.stdin_is_terminal", lambda: True)


def test_commands_are_registered_through_entry_points() -> None:
    names = {command.name for command in all_commands()}
    assert {"tui", "demo"} <= names


def test_tui_opens_the_traced_target(monkeypatch: pytest.MonkeyPatch, terminal: None) -> None:
    opened: list[tuple[Trace, str]] = []
    monkeypatch.setattr("tui.app.run_app", lambda trace, label="": opened.append((trace, label)))
    assert main(["tui", "zoo:softmax_axis_query"]) == 0
    trace, label = opened[0]
    assert label == "zoo:softmax_axis_query"
    assert [f.code for f in trace.findings] == ["softmax-axis"]


def test_tui_bad_target_is_a_one_line_usage_error(capsys: pytest.CaptureFixture[str], terminal: None) -> None:
    assert main(["tui", "zoo:no_such_model"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attnscope: error:") and err.count("\n") == 1


def test_tui_saved_recording_without_or_with_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        terminal: None) -> None:
    bad = tmp_path / "broken.attntrace"
    bad.write_text("not a recording")
    assert main(["tui", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attnscope: error:") and str(bad) in err and err.count("\n") == 1
    if importlib.util.find_spec("tracer.store") is None:
        assert "not supported" in err


@pytest.mark.skipif(importlib.util.find_spec("tracer.store") is None, reason="saved recordings not supported yet")
def test_tui_opens_a_saved_recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: None) -> None:
    from tui_support import traced

    path = tmp_path / "run.attntrace"
    traced("zoo:ok_einsum_causal").save(str(path))
    opened: list[Trace] = []
    monkeypatch.setattr("tui.app.run_app", lambda trace, label="": opened.append(trace))
    assert main(["tui", str(path)]) == 0
    assert len(opened[0].recording.events) == len(traced("zoo:ok_einsum_causal").recording.events)
    assert len(opened[0].analysis.blocks) == 1


def test_demo_command_passes_its_settings(monkeypatch: pytest.MonkeyPatch, terminal: None) -> None:
    started = []
    monkeypatch.setattr("tui.app.run_demo", lambda settings=None: started.append(settings))
    assert main(["demo", "--seed", "5", "-T", "20", "--d-k", "2", "--causal"]) == 0
    settings = started[0]
    assert (settings.seed, settings.length, settings.d_k, settings.causal) == (5, 8, 2, True)  # T clamped to 8


@pytest.mark.parametrize("command", [["demo"], ["tui", "zoo:softmax_axis_query"]])
def test_without_a_terminal_the_apps_refuse_in_one_line(command: list[str]) -> None:
    """`attnscope demo < /dev/null > out.txt` never ended, writing escape codes into the file."""
    attnscope = [sys.executable, "-c", "import sys; from tracer.cli import main; sys.exit(main(sys.argv[1:]))"]
    for given in ({"stdin": subprocess.DEVNULL}, {"input": "\n"}):  # < /dev/null, or `echo | attnscope ...`
        done = subprocess.run([*attnscope, *command], **given, capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(f"attnscope: error: attnscope {command[0]} needs a terminal")
        assert done.stderr.count("\n") == 1


def test_tui_refuses_keys_that_are_not_typed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("tui.commands.stdout_is_terminal", lambda: True)
    monkeypatch.setattr("tui.commands.stdin_is_terminal", lambda: False)
    monkeypatch.setattr("tui.app.run_app", lambda trace, label="": pytest.fail("the app started without a keyboard"))
    assert main(["tui", "zoo:softmax_axis_query"]) == 2
    err = capsys.readouterr().err
    assert "its standard input is not one; use --web" in err and err.count("\n") == 1


def test_tui_web_loads_the_target_before_serving(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    served: list[str] = []
    monkeypatch.setattr("tui.web.serve", lambda options: served.append(options.target) or 0)
    assert main(["tui", "--web", "zoo:no_such_model"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attnscope: error: zoo:no_such_model:") and err.count("\n") == 1 and not served
    assert main(["tui", "--web", "zoo:softmax_axis_query"]) == 0 and served == ["zoo:softmax_axis_query"]


async def test_render_key_reports_where_it_wrote(scope_app: Callable[[str], ScopeApp], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    app = scope_app("zoo:softmax_axis_query")
    calls: list[tuple[str, dict]] = []

    def render(path: str, **options: object) -> str:
        calls.append((path, options))
        Path(path).write_text("<svg/>")
        return path

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(app.session.trace, "render", render)
    async with app.run_test(size=SIZE) as pilot:
        said: list[str] = []
        app.screen.notify = lambda message, **_: said.append(message)  # type: ignore[method-assign]
        await pilot.press("f", "r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        path, options = calls[0]
        assert options == {"attention": True} and Path(path).name == "attnscope-model-attention.svg"
        assert said[-1] == f"wrote {path}"
        monkeypatch.setattr(app.session.trace, "render", lambda path, **_: (_ for _ in ()).throw(ImportError("x")))
        await pilot.press("g", "0", "enter", "r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "not installed" in said[-1]


def test_tui_without_a_terminal_is_a_one_line_error() -> None:
    """`attnscope tui T > file` answers at once instead of writing escape codes into the file."""
    done = subprocess.run([sys.executable, "-c", "import sys; from tracer.cli import main; sys.exit(main(sys.argv[1:]))",
                           "tui", "zoo:softmax_axis_query"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "needs a terminal" in done.stderr and "--web" in done.stderr


def test_tui_traces_on_the_device_asked_for(monkeypatch: pytest.MonkeyPatch, terminal: None) -> None:
    opened: list[Trace] = []
    monkeypatch.setattr("tui.app.run_app", lambda trace, label="": opened.append(trace))
    assert main(["tui", "zoo:softmax_axis_query", "--device", "meta"]) == 0
    assert opened[0].recording.device == "meta" and not opened[0].recording.values
    assert [f.code for f in opened[0].findings] == ["softmax-axis"]


def test_web_app_command_repeats_the_options() -> None:
    from tui.commands import TUI
    from tui.web import app_command

    parser = __import__("argparse").ArgumentParser()
    TUI.add_arguments(parser)
    options = parser.parse_args(["zoo:x", "--web", "--device", "meta", "--layout", "seq-first", "--port", "9"])
    assert app_command(options).split()[1:] == ["-m", "tui", "zoo:x", "--layout", "seq-first", "--device", "meta"]
    assert (options.host, options.port) == ("127.0.0.1", 9)


def test_web_refuses_a_bad_port_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("textual_serve")
    assert main(["tui", "zoo:softmax_axis_query", "--web", "--port", "70000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--port" in err
