"""What the recorder keeps of values: masks at their own size under their own budget, the
vids it had to drop, and statistics that equal the real tensors' whichever way they are made."""

from __future__ import annotations

import math
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

import tracer
from tracer.statistics import value_stats
from tracer.values import SMALL_NUMEL


class CausalLeak(nn.Module):
    """One head, d=4: the causal mask keeps one key of the future (`tril(..., diagonal=1)`)."""

    def __init__(self, d: int = 4) -> None:
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        T = x.size(1)
        keep = torch.ones(T, T, dtype=torch.bool).tril(diagonal=1)
        scores = self.q(x) @ self.k(x).transpose(-2, -1) * 0.5
        scores = scores.masked_fill(~keep, float("-inf"))
        return scores.softmax(-1) @ self.v(x)


def test_a_causal_leak_at_t_8192_is_found_although_the_tables_exceed_the_budget() -> None:
    torch.manual_seed(0)
    report, recorded = tracer.run_check(CausalLeak().eval(), (torch.randn(1, 8192, 4),))
    assert "causal-leak" in {f.code for f in report.findings}
    recording = recorded.recording
    # The 8192 x 8192 tables (256 MiB of float32 each) did not fit, and the recording says which.
    tables = [e.outputs[0].vid for e in recording.events if e.op in ("masked_fill", "softmax")]
    assert tables and set(tables) <= set(recording.dropped)
    assert not set(recording.dropped) & set(recording.values)
    assert any("budget" in note for note in report.notes)
    # The masks were kept, as bools at their own size.
    masks = [e.outputs[0].vid for e in recording.events if e.op in ("tril", "bitwise_not")]
    assert masks and all(recording.values[vid].dtype == torch.bool for vid in masks)
    assert all(recording.values[vid].shape == (8192, 8192) for vid in masks)


class ExpandedMask(nn.Module):
    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        T = scores.size(-1)
        hidden = torch.ones(T, T, dtype=torch.bool).triu(1)
        return scores.masked_fill(hidden.expand_as(scores), float("-inf")).softmax(-1)


def test_an_expanded_mask_is_kept_as_a_view_of_its_source() -> None:
    scores = torch.randn(3, 4, 32, 32)
    model = ExpandedMask()
    with tracer.trace(model) as recorded:
        model(scores)
    recording = recorded.recording
    (expand,) = [e for e in recording.events if e.op == "expand_as"]
    source, expanded = recording.values[expand.inputs[0].vid], recording.values[expand.outputs[0].vid]
    assert expanded.shape == scores.shape and expanded.untyped_storage().data_ptr() == source.untyped_storage().data_ptr()
    assert torch.equal(expanded, torch.ones(32, 32, dtype=torch.bool).triu(1).expand(3, 4, 32, 32))


def test_dropped_lists_exactly_the_wanted_values_left_out() -> None:
    torch.manual_seed(0)
    model = CausalLeak().eval()
    x = torch.randn(2, 40, 4)
    with tracer.trace(model) as roomy:
        model(x)
    with tracer.trace(model, value_budget_bytes=2 * 40 * 40 * 4) as tight:
        model(x)
    assert roomy.recording.dropped == [] and not roomy.recording.notes
    kept_then = set(roomy.recording.values)
    dropped = tight.recording.dropped
    assert dropped and set(dropped) == kept_then - set(tight.recording.values)
    assert any(str(len(dropped)) in note and "budget" in note for note in tight.recording.notes)
    # The masks have their own budget: still kept.
    assert all(e.outputs[0].vid in tight.recording.values for e in tight.recording.events if e.op == "tril")


class Shapes(nn.Module):
    """Values too large to copy, made by ops whose outputs hold their input's elements (or not)."""

    def forward(self, x: torch.Tensor, seen: list[torch.Tensor]) -> torch.Tensor:
        h = x * 3 - 1
        for made in (h.view(-1, 64), h.reshape(8, -1), h.transpose(0, 1), h.transpose(0, 1).contiguous(),
                     h.view(16, 16, -1).permute(2, 0, 1), h.mT, h.unsqueeze(0), F.dropout(h, 0.5, training=False),
                     h.to(torch.float64), h.clone(), (h > 0).t()):
            seen.append(made)
        broken = h.exp().log().sqrt()  # NaN for the negative entries
        seen += [broken, broken.t()]
        trained = F.dropout(h.clone(), 0.5, training=True, inplace=True)
        seen.append(trained)
        return h


def test_statistics_equal_those_of_the_real_values() -> None:
    torch.manual_seed(0)
    x = torch.randn(256, 512)  # above the sample size: a permutation's mean is read from other elements
    seen: list[torch.Tensor] = []
    model = Shapes()
    with tracer.trace(model) as recorded:
        model(x, seen)
    recording, book = recorded.recording, recorded._recorder.values
    for tensor in seen:
        meta = book.meta(tensor)  # the value the tensor holds now: what its last op made
        assert tensor.numel() > SMALL_NUMEL
        assert meta.vid not in recording.values or tensor.dtype == torch.bool  # taken at record time
        assert _same(recording.stats_of(meta.vid), value_stats(tensor)), recording.events[-1].op
    # The in-place dropout's output is not its input's value: its statistics are its own.
    trained = book.meta(seen[-1])
    (dropout,) = [e for e in recording.events if e.outputs and e.outputs[0].vid == trained.vid]
    assert not _same(recording.stats_of(dropout.inputs[0].vid), recording.stats_of(trained.vid))
    assert recording.stats_of(book.meta(seen[-2]).vid).nan > 0


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return all(x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y))
               for x, y in zip((a.minimum, a.maximum, a.mean, a.nonfinite, a.nan),
                               (b.minimum, b.maximum, b.mean, b.nonfinite, b.nan)))


def test_statistics_and_dropped_survive_a_save_and_load(tmp_path: Path) -> None:
    torch.manual_seed(0)
    model = CausalLeak().eval()
    with tracer.trace(model, value_budget_bytes=2 * 40 * 40 * 4) as recorded:
        model(torch.randn(2, 40, 4))
    path = tmp_path / "leak.attntrace"
    recorded.save(str(path))
    loaded = tracer.load(path).recording
    original = recorded.recording
    assert loaded.dropped == original.dropped != []
    vids = sorted({m.vid for e in original.events for m in (*e.inputs, *e.outputs)} | set(original.sources))
    assert all(_same(loaded.stats_of(vid), original.stats_of(vid)) for vid in vids)


def test_the_mask_budget_is_its_own_and_never_below_the_value_budget() -> None:
    torch.manual_seed(0)
    model = CausalLeak().eval()
    x = torch.randn(1, 40, 4)
    with tracer.trace(model, value_budget_bytes=0) as roomy_masks:
        model(x)
    kept = roomy_masks.recording.values
    masks = {e.outputs[0].vid for e in roomy_masks.recording.events if e.op in ("tril", "bitwise_not")}
    assert masks and masks <= set(kept) and all(kept[vid].dtype == torch.bool for vid in kept)
    with tracer.trace(model, value_budget_bytes=0, mask_budget_bytes=0) as no_masks:
        model(x)
    assert no_masks.recording.values == {} and masks <= set(no_masks.recording.dropped)
    with tracer.trace(model, value_budget_bytes=3 * 2**30) as large:
        model(x)
    assert large._recorder.keeper.mask_budget_bytes == 3 * 2**30


def test_statistics_of_a_training_step_read_no_scalar_that_requires_grad(monkeypatch) -> None:
    """torch warns (once per process, in the user's output) when a scalar is read from a tensor
    that requires grad; a transpose's statistics under a training step did that."""
    original = torch.Tensor.__float__

    def checked(tensor: torch.Tensor) -> float:
        assert not tensor.requires_grad, "a scalar read from a tensor that requires grad"
        return original(tensor)

    monkeypatch.setattr(torch.Tensor, "__float__", checked)

    class Heads(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.q = nn.Linear(64, 64)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            q = self.q(x).view(4, 256, 4, 16).transpose(1, 2)  # not kept: statistics from the view's
            return torch.softmax(q @ q.transpose(-2, -1), dim=-1)

    model = Heads().train()
    with tracer.trace(model) as recorded:
        model(torch.randn(4, 256, 64)).sum().backward()
    assert recorded.recording.events
