"""Conversions to the CPU inside a model traced on the meta device are not shape errors.

A meta tensor has no data, so `.cpu()`, `.to("cpu")` and `mask.type(torch.ByteTensor)` fail
there ("Cannot copy out of meta tensor"). The recorder runs them as the same conversion on
meta, records them as ops, and notes each line. Lines are found by `# <marker>` comments.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from torch import nn

import tracer

THIS_FILE = Path(__file__).resolve()
B, T, D = 2, 5, 8


def line_of(marker: str) -> int:
    for number, text in enumerate(THIS_FILE.read_text().splitlines(), 1):
        if text.rstrip().endswith(f"# <{marker}>"):
            return number
    raise LookupError(marker)


class Converting(nn.Module):
    """Self-attention that moves its mask and scores around the way older code does."""

    def __init__(self) -> None:
        super().__init__()
        self.qk = nn.Linear(D, 2 * D)

    def forward(self, x: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        q, k = self.qk(x).chunk(2, dim=-1)
        scores = q @ k.transpose(-2, -1) / D**0.5
        byte_keep = keep.type(torch.ByteTensor)  # <type>
        named_keep = keep.type("torch.ByteTensor")  # <type-string>
        on_host = scores.cpu()  # <cpu>
        half = on_host.to("cpu", torch.float16)  # <to>
        scores = half.float().masked_fill((byte_keep & named_keep)[:, None, :] == 0, float("-inf"))
        return scores.softmax(-1) @ x


def workload(device: str) -> tuple[nn.Module, torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    keep = torch.ones(B, T, dtype=torch.bool)
    keep[1, -2:] = False
    return Converting().to(device), torch.randn(B, T, D).to(device), keep.to(device)


def conversions(recorded: tracer.Trace) -> dict[str, tuple[str, str, int]]:
    """op -> (dtype, device, line) of the recorded conversions, by their line's marker."""
    found = {}
    for event in recorded.recording.events:
        for marker in ("type", "type-string", "cpu", "to"):
            if event.line == line_of(marker):
                out = event.outputs[0]
                found[marker] = (event.op, out.dtype, out.device)
    return found


def test_conversions_on_meta_run_as_conversions_and_are_noted() -> None:
    model, x, keep = workload("meta")
    report, recorded = tracer.run_check(model, (x, keep))
    assert recorded.recording.error is None
    assert "shape-error" not in {f.code for f in report.findings}
    assert conversions(recorded) == {
        "type": ("type", "uint8", "meta"), "type-string": ("type", "uint8", "meta"),
        "cpu": ("cpu", "float32", "meta"), "to": ("to", "float16", "meta"),
    }
    for marker in ("type", "type-string", "cpu", "to"):
        notes = [note for note in report.notes if f"{THIS_FILE}:{line_of(marker)}" in note]
        assert len(notes) == 1 and "meta" in notes[0] and "no data to copy" in notes[0], marker
    # The structure after the conversions is still recorded: the block and its softmax.
    assert report.summary["attention_blocks"] == 1


def test_the_same_model_on_the_cpu_converts_for_real_without_notes() -> None:
    model, x, keep = workload("cpu")
    with torch.no_grad():
        untraced = model(x, keep)
        with tracer.trace(model) as recorded:
            traced = model(x, keep)
    assert torch.equal(traced, untraced) and recorded.recording.error is None
    assert conversions(recorded) == {
        "type": ("type", "uint8", "cpu"), "type-string": ("type", "uint8", "cpu"),
        "cpu": ("cpu", "float32", "cpu"), "to": ("to", "float16", "cpu"),
    }
    assert not [note for note in recorded.recording.notes if "no data to copy" in note]


def test_conversions_that_stay_on_meta_are_left_alone() -> None:
    """A dtype change or `.type()` asking for the type name needs no stand-in and no note."""

    class Staying(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            assert x.type() == "torch.meta.FloatTensor"
            return x.to(torch.float16).type(torch.float32).to("meta") * 2

    model = Staying()
    with tracer.trace(model) as recorded:
        model(torch.ones(2, 3, device="meta"))
    assert [e.op for e in recorded.recording.events] == ["to", "type", "to", "mul"]
    assert not [note for note in recorded.recording.notes if "no data to copy" in note]


@pytest.mark.parametrize("call", ["numpy", "tolist"])
def test_reading_values_on_meta_still_fails_as_before(call: str) -> None:
    """Only copies are stood in for: code that needs the numbers has none on meta."""

    class Reading(nn.Module):
        def forward(self, x: torch.Tensor) -> object:
            return getattr(x, call)()

    model = Reading()
    with pytest.raises(Exception):
        with tracer.trace(model):
            model(torch.ones(2, device="meta"))
