"""`check --scheduler`: the same isolated jobs on a real Dask cluster give the same results.

The test starts a `dask scheduler` and two `dask worker` processes on localhost (the
default nanny setup, whose worker processes are daemonic: attnscope's child processes must
still work there), runs a small cohort through them and through a local run, and stops
them. Needs the `dask` extra, which `.ci/setup test` installs.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from support import submission

from tracer.cli import main

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]

def cohort(folder: Path) -> list[str]:
    """Correct and buggy submissions, one that prints, one that hangs and one that segfaults."""
    builds = {
        "a_correct": (-1, "pass"), "b_buggy": (-2, "pass"), "c_prints": (-1, "print('number of parameters: 216')"),
        "d_hangs": (-1, "while True: pass"), "e_segfaults": (-1, "import ctypes; ctypes.string_at(0)"),
        "f_buggy": (-2, "pass"),
    }
    targets = []
    for name, (dim, build) in builds.items():
        (folder / f"{name}.py").write_text(submission(dim, build))
        targets.append(f"{folder / name}.py:build")
    return targets


def _dask() -> str:
    found = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
    if not found:
        pytest.skip("the dask command is not installed")
    return found


def _start(argv: list[str], log: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DASK_DISTRIBUTED__WORKER__DAEMON": "True"}
    return subprocess.Popen(argv, stdout=log.open("w"), stderr=subprocess.STDOUT, env=env, start_new_session=True)


def _stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[str]:
    """A scheduler and two single-threaded workers on localhost; yields the scheduler's address."""
    dask = _dask()
    info = tmp_path / "scheduler.json"
    processes = [_start([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                         "--scheduler-file", str(info)], tmp_path / "scheduler.log")]
    try:
        deadline = time.monotonic() + 120
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert info.exists(), (tmp_path / "scheduler.log").read_text()
        for number in range(2):
            processes.append(_start([dask, "worker", "--scheduler-file", str(info), "--nthreads", "1",
                                     "--no-dashboard", "--name", f"w{number}", "--local-directory", str(tmp_path)],
                                    tmp_path / f"worker{number}.log"))
        address = json.loads(info.read_text())["address"]
        _wait_for_workers(address, 2)
        yield address
    finally:
        for process in reversed(processes):
            _stop(process)


def _wait_for_workers(address: str, count: int) -> None:
    from distributed import Client

    with Client(address, timeout="60s") as client:
        client.wait_for_workers(count, timeout=120)


def _comparable(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The objects without what depends on the machine (a crash's stack names the process's files)."""
    return [{key: value for key, value in obj.items() if not (obj.get("kind") == "crashed" and key == "output")}
            for obj in objects]


def test_a_dask_cluster_gives_the_same_results_as_a_local_run(
    cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    targets = cohort(tmp_path)
    options = ["check", "--json", "--timeout", "5"]
    local_status = main([*options, "--jobs", "2", *targets])
    local = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    remote_status = main([*options, "--scheduler", cluster, *targets])
    remote = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert local_status == remote_status == 2
    assert [obj["target"] for obj in remote] == targets
    assert _comparable(remote) == _comparable(local)
    kinds = [obj.get("kind") for obj in remote]
    assert kinds == [None, None, None, "timeout", "crashed", None]
    assert remote[2]["output"] == "number of parameters: 216\n"


def test_a_local_cluster_gives_the_same_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    targets = [target for target in cohort(tmp_path) if "hangs" not in target]
    assert main(["check", "--json", "--jobs", "2", *targets]) == 2
    local = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["check", "--json", "--scheduler", "local", "--jobs", "2", *targets]) == 2
    through_dask = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert _comparable(through_dask) == _comparable(local)


def test_an_unreachable_scheduler_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import tracer.cohort.dask

    monkeypatch.setattr(tracer.cohort.dask, "CONNECT_TIMEOUT", "3s")
    (target, *_) = cohort(tmp_path)
    assert main(["check", "--scheduler", "tcp://127.0.0.1:9", target]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attnscope: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9") and err.count("\n") == 1
