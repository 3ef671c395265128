"""benchmarks/accuracy.py: a check made to miss its class fails the run.

That every corpus outcome holds is docs/accuracy.md's own command, run by tests/test_docs.py
with its exit status 0 required: the whole corpus is checked once per suite, not twice.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "accuracy.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT, timeout=600)


def _small_set(tmp_path: Path) -> Path:
    """Two zoo twins as a corpus set: a leak only a witness finds, and its correct twin."""
    folder = tmp_path / "corpus" / "twins"
    folder.mkdir(parents=True)
    files = {}
    for name, expected, outcome in (("causal_leak_static_kv_cache", ["causal-leak"], "found"),
                                    ("ok_static_kv_cache", [], "clean")):
        source = (ROOT / "models" / "zoo" / f"{name}.py").read_text()
        (folder / f"{name}.py").write_text(source)
        line = next((n for n, text in enumerate(source.splitlines(), 1) if "# BUG:" in text), None)
        files[f"{name}.py"] = {"expected": expected, "line": line, "also_lines": [], "also_ok_codes": [],
                               "consequence_codes": [], "outcome": outcome}
    (folder / "manifest.json").write_text(json.dumps({"set": "twins", "files": files}))
    return folder.parent


def test_a_check_made_to_miss_its_class_fails_the_run_and_names_the_entry(tmp_path: Path) -> None:
    corpus = _small_set(tmp_path)
    assert _run("--corpus", str(corpus), "--jobs", "1").returncode == 0
    missed = _run("--corpus", str(corpus), "--jobs", "1", "--witness", "off")
    assert missed.returncode == 1
    assert "twins/causal_leak_static_kv_cache.py: found -> missed" in missed.stdout


def test_a_false_alarm_counts_against_a_correct_file(tmp_path: Path) -> None:
    corpus = _small_set(tmp_path)
    manifest = corpus / "twins" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["files"]["ok_static_kv_cache.py"]["outcome"] = "false-alarm"  # what the manifest claims is no longer so
    manifest.write_text(json.dumps(data))
    done = _run("--corpus", str(corpus), "--jobs", "1")
    assert done.returncode == 1 and "ok_static_kv_cache.py: false-alarm -> clean" in done.stdout


def test_a_finding_on_any_line_of_the_labelled_statement_is_at_the_line(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from accuracy import score
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    model = tmp_path / "m.py"
    model.write_text("import torch\n\ny = torch.nn.functional.scaled_dot_product_attention(\n    q, k, v,\n"
                     "    dropout_p=0.1)\nz = y + 1\n")
    entry = {"expected": ["dropout-eval"], "line": 5}
    at_call = {"findings": [{"code": "dropout-eval", "severity": "error", "line": 3}]}
    assert score(entry, at_call, model)[0] == "found"  # the call spans lines 3-5
    assert score(entry, at_call)[0] == "found-elsewhere"  # without the file: the line alone
    elsewhere = {"findings": [{"code": "dropout-eval", "severity": "error", "line": 6}]}
    assert score(entry, elsewhere, model)[0] == "found-elsewhere"
