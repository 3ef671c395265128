"""Checking a whole course safely (issue 11): every target in its own child process.

Each kind of bad submission costs only its own result: one JSON object with its `kind`,
the rest of the batch checked as usual, exit status 2. A submission's own output never
reaches attnscope's standard output.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from support import submission

from tracer.cli import main

BAD = {
    "hangs": (submission(build="while True: pass"), "timeout"),
    "segfaults": (submission(top="import ctypes\n", build="ctypes.string_at(0)"), "crashed"),
    "os_exits": (submission(top="import os\n", build="os._exit(3)"), "exit"),
    "sys_exits": (submission(top="import sys\n", build="sys.exit(4)"), "exit"),
    "exits_at_import": ("import sys\nsys.exit('no')\n", "exit"),
    "allocates": (submission(build="hoard = torch.ones(2 ** 28)  # 1 GiB"), "memory"),
    "allocates_in_python": (submission(build="hoard = bytearray(2 ** 30)"), "memory"),
    "aborts": (submission(top="import os\n", build="os.abort()"), "crashed"),
    "cannot_load": ("def build(:\n", "target"),
}


def write(folder: Path, name: str, body: str) -> str:
    (folder / f"{name}.py").write_text(body)
    return f"{folder / name}.py:build"


def check_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]], str]:
    status = main(["check", "--format", "json", *argv])
    captured = capsys.readouterr()
    return status, [json.loads(line) for line in captured.out.splitlines()], captured.err


# ----------------------------------------------------------------------------- bad submissions
@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_submission_costs_only_its_own_result(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body, kind = BAD[case]
    before = write(tmp_path, "a_before", submission())
    bad = write(tmp_path, f"b_{case}", body)
    after = write(tmp_path, "c_after", submission(dim=-2))
    status, objects, err = check_json(capsys, "--timeout", "3", "--max-memory", "256M", "--jobs", "2",
                                      before, bad, after)
    assert status == 2
    assert [obj["target"] for obj in objects] == [before, bad, after]  # one object each, in target order
    first, failed, last = objects
    assert first["findings"] == [] and first["summary"]["attention_blocks"] == 1
    assert [f["code"] for f in last["findings"]] == ["softmax-axis"]
    assert failed["kind"] == kind and "findings" not in failed
    assert failed["error"].startswith(bad) and "\n" not in failed["error"]
    assert f"attnscope: error: {failed['error']}" in err


def test_a_hang_is_killed_at_its_timeout_while_the_others_go_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hang = write(tmp_path, "hang", BAD["hangs"][0])
    others = [write(tmp_path, f"ok{n}", submission()) for n in range(3)]
    start = time.monotonic()
    status, objects, _ = check_json(capsys, "--timeout", "2", "--jobs", "2", hang, *others)
    elapsed = time.monotonic() - start
    assert status == 2 and objects[0]["kind"] == "timeout" and "within 2 s" in objects[0]["error"]
    assert all("findings" in obj for obj in objects[1:])
    assert elapsed < 60  # killed, not waited for (generous: the first call also starts the warm parent)


def test_a_segfault_leaves_its_python_stack_in_the_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crash = write(tmp_path, "crash", BAD["segfaults"][0])
    _, (obj,), _ = check_json(capsys, crash)
    assert obj["kind"] == "crashed" and obj["signal"] == "SIGSEGV" and "segmentation fault" in obj["error"]
    assert "Segmentation fault" in obj["output"] and f'File "{tmp_path / "crash.py"}", line' in obj["output"]


def test_exit_statuses_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os_exit = write(tmp_path, "os_exit", BAD["os_exits"][0])
    sys_exit = write(tmp_path, "sys_exit", BAD["sys_exits"][0])
    forward_exit = write(tmp_path, "forward_exit", submission(top="import sys\n").replace(
        "        return torch.softmax", "        sys.exit(5)\n        return torch.softmax"))
    _, objects, _ = check_json(capsys, os_exit, sys_exit, forward_exit)
    assert [obj["kind"] for obj in objects] == ["exit", "exit", "exit"]
    assert objects[0]["status"] == 3 and "exited with status 3" in objects[0]["error"]
    assert "SystemExit: 4" in objects[1]["error"]
    assert "the forward pass called sys.exit(5)" in objects[2]["error"]


def test_memory_past_the_limit_in_the_forward_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    greedy = write(tmp_path, "greedy", submission().replace(
        "        return torch.softmax", "        x = x + torch.ones(2 ** 28)[:1]\n        return torch.softmax"))
    _, (obj,), _ = check_json(capsys, "--max-memory", "256M", greedy)
    assert obj["kind"] == "memory" and "ran out of memory" in obj["error"]
    _, (unlimited,), _ = check_json(capsys, "--max-memory", "4G", greedy)
    assert "findings" in unlimited  # the same code within a limit it fits


# ----------------------------------------------------------------------------- captured output
PRINTS = submission(
    top="import sys\nprint('importing the submission')\n",
    build="print('number of parameters: 216'); print('a warning', file=sys.stderr)",
).replace("        return torch.softmax", "        print('in forward')\n        return torch.softmax")


def test_a_submissions_output_is_captured_into_its_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chatty = write(tmp_path, "chatty", PRINTS)
    quiet = write(tmp_path, "quiet", submission())
    status, (loud, silent), _ = check_json(capsys, chatty, quiet)
    assert status == 0
    assert loud["output"].splitlines() == [
        "importing the submission", "number of parameters: 216", "a warning", "in forward"]
    assert "output" not in silent


def test_a_submissions_output_never_reaches_attnscopes_stdout(tmp_path: Path) -> None:
    """The real console script, in its own process: standard output is JSON lines only."""
    chatty = write(tmp_path, "chatty", PRINTS)
    noisy_c = write(tmp_path, "noisy_c", submission(top="import os\n", build="os.write(1, b'raw fd 1\\n')"))
    script = Path(sys.executable).with_name("attnscope")
    done = subprocess.run([str(script), "check", "--json", chatty, noisy_c], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 2
    objects = [json.loads(line) for line in lines]
    assert "in forward" in objects[0]["output"] and objects[1]["output"] == "raw fd 1\n"
    assert "raw fd 1" not in done.stderr and "number of parameters" not in done.stderr


def test_a_flood_of_output_is_cut_to_its_head_and_tail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flood = write(tmp_path, "flood", submission(build="print('first'); print('x' * 10_000_000); print('last')"))
    _, (obj,), _ = check_json(capsys, flood)
    assert obj["output"].startswith("first\n") and obj["output"].endswith("last\n")
    assert "bytes of output left out" in obj["output"] and len(obj["output"]) < 5000


# ----------------------------------------------------------------------------- order and progress
def test_results_come_in_target_order_whatever_order_they_finish_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    slow = write(tmp_path, "slow", submission(top="import time\n", build="time.sleep(2)"))
    fast = [write(tmp_path, f"fast{n}", submission(dim=-2 if n % 2 else -1)) for n in range(4)]
    status, objects, err = check_json(capsys, "--jobs", "2", slow, *fast)
    assert status == 1
    assert [obj["target"] for obj in objects] == [slow, *fast]
    progress = [line for line in err.splitlines() if line.startswith("[")]
    assert progress[-1].startswith("[5/5] ") and progress[-1].endswith(f"{slow}: no findings")  # finished last


def test_a_pattern_expands_to_one_target_per_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("alice", "bob"):
        write(tmp_path, name, submission())
    status, objects, err = check_json(capsys, f"{tmp_path}/*.py:build")
    assert status == 0 and [obj["target"] for obj in objects] == [f"{tmp_path}/{n}.py:build" for n in ("alice", "bob")]
    assert "[1/2]" in err and "[2/2]" in err


# ----------------------------------------------------------------------------- results file
def test_a_results_file_resumes_and_rechecks_what_changed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "builds.log"
    counting = f"open({str(log)!r}, 'a').write('built\\n')"
    first = write(tmp_path, "first", submission(build=counting))
    second = write(tmp_path, "second", submission(dim=-2))
    results = tmp_path / "results.jsonl"
    assert main(["check", "--json", "--results", str(results), first, second]) == 1
    fresh = capsys.readouterr().out
    assert main(["check", "--json", "--results", str(results), first, second]) == 1
    resumed = capsys.readouterr()
    assert resumed.out == fresh  # the same objects, read back instead of re-checked
    assert log.read_text() == "built\n"  # built once: skipped the second time
    assert "(from the results file)" in resumed.err
    stored = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(item["target"] for item in stored) == [first, second]
    assert all(len(item["sha256"]) == 64 for item in stored)

    (tmp_path / "first.py").write_text(submission(dim=-2, build=counting))  # a resubmission
    assert main(["check", "--json", "--device", "meta", "--results", str(results), second]) == 1  # new options
    assert main(["check", "--json", "--results", str(results), first]) == 1
    capsys.readouterr()
    assert log.read_text() == "built\nbuilt\n"
    assert len(results.read_text().splitlines()) == 4


def test_a_line_cut_by_an_interruption_is_dropped_and_rewritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = write(tmp_path, "one", submission())
    results = tmp_path / "results.jsonl"
    results.write_text('{"target": "' + target + '", "findi')  # the run was killed while writing
    assert main(["check", "--json", "--results", str(results), target]) == 0
    lines = results.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["target"] == target


def test_a_results_file_that_is_not_one_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "notes.jsonl"
    results.write_text("hello\nworld\n")
    assert main(["check", "--results", str(results), "zoo:ref_encoder_decoder"]) == 2
    assert capsys.readouterr().err == f"attnscope: error: {results}:1: not a JSON line of attnscope results\n"


# ----------------------------------------------------------------------------- the same code in-process
def test_the_child_check_matches_the_in_process_check(tmp_path: Path) -> None:
    """Isolation changes where a check runs, not what it finds."""
    from tracer.cohort.child import check
    from tracer.cohort.jobs import make_jobs
    from tracer.commands.common import trace_target
    from tracer.targets import isolated

    target = write(tmp_path, "model", submission(dim=-2))
    with isolated():
        report, _ = trace_target(target)
    (job,) = make_jobs([target])
    assert check(job) == report.to_dict()


def test_installed_libraries_a_submission_imports_are_preloaded_but_never_its_own_modules(tmp_path: Path) -> None:
    from tracer.specs import imported_packages

    (tmp_path / "json.py").write_text("SHADOW = True\n")  # the student's own json.py beside the submission
    source = tmp_path / "sub.py"
    source.write_text("import json\nimport torch.nn as nn\nfrom transformers import LlamaConfig\nfrom . import x\n")
    assert imported_packages(str(source)) == ["torch.nn", "transformers", "transformers.LlamaConfig"]


def test_a_students_module_named_like_an_installed_one_is_the_students(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another submission imports the installed `yaml` (so the warm parent preloads it); this
    one has its own yaml.py beside it, and must get that one."""
    pytest.importorskip("yaml")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    other = write(tmp_path / "a", "other", submission(top="import yaml\n", build="assert hasattr(yaml, 'safe_load')"))
    (tmp_path / "b" / "yaml.py").write_text("SHADOW = 'mine'\n")
    body = submission(top="import yaml\n", build="assert getattr(yaml, 'SHADOW', None) == 'mine', yaml.__file__")
    target = write(tmp_path / "b", "sub", body)
    status, objects, _ = check_json(capsys, "--jobs", "2", other, target)
    assert status == 0, objects
    assert all("findings" in obj for obj in objects)
