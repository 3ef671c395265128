"""Axis inference: what each dimension is, across the op families a Transformer uses."""

from __future__ import annotations

import math

import torch
from torch import nn

import tracer


def traced(model: nn.Module, *args, layout: str = "batch-first") -> tracer.Trace:
    with torch.no_grad(), tracer.trace(model, layout=layout) as t:
        model(*args)
    return t


def names(t: tracer.Trace, op: str, which: int = 0, output: bool = True) -> list[str]:
    """Display names of the axes of the `which`-th event of kind `op` (its output, or first input)."""
    event = [e for e in t.recording.events if e.op == op][which]
    meta = event.outputs[0] if output else event.inputs[0]
    return [t.analysis.table.get(a).display for a in t.analysis.axes_of(meta)]


class SplitHeads(nn.Module):
    def __init__(self, d: int = 16, heads: int = 4):
        super().__init__()
        self.heads, self.proj = heads, nn.Linear(d, d)

    def forward(self, x):
        B, T, d = x.shape
        q = self.proj(x).view(B, T, self.heads, d // self.heads).transpose(1, 2)
        scores = q @ q.transpose(-2, -1) / math.sqrt(d // self.heads)
        out = torch.softmax(scores, dim=-1) @ q
        return out.transpose(1, 2).reshape(B, T, d)


def test_inputs_batch_first_and_sequence_first():
    model = nn.Linear(16, 16)
    assert names(traced(model, torch.randn(2, 5, 16)), "linear", output=False) == ["B", "T", "d"]
    assert names(traced(model, torch.randn(5, 2, 16), layout="seq-first"), "linear", output=False) == ["T", "B", "d"]


def test_head_split_score_roles_and_merge_back():
    t = traced(SplitHeads(), torch.randn(2, 5, 16))
    assert names(t, "view") == ["B", "T", "H", "dh"]
    assert names(t, "transpose") == ["B", "H", "T", "dh"]
    assert names(t, "matmul") == ["B", "H", "Tq", "Tk"]
    assert names(t, "matmul", which=1) == ["B", "H", "Tq", "dh"]
    table = t.analysis.table
    merged = [e for e in t.recording.events if e.op == "reshape"][0]
    first_view = [e for e in t.recording.events if e.op == "view"][0]
    # merging (H, dh) back gives the very feature axis that was split
    assert table.same(t.analysis.axes_of(merged.outputs[0])[-1], t.analysis.axes_of(first_view.inputs[0])[-1])


def test_view_without_transpose_tears_positions_and_features():
    class Torn(nn.Module):
        def forward(self, x):
            B, T, d = x.shape
            return x.view(B, 2, T, d // 2)

    t = traced(Torn(), torch.randn(2, 5, 16))
    kinds = [t.analysis.table.get(a).kind for a in t.analysis.axes_of(t.recording.events[0].outputs[0])]
    assert kinds[0] == "batch" and "mixed" in kinds


def test_cross_attention_keeps_two_sequences_apart():
    class Cross(nn.Module):
        def forward(self, y, memory):
            scores = y @ memory.transpose(-2, -1)
            return torch.softmax(scores, dim=-1) @ memory

    t = traced(Cross(), torch.randn(2, 4, 8), torch.randn(2, 6, 8))
    assert names(t, "matmul") == ["B", "Tq_y", "Tk_memory"]
    assert t.analysis.table.conflicts == []


def test_residual_between_different_sequences_of_equal_length_is_a_conflict():
    class Mix(nn.Module):
        def forward(self, a, b):
            return a + b

    t = traced(Mix(), torch.randn(2, 5, 8), torch.randn(2, 5, 8))
    assert [c.reason for c in t.analysis.table.conflicts] == ["sequences"]


def test_masks_adopt_the_axes_they_meet_and_position_tables_are_positions():
    class Masked(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("table", torch.randn(32, 8))

        def forward(self, x, mask):
            x = x + self.table[: x.size(1)]
            scores = x @ x.transpose(-2, -1)
            return scores.masked_fill(mask[:, None, :] == 0, float("-inf")).softmax(-1)

    mask = torch.ones(2, 5, dtype=torch.long)
    mask[1, -2:] = 0
    t = traced(Masked(), torch.randn(2, 5, 8), mask)
    assert names(t, "getitem") == ["T", "d"]  # the table's rows became the sequence's positions
    assert names(t, "masked_fill") == ["B", "Tq", "Tk"]
    assert t.analysis.padding["x"].pad.tolist() == [[False] * 5, [False] * 3 + [True] * 2]


def test_einsum_and_sdpa_give_query_and_key_roles():
    class Einsum(nn.Module):
        def forward(self, q, k):
            return torch.einsum("bqd,bkd->bqk", q, k)

    class Fused(nn.Module):
        def forward(self, x):
            q = x.unflatten(-1, (2, 4)).transpose(1, 2)
            return nn.functional.scaled_dot_product_attention(q, q, q)

    assert names(traced(Einsum(), torch.randn(2, 5, 8), torch.randn(2, 5, 8)), "einsum") == ["B", "Tq_q", "Tk_k"]
    t = traced(Fused(), torch.randn(2, 5, 8))
    assert names(t, "scaled_dot_product_attention") == ["B", "H", "Tq", "dh"]


def test_unknown_ops_give_unknown_axes_and_no_findings():
    class Odd(nn.Module):
        def forward(self, x):
            return torch.fft.rfft(x, dim=1).abs()

    t = traced(Odd(), torch.randn(2, 8, 4))
    assert all(t.analysis.table.get(a).kind in ("unknown", "one", "batch", "feature")
               for a in t.analysis.axes_of(t.recording.events[0].outputs[0]))
    assert t.findings == []


class FusedQKV(nn.Module):
    """`view(B, T, 3, H, d_h)` of one fused projection, taken apart by iteration or by index."""

    def __init__(self, by_index: bool, d: int = 32, heads: int = 2):
        super().__init__()
        self.by_index, self.heads, self.qkv = by_index, heads, nn.Linear(d, 3 * d)

    def forward(self, x):
        B, T, d = x.shape
        qkv = self.qkv(x).view(B, T, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = (qkv[0], qkv[1], qkv[2]) if self.by_index else qkv
        return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v


class PerHeadLoop(nn.Module):
    """Three real heads split off the features and taken one by one: heads, not a q/k/v selector."""

    def forward(self, x):
        B, T, d = x.shape
        heads = x.view(B, T, 3, d // 3).unbind(2)
        return torch.cat([torch.softmax(h @ h.transpose(-2, -1), dim=-1) @ h for h in heads], dim=-1)


def test_the_size_3_axis_of_a_fused_qkv_is_named_qkv_not_heads():
    for by_index in (False, True):
        t = traced(FusedQKV(by_index), torch.randn(3, 8, 32))
        assert names(t, "view") == ["B", "T", "qkv", "H", "dh"]
        assert t.analysis.describe([e for e in t.recording.events if e.op == "view"][0].outputs[0]) == \
            "B=3 × T=8 × qkv=3 × H=2 × dh=16"
        assert names(t, "softmax") == ["B", "H", "Tq", "Tk"]
    loop = traced(PerHeadLoop(), torch.randn(2, 5, 12))
    assert names(loop, "view") == ["B", "T", "H", "dh"]


def test_a_sliding_window_over_the_positions_keeps_the_batch_and_makes_windows():
    """`x.unfold(dim, size, step)` (a time series cut into patches): the batch stays the batch,
    the positions become windows, and each window's entries are a new last dim."""
    class Patches(nn.Module):
        def forward(self, x):  # (B, T, C) -> (B, C, windows, size)
            return x.permute(0, 2, 1).unfold(-1, 4, 2).sum(-1)

    t = traced(Patches(), torch.randn(3, 12, 2))
    event = next(e for e in t.recording.events if e.op == "unfold")
    axes = t.analysis.axes_of(event.outputs[0])
    table = t.analysis.table
    assert table.same(axes[0], t.analysis.axes_of(event.inputs[0])[0]) and table.get(axes[0]).kind == "batch"
    assert [table.get(axis).size for axis in axes] == [3, 2, 5, 4]
    assert table.get(axes[2]).kind == "seq" and not table.same(axes[2], t.analysis.axes_of(event.inputs[0])[2])


def test_a_history_shifted_one_step_behind_is_a_shift_of_its_sequence():
    """`cat([start, x[:, :-1]])` is as long as x by construction, position for position."""

    class Shifted(nn.Module):
        def forward(self, x):
            start = torch.zeros(x.shape[0], 1, x.shape[2])
            return torch.cat([start, x[:, :-1]], dim=1) + 1.0

    t = traced(Shifted(), torch.randn(2, 6, 4))
    table = t.analysis.table
    events = t.recording.events
    joined = t.analysis.axes_of(next(e for e in events if e.op == "cat").outputs[0])[1]
    cut = next(e for e in events if e.op == "getitem")
    assert table.same(table.shifted_from(joined), t.analysis.axes_of(cut.inputs[0])[1])
    assert table.shifted_from(t.analysis.axes_of(cut.outputs[0])[1]) is None  # x[:, :-1] itself: a cut, no shift


def test_a_mask_joined_like_the_tokens_meets_them_piece_by_piece():
    """A key mask joined from a task part and a per-step part, against tokens joined the same way:
    each piece meets its twin, so the step mask's dim becomes the steps' positions."""

    class Joined(nn.Module):
        def __init__(self):
            super().__init__()
            self.step_pos = nn.Parameter(torch.randn(8, 1, 4))

        def forward(self, task, obs, step_pad):
            B, L, K, _ = obs.shape
            x = torch.cat([task, (obs + self.step_pos[:L]).flatten(1, 2)], dim=1)
            hidden = torch.cat([step_pad.new_zeros(B, task.shape[1]), step_pad.repeat_interleave(K, dim=1)], dim=1)
            return x.masked_fill(hidden[..., None], 0.0)

    obs = torch.randn(2, 3, 2, 4)
    t = traced(Joined(), torch.randn(2, 3, 4), obs, torch.zeros(2, 3, dtype=torch.bool))
    table, sources = t.analysis.table, t.analysis.recording.sources
    axes = {source.name: t.analysis.axes_of(source.meta) for source in sources.values() if source.kind == "input"}
    assert table.same(axes["step_pad"][1], axes["obs"][1])
    assert not table.same(axes["step_pad"][1], axes["task"][1])


def test_quantiles_over_positions_keep_the_batch_behind_the_quantile_axis():
    class Binned(nn.Module):
        def forward(self, values):
            edges = torch.nanquantile(values, torch.tensor([0.25, 0.5, 0.75]), dim=1)
            return edges.permute(1, 0, 2) + values[:, :3]

    t = traced(Binned(), torch.randn(2, 7, 4))
    assert names(t, "nanquantile")[1:] == ["B", "d"]  # the quantiles lead; the sequence is reduced away
