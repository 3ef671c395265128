"""Every result delivered once (issue 20): a cohort run loses no submission and kills all it started.

Text output keeps the failures beside the reports and ends with a tally; Ctrl-C shows what
finished before it stops; a results file re-checks what its options or `--recheck failed`
ask for; a target named twice is checked once; a timeout kills what a submission started in
a session of its own; a submission's output is counted in full and made plain; a crash's
stack shows the student's frames, not attnscope's.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from support import submission

from tracer.cli import main

ATTNSCOPE = str(Path(sys.executable).with_name("attnscope"))


def write(folder: Path, name: str, body: str) -> str:
    (folder / f"{name}.py").write_text(body)
    return f"{folder / name}.py:build"


def check_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]], str]:
    status = main(["check", "--format", "json", *argv])
    captured = capsys.readouterr()
    return status, [json.loads(line) for line in captured.out.splitlines()], captured.err


# ----------------------------------------------------------------------------- 1. text output
def test_text_output_keeps_every_target_in_order_and_ends_with_a_tally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = write(tmp_path, "a_clean", submission())
    buggy = write(tmp_path, "b_buggy", submission(dim=-2))
    broken = write(tmp_path, "c_broken", "def build(:\n")
    exits = write(tmp_path, "d_exits", submission(top="import sys\n", build="print('bye'); sys.exit('no GPU')"))
    status = main(["check", clean, buggy, broken, exits])
    out, err = capsys.readouterr()
    assert status == 2
    lines = out.splitlines()
    verdicts = [line for line in lines if line.startswith(tuple(f"{t}: " for t in (clean, buggy, broken, exits)))]
    assert verdicts[0] == f"{clean}: no findings (8 ops, 1 attention block)"
    assert verdicts[1] == f"{buggy}: 1 error, 0 warnings (8 ops, 1 attention block)"
    assert verdicts[2].startswith(f"{broken}: could not be loaded: importing ") and "SyntaxError" in verdicts[2]
    assert "\n" not in verdicts[2] and "target" not in verdicts[2].removeprefix(broken)  # the JSON kind, not words
    assert verdicts[3:] == [f"{exits}: output (1 line):",
                            f"{exits}: failed (exit): calling build() raised SystemExit: no GPU"]
    assert lines[-1] == "4 submissions: 1 clean, 1 with errors, 1 could not be loaded, 1 exit"
    assert "attnscope: error" not in err  # each failure once, on stdout
    assert all(line.startswith("[") for line in err.splitlines())  # stderr: the progress lines only
    assert any(line.endswith(f"] {broken}: could not be loaded") for line in err.splitlines())


def test_json_output_keeps_its_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = write(tmp_path, "a_clean", submission())
    broken = write(tmp_path, "b_broken", "def build(:\n")
    status, (report, failure), err = check_json(capsys, clean, broken)
    assert status == 2 and {"target", "findings", "summary"} <= set(report)
    assert {"target", "error", "kind"} <= set(failure) and "findings" not in failure
    assert f"attnscope: error: {failure['error']}" in err


# ----------------------------------------------------------------------------- 2. Ctrl-C
def _interrupted_run(tmp_path: Path, *argv: str) -> tuple[int, str, str, list[str]]:
    """The real command on a slow first target and two fast ones, sent SIGINT once both fast ones are done."""
    slow = write(tmp_path, "a_slow", submission(top="import time\n", build="time.sleep(120)"))
    fast = [write(tmp_path, f"b_fast{n}", submission(dim=-1 if n else -2)) for n in range(2)]
    process = subprocess.Popen([ATTNSCOPE, "check", "--jobs", "2", *argv, slow, *fast], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    progress = ""
    deadline = time.monotonic() + 240
    while "[2/3]" not in progress and time.monotonic() < deadline and process.poll() is None:
        if select.select([process.stderr], [], [], 1.0)[0]:
            progress += process.stderr.readline()
    assert "[2/3]" in progress, progress
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return process.returncode, out, progress + err, fast


@pytest.mark.parametrize("form", ["json", "text"])
def test_ctrl_c_shows_every_finished_result_then_stops(form: str, tmp_path: Path) -> None:
    status, out, err, fast = _interrupted_run(tmp_path, "--format", form)
    assert status == 130
    assert "Traceback" not in err
    assert err.splitlines()[-1] == "attnscope: error: interrupted after 2 of 3 targets"
    if form == "json":
        assert [json.loads(line)["target"] for line in out.splitlines()] == fast  # finished behind the slow one
    else:
        lines = out.splitlines()
        assert f"{fast[0]}: 1 error, 0 warnings (8 ops, 1 attention block)" in lines
        assert f"{fast[1]}: no findings (8 ops, 1 attention block)" in lines
        assert lines[-1] == "2 of 3 submissions: 1 with errors, 1 clean"


def test_on_ctrl_c_the_local_runner_hands_over_what_has_come_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Results the warm parent sent but the runner had not yet yielded are not lost either."""
    from tracer.cohort import local
    from tracer.cohort.jobs import Job
    from tracer.commands.check import drained

    jobs = [Job(index, f"t{index}", "/") for index in range(3)]

    class Answering:
        """Answers every job at once but the first, which never ends."""

        def submit(self, job: Job) -> Future:
            future: Future = Future()
            if job.index:
                future.set_result({"target": job.target, "findings": []})
            return future

    monkeypatch.setattr(local, "shared_zygote", lambda *_, **__: Answering())
    finished = local.run_local(jobs, parallel=3)
    first, _ = next(finished)
    handed_over = [job.index for job, _ in drained(finished)]  # Ctrl-C while the first was being shown
    assert sorted([first.index, *handed_over]) == [1, 2]


# ----------------------------------------------------------------------------- 3. results file
def test_a_results_file_rechecks_when_options_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "builds.log"
    target = write(tmp_path, "counted", submission(build=f"open({str(log)!r}, 'a').write('built\\n')"))
    results = str(tmp_path / "results.jsonl")
    runs = [[], [], ["--timeout", "50"], ["--timeout", "50"], ["--witness", "off"], ["--layout", "batch-first"],
            ["--max-memory", "2G"]]
    builds = []
    for options in runs:
        assert main(["check", "--json", "--results", results, *options, target]) == 0
        builds.append(log.read_text().count("built"))
    capsys.readouterr()
    assert builds == [1, 1, 2, 2, 3, 4, 5]  # a repeated run reuses; each changed option checks again


def test_recheck_failed_checks_the_recorded_failures_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ready = tmp_path / "dataset.ready"
    log = tmp_path / "builds.log"
    counting = f"open({str(log)!r}, 'a').write('built\\n')"
    flaky = write(tmp_path, "flaky", submission(
        top="import os, sys\n", build=f"{counting}; os.path.exists({str(ready)!r}) or sys.exit('no dataset')"))
    steady = write(tmp_path, "steady", submission(build=counting))
    results = str(tmp_path / "results.jsonl")
    status, objects, _ = check_json(capsys, "--results", results, flaky, steady)
    assert status == 2 and objects[0]["kind"] == "exit"
    ready.write_text("")
    status, objects, _ = check_json(capsys, "--results", results, flaky, steady)
    assert status == 2 and log.read_text().count("built") == 2  # the failure is reused without --recheck
    status, objects, err = check_json(capsys, "--results", results, "--recheck", "failed", flaky, steady)
    assert status == 0 and all("findings" in obj for obj in objects)
    assert log.read_text().count("built") == 3  # only the failure was checked again
    assert "[2/2] " in err and "(from the results file)" in err
    status, objects, _ = check_json(capsys, "--results", results, flaky, steady)
    assert status == 0 and log.read_text().count("built") == 3  # its new result is the one reused


def test_recheck_needs_a_results_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--recheck", "failed", "zoo:ref_encoder_decoder"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("attnscope: error: --recheck failed needs --results")


# ----------------------------------------------------------------------------- 4. duplicates
def test_a_target_named_twice_is_checked_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "builds.log"
    (tmp_path / "subs").mkdir()
    for name in ("alice", "bob"):
        write(tmp_path / "subs", name, submission(build=f"open({str(log)!r}, 'a').write('{name}\\n')"))
    monkeypatch.chdir(tmp_path)
    status, objects, err = check_json(capsys, "subs/a*.py:build", "subs/*.py:build", "./subs/alice.py:build",
                                      f"{tmp_path}/subs/bob.py:build")
    assert status == 0
    assert [obj["target"] for obj in objects] == ["subs/alice.py:build", "subs/bob.py:build"]
    assert sorted(log.read_text().split()) == ["alice", "bob"]
    assert "attnscope: note: 3 targets named more than once (the same file and NAME) checked once" in err
    assert "[2/2]" in err and "[3/" not in err


# ----------------------------------------------------------------------------- 5. what a submission starts
def _running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie waiting to be collected is dead)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes through /proc")
@pytest.mark.parametrize("then", ["hangs", "returns"])
def test_what_a_submission_starts_in_a_new_session_is_killed_with_it(
    then: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pid_file = tmp_path / "sleep.pid"
    spawn = (f"sleeper = subprocess.Popen(['sleep', '1000'], start_new_session=True); "
             f"open({str(pid_file)!r}, 'w').write(str(sleeper.pid))")
    hang = "; time.sleep(1000)" if then == "hangs" else ""
    target = write(tmp_path, "spawner", submission(top="import subprocess, time\n", build=spawn + hang))
    status, (obj,), _ = check_json(capsys, "--timeout", "5", target)
    assert (obj.get("kind") == "timeout") == (then == "hangs") and status == (2 if then == "hangs" else 0)
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 15
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(pid), f"the submission's `sleep 1000` (pid {pid}) outlived its check"


# ----------------------------------------------------------------------------- 6. output
def test_output_is_counted_in_full_and_cut_to_what_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flood = write(tmp_path, "flood", submission(build="print('\\n'.join(map(str, range(70_000))))"))
    _, (obj,), _ = check_json(capsys, flood)
    assert obj["output_lines"] == 70_000 and len(obj["output"]) < 5000
    assert main(["check", flood]) == 0
    out = capsys.readouterr().out
    assert f"{flood}: output (70000 lines, first 20 shown):" in out
    assert "  | [... 69980 more lines; --format json carries more ...]" in out


def test_terminal_control_sequences_never_reach_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loud = ("print('\\x1b[31mred\\x1b[0m \\x1b]0;pwned\\x07\\x1b]8;;http://x\\x1b\\\\link\\x1b]8;;\\x1b\\\\"
            " \\x1b[2J\\x1b[Hcleared\\rover \\x9b2Jwritten\\x08!')")
    chatty = write(tmp_path, "chatty", submission(build=loud))
    exits = write(tmp_path, "exits", submission(top="import sys\n", build="sys.exit('\\x1b[2J\\x1b[1;1Hgone')"))
    status, (printed, failed), _ = check_json(capsys, chatty, exits)
    assert status == 2
    assert printed["output"] == "red link clearedover written!\n"
    assert failed["error"].endswith("raised SystemExit: gone")
    main(["check", chatty, exits])
    out, err = capsys.readouterr()
    assert "  | red link clearedover written!" in out and "SystemExit: gone" in out
    assert not any(character in out + err for character in "\x1b\x9b\r\x07\x08")


def test_plain_text_and_line_counts() -> None:
    from tracer.cohort.outcome import Output
    from tracer.cohort.plain import plain

    assert plain("a\x1b[1;31mb\x1b[0m\tc\x1bPq#0;2\x1b\\d\x1b(Be\x1b7f\x00\n") == "ab\tcdef\n"
    output = Output()
    for data in (b"one\ntw", b"o\n", b"three"):
        output.add(data)
    assert output.lines == 3 and output.text() == "one\ntwo\nthree"


# ----------------------------------------------------------------------------- 7. a crash's stack
SEGFAULTS_IN_FORWARD = submission(top="import ctypes\n").replace(
    "        return torch.softmax", "        ctypes.string_at(0)\n        return torch.softmax")


def test_a_crash_shows_the_students_frames_not_attnscopes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import tracer

    crash = write(tmp_path, "crash", SEGFAULTS_IN_FORWARD)
    _, (obj,), _ = check_json(capsys, crash)
    assert obj["kind"] == "crashed" and "Segmentation fault" in obj["output"]
    assert f'File "{tmp_path / "crash.py"}", line' in obj["output"] and " in forward" in obj["output"]
    assert os.path.dirname(tracer.__file__) not in obj["output"]
    assert "frames of attnscope left out ...]" in obj["output"]


def test_a_traceback_keeps_the_students_frames_or_else_the_innermost() -> None:
    import tracer
    from tracer.cohort.frames import student_frames

    own = os.path.dirname(tracer.__file__)
    student = Path("/home/student/attention.py")
    traceback = "\n".join([
        "Traceback (most recent call last):",
        '  File "<string>", line 1, in <module>',
        f'  File "{own}/cohort/child.py", line 160, in main',
        "    result = check(job)",
        "             ^^^^^^^^^^",
        f'  File "{student}", line 12, in forward',
        "    return torch.softmax(scores, dim=-1)",
        f'  File "{own}/recorder.py", line 80, in __torch_function__',
        "    return func(*args, **kwargs)",
        "RuntimeError: boom",
    ])
    assert student_frames(traceback).splitlines() == [
        "Traceback (most recent call last):",
        "  [... 3 frames of attnscope left out ...]",
        f'  File "{student}", line 12, in forward',
        "    return torch.softmax(scores, dim=-1)",
        "RuntimeError: boom",
    ]
    only_ours = "\n".join([
        "Current thread 0x1 (most recent call first):",
        f'  File "{own}/recorder.py", line 80 in __torch_function__',
        f'  File "{own}/cohort/zygote.py", line 300 in serve',
        '  File "<string>", line 1 in <module>',
    ])
    assert student_frames(only_ours).splitlines() == [
        "Current thread 0x1 (most recent call first):",
        f'  File "{own}/recorder.py", line 80 in __torch_function__',
        "  [... 2 frames of attnscope left out ...]",
    ]
    assert student_frames("no stack here\n") == "no stack here\n"
