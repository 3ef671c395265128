"""Saved recordings (`t.save`, `tracer.load`, `*.attntrace`): a round trip loses nothing, a bad
file is a one-line error, and a recording opens where the model's code does not exist."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from typing import Any

import pytest
import torch

import tracer
from models.zoo import catalogue
from support import check_entry
from tracer import store
from tracer.cli import main
from tracer.events import Recording

# Zoo models that between them record every kind of field: kwargs and token ids, bool masks,
# NaN statistics and values, fp16, a composite (nn.MultiheadAttention), a forward that raised.
ROUND_TRIPS = (
    "ref_encoder_decoder", "ok_mha_key_padding", "mask_value_fp16_overflow", "fully_masked_row_left_padding",
    "shape_error_missing_transpose", "positional_axis_rotary_heads", "ok_sequence_first",
)


def same(before: Any, after: Any, where: str = "recording") -> None:
    """Field-by-field equality that treats NaN as equal to NaN and compares tensors exactly."""
    if isinstance(before, torch.Tensor):
        assert isinstance(after, torch.Tensor), where
        assert (before.dtype, before.shape) == (after.dtype, after.shape), where
        assert torch.equal(before.isnan(), after.isnan()), where
        assert torch.equal(before.nan_to_num(0.0), after.nan_to_num(0.0)), where
    elif dataclasses.is_dataclass(before):
        assert type(before) is type(after), where
        for item in dataclasses.fields(before):
            same(getattr(before, item.name), getattr(after, item.name), f"{where}.{item.name}")
    elif isinstance(before, (list, tuple)):
        assert type(before) is type(after) and len(before) == len(after), where
        for index, (a, b) in enumerate(zip(before, after)):
            same(a, b, f"{where}[{index}]")
    elif isinstance(before, dict):
        assert before.keys() == after.keys(), where
        for key in before:
            same(before[key], after[key], f"{where}[{key!r}]")
    elif isinstance(before, float) and math.isnan(before):
        assert isinstance(after, float) and math.isnan(after), where
    else:
        assert type(before) is type(after) and before == after, f"{where}: {before!r} != {after!r}"


@pytest.mark.parametrize("name", ROUND_TRIPS)
def test_round_trip_loses_nothing(name: str, tmp_path: Path) -> None:
    entry = catalogue()[name]
    _, original = check_entry(entry, witness=False)  # witnesses run the model: a recording has none to run
    path = tmp_path / f"{name}.attntrace"
    original.save(str(path))
    loaded = tracer.load(path)

    same(original.recording, loaded.recording)
    assert loaded.layout == original.layout
    assert loaded.findings == original.findings
    assert loaded.summary == original.summary
    assert [f.code for f in loaded.findings] == [f.code for f in original.findings]


def test_the_round_trips_cover_every_kind_of_value(tmp_path: Path) -> None:
    """Bool masks, NaN statistics, a recorded error: the cases a JSON encoder gets wrong."""
    recordings = [check_entry(catalogue()[name])[1].recording for name in ROUND_TRIPS]
    assert any(v.dtype == torch.bool for r in recordings for v in r.values.values())
    assert any(math.isnan(r.stats_of(m.vid).mean) for r in recordings for e in r.events for m in e.outputs
               if r.stats_of(m.vid) is not None)
    assert any(r.error for r in recordings)
    assert any(e.kwargs for r in recordings for e in r.events)


def test_bool_values_keep_their_dtype(tmp_path: Path) -> None:
    recording = Recording(root_type="M", values={3: torch.tensor([[True, False]]), 4: torch.arange(3.0).t()})
    store.save(recording, tmp_path / "b.attntrace")
    values = tracer.load(tmp_path / "b.attntrace").recording.values
    assert values[3].dtype == torch.bool and values[3].tolist() == [[True, False]]
    assert torch.equal(values[4], torch.arange(3.0))


def test_file_is_a_zip_of_json_and_safetensors(tmp_path: Path) -> None:
    _, recorded = check_entry(catalogue()["ok_mha_key_padding"])
    recorded.save(str(tmp_path / "r.attntrace"))
    with zipfile.ZipFile(tmp_path / "r.attntrace") as archive:
        assert sorted(archive.namelist()) == ["recording.json", "values.safetensors"]
        document = json.loads(archive.read("recording.json"))
    assert document["format"] == "attnscope-recording" and document["version"] == 1
    assert document["layout"] is None and document["events"]  # None: the evidence decides on load
    assert not list(tmp_path.glob("*.partial"))


def test_the_settled_layout_comes_back_and_a_forced_one_is_saved(tmp_path: Path) -> None:
    _, recorded = check_entry(catalogue()["ok_sequence_first"])
    recorded.save(str(tmp_path / "s.attntrace"))
    loaded = tracer.load(tmp_path / "s.attntrace")
    assert loaded.layout is None and loaded.analysis.layout.name == "seq-first"
    assert tracer.load(tmp_path / "s.attntrace", layout="batch-first").analysis.layout.name == "batch-first"
    forced = tracer.Trace.from_recording(recorded.recording, layout="seq-first")
    forced.save(str(tmp_path / "f.attntrace"))
    assert tracer.load(tmp_path / "f.attntrace").layout == "seq-first"


# ----------------------------------------------------------------------------- without the model's code
MODEL_SCRIPT = """
import sys
import torch
from torch import nn
import tracer


class Vanishing(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        scores = self.q(x) @ self.k(x).transpose(-2, -1) / 8 ** 0.5
        return torch.softmax(scores, dim=1) @ self.v(x)


model = Vanishing().eval()
with tracer.trace(model) as t:
    model(torch.randn(2, 5, 8))
t.save(sys.argv[1])
"""


def test_a_recording_loads_and_analyses_without_the_models_code(tmp_path: Path) -> None:
    script = tmp_path / "vanishing_model.py"
    script.write_text(textwrap.dedent(MODEL_SCRIPT))
    saved = tmp_path / "run.attntrace"
    subprocess.run([sys.executable, str(script), str(saved)], check=True, capture_output=True, timeout=120)
    script.unlink()

    loaded = tracer.load(saved)
    assert loaded.recording.root_type == "Vanishing"
    assert "vanishing_model" not in " ".join(sys.modules)
    (finding,) = [f for f in loaded.findings if f.severity == "error"]
    assert finding.code == "softmax-axis" and finding.file == str(script)
    assert loaded.summary["attention_blocks"] == 1
    assert loaded.graph.number_of_nodes() > len(loaded.recording.events)


# ----------------------------------------------------------------------------- bad files
def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _good(tmp_path: Path) -> Path:
    _, recorded = check_entry(catalogue()["ok_prenorm_block"])
    recorded.save(str(tmp_path / "good.attntrace"))
    return tmp_path / "good.attntrace"


def _with_header(tmp_path: Path, **changes: Any) -> Path:
    with zipfile.ZipFile(_good(tmp_path)) as archive:
        document = json.loads(archive.read("recording.json"))
        values = archive.read("values.safetensors")
    document.update(changes)
    return _zip(tmp_path / "changed.attntrace", {"recording.json": json.dumps(document).encode(), "values.safetensors": values})


def _truncated(tmp_path: Path) -> Path:
    data = _good(tmp_path).read_bytes()
    (tmp_path / "cut.attntrace").write_bytes(data[: len(data) // 2])
    return tmp_path / "cut.attntrace"


def _text(tmp_path: Path) -> Path:
    (tmp_path / "text.attntrace").write_text("hello")
    return tmp_path / "text.attntrace"


def _damaged_events(tmp_path: Path) -> Path:
    with zipfile.ZipFile(_good(tmp_path)) as archive:
        document = json.loads(archive.read("recording.json"))
        values = archive.read("values.safetensors")
    del document["events"][0]["inputs"]
    return _zip(tmp_path / "damaged.attntrace", {"recording.json": json.dumps(document).encode(), "values.safetensors": values})


def _members(tmp_path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(_good(tmp_path)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _replaced(tmp_path: Path, name: str, data: bytes) -> Path:
    return _zip(tmp_path / "replaced.attntrace", {**_members(tmp_path), name: data})


def _without(tmp_path: Path, name: str) -> Path:
    members = _members(tmp_path)
    del members[name]
    return _zip(tmp_path / "without.attntrace", members)


def _edited(tmp_path: Path, edit: Any) -> Path:
    members = _members(tmp_path)
    document = json.loads(members["recording.json"])
    edit(document)
    return _replaced(tmp_path, "recording.json", json.dumps(document).encode())


BAD_FILES = {
    "newer version": (lambda p: _with_header(p, version=2), "newer attnscope"),
    "unknown version": (lambda p: _with_header(p, version="one"), "unknown recording format version"),
    "not a recording's json": (lambda p: _with_header(p, format="something-else"), "not an attnscope recording"),
    "truncated": (_truncated, "truncated"),
    "not a zip": (_text, "not an attnscope recording"),
    "a zip of something else": (lambda p: _zip(p / "other.attntrace", {"README": b"hi"}), "not an attnscope recording"),
    "damaged events": (_damaged_events, 'incomplete recording: events[0] lacks "inputs"'),
    "damaged values": (lambda p: _replaced(p, "values.safetensors", b"\x00garbage"), "damaged recording (values.safetensors"),
    "missing events": (lambda p: _edited(p, lambda document: document.pop("events")), "incomplete recording: the recording has no events"),
    "events of the wrong type": (lambda p: _edited(p, lambda document: document.update(events={})), "events is not a list"),
    "a wrong field type deep down": (
        lambda p: _edited(p, lambda document: document["events"][1]["outputs"][0].update(shape="2x3")),
        "events[1].outputs[0].shape is not a list",
    ),
    "missing values": (lambda p: _without(p, "values.safetensors"), "its values (values.safetensors) are missing"),
    "emptied events": (lambda p: _edited(p, lambda document: document.update(events=[])), "its events were cut"),
    "events cut short": (lambda p: _edited(p, lambda document: document["events"].__delitem__(slice(3, None))),
                         "its events were cut"),
    "an event cut out": (lambda p: _edited(p, lambda document: document["events"].pop(2)), "events before it are missing"),
    "module calls emptied too": (lambda p: _edited(p, lambda document: document.update(events=[], module_calls=[])),
                                 "forward passes but no module call"),
    "missing": (lambda p: p / "absent.attntrace", "no such file"),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_a_bad_file_is_a_one_line_error(case: str, tmp_path: Path) -> None:
    make, expected = BAD_FILES[case]
    path = make(tmp_path)
    with pytest.raises(tracer.RecordingError) as raised:
        tracer.load(path)
    message = str(raised.value)
    assert expected in message and str(path) in message and "\n" not in message


@pytest.mark.parametrize("case", ["newer version", "truncated", "not a zip", "emptied events", "events cut short"])
def test_the_cli_reports_a_bad_file_in_one_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = BAD_FILES[case][0](tmp_path)
    for command in ("check", "stats"):
        status = main([command, str(path)])
        captured = capsys.readouterr()
        assert status == 2 and captured.err.count("\n") == 1 and "Traceback" not in captured.err


# ----------------------------------------------------------------------------- the CLI reads recordings
def test_check_and_stats_read_a_recording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, recorded = check_entry(catalogue()["softmax_axis_query"])
    path = tmp_path / "bug.attntrace"
    recorded.save(str(path))
    assert main(["check", "--json", str(path)]) == 1
    (report,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert report["target"] == str(path)
    assert [f["code"] for f in report["findings"]] == [f.code for f in recorded.findings]
    assert main(["stats", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["attention_blocks"] == recorded.summary["attention_blocks"]


def test_nan_statistics_recorded_with_their_op_round_trip(tmp_path: Path) -> None:
    """Values too large to keep carry their statistics in the JSON, NaN included."""

    class Broken(torch.nn.Module):
        def forward(self, x):
            return torch.log(x - 2)  # 10,000 elements, all negative: NaN

    model = Broken()
    with tracer.trace(model) as recorded:
        model(torch.rand(100, 100))
    stats = recorded.recording.events[-1].stats[0]
    assert stats is not None and stats.nan == 10_000
    path = tmp_path / "nan.attntrace"
    recorded.save(str(path))
    loaded = tracer.load(path).recording.events[-1].stats[0]
    assert loaded.nan == 10_000 and math.isnan(loaded.mean)
