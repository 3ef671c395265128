"""Roles, padding and causes from evidence: what the forward does decides, never position or names."""

from __future__ import annotations

import inspect
import json

import pytest
import torch
from torch import nn

import tracer
from models.zoo import catalogue
from support import check_entry, run, serious

ENTRIES = catalogue()
SEQUENCE_FIRST = {
    "ok_sequence_first", "ok_seq_first_transformer_decoder", "ok_seq_first_word_language_model",
    "causal_leak_additive_offset", "dropout_eval_output", "head_merge_bmm_sequence_first",
    "head_split_sequence_first_bmm", "mask_after_softmax_where", "mask_axis_bmm_sequence_first",
    "positional_axis_learned_sequence_first",
}  # layernorm_variance_eps_outside says it is (T, B, d), but nothing in its forward says so: convention reads it


@pytest.mark.parametrize("name", sorted(SEQUENCE_FIRST))
def test_sequence_first_models_are_read_sequence_first_without_a_flag(name):
    report, trace = check_entry(ENTRIES[name])
    assert trace.analysis.layout.name == "seq-first"
    forced = tracer.Trace.from_recording(trace.recording, layout="seq-first")
    assert {(f.code, f.line) for f in forced.findings} == {(f.code, f.line) for f in report.findings}


@pytest.mark.parametrize("name", ["ok_mha_key_padding", "ok_pair_padding_mask", "softmax_axis_mha_batch_first",
                                  "positional_axis_batch_first_table"])
def test_batch_first_models_are_read_batch_first(name):
    _, trace = check_entry(ENTRIES[name])
    assert trace.analysis.layout.name == "batch-first"


def test_the_layout_option_still_overrides_the_evidence():
    _, trace = check_entry(ENTRIES["ok_sequence_first"])
    forced = tracer.Trace.from_recording(trace.recording, layout="batch-first")
    assert "softmax-axis" in {f.code for f in forced.findings}


def test_conflicting_evidence_is_named_in_the_finding():
    report, _ = check_entry(ENTRIES["softmax_axis_mha_batch_first"])
    [finding] = report.findings
    assert "dim 0 of input_ids is the batch" in finding.message and "position table" in finding.message


def test_an_explicit_batch_first_outweighs_a_tutorial_position_table():
    """batch_first=True is a choice the user made; the (max_len, 1, d) table is the bug."""
    report, trace = check_entry(ENTRIES["positional_axis_batch_first_table"])
    assert [f.code for f in report.findings] == ["positional-axis"]
    votes = {(vote.role, vote.weight) for vote in trace.analysis.layout.votes if "attention" in vote.reason}
    assert ("seq", 4.0) in votes


class WithoutEvidence(nn.Module):
    """Nothing but an elementwise op: the convention (batch first) is all there is, and no check fires."""

    def forward(self, x):
        return x * 2


def test_without_evidence_the_convention_only_names_the_axes():
    assert run(WithoutEvidence(), (torch.randn(2, 5, 8),)).findings == []
    report, trace = check_entry(ENTRIES["layernorm_variance_eps_outside"])  # says (T, B, d) in a comment only
    weak = {vote.reason for vote in trace.analysis.layout.votes if vote.role != "feature"}
    assert weak <= {"it is the longer of the first two dims"}
    assert [f.code for f in report.findings] == ["layernorm-variance"]


@pytest.mark.parametrize("name, told", [
    ("ok_padding_idx_one", "pad id 1"),
    ("ok_left_padding_causal", "pad id 1"),
    ("mask_value_small_negative", "the mask input attention_mask"),
    ("ok_mha_key_padding", "the mask input attention_mask"),
    ("ok_lengths_padding", "the lengths input"),
])
def test_padding_comes_from_evidence(name, told):
    _, trace = check_entry(ENTRIES[name])
    [padding] = trace.analysis.padding.values()
    assert padding.told.startswith(told)
    assert padding.pad.any() and not padding.pad.all()


def test_lengths_mark_the_positions_at_and_past_each_samples_length():
    _, trace = check_entry(ENTRIES["ok_lengths_padding"])
    [padding] = trace.analysis.padding.values()
    assert padding.pad.sum(dim=1).tolist() == [0, 4, 2]  # lengths 10, 6, 8 of 10 frames


def test_an_rnn_states_its_layout_and_passes_the_batch_and_time_steps_on():
    report, trace = check_entry(ENTRIES["ok_additive_attention_rnn"])
    assert any("GRU(batch_first=True)" in vote.reason for vote in trace.analysis.layout.votes)
    [block, *_] = trace.analysis.blocks
    assert trace.analysis.table.get(block.normalized_axis).kind == "seq"
    assert report.findings == []


def test_left_padding_is_read_at_the_start_of_the_rows():
    _, trace = check_entry(ENTRIES["ok_left_padding_causal"])
    [padding] = trace.analysis.padding.values()
    assert padding.pad.tolist()[0] == [True, True, False, False, False, False]


def test_a_mask_whose_ones_are_padding_is_read_the_other_way():
    from tracer.evidence.padding import _end_runs

    keep = torch.tensor([[1, 1, 1, 1, 0, 0], [1, 1, 0, 0, 0, 0]])
    assert _end_runs(keep.bool(), zero_means_pad=True).tolist() == (keep == 0).tolist()
    pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
    assert _end_runs(pad, zero_means_pad=False).tolist() == pad.tolist()


def test_a_mask_finding_notes_where_the_mask_was_built_in_json():
    report, _ = check_entry(ENTRIES["causal_diagonal_buffer_init"])
    [finding] = [f for f in report.to_dict()["findings"] if f["code"] == "causal-diagonal"]
    source = inspect.getsource(ENTRIES["causal_diagonal_buffer_init"].module).splitlines()
    roles = [(place["role"], source[place["line"] - 1].strip()) for place in finding["related"]]
    assert roles[0][0] == "the buffer 'mask' built here" and "tril" in roles[0][1]
    assert roles[1][0] == "buffer 'mask' registered here" and "register_buffer" in roles[1][1]
    assert finding["related"][0]["function"] == "CausalSelfAttention.__init__"
    assert "diagonal=0), not diagonal=-1" in finding["hint"]
    json.dumps(report.to_dict())


def test_a_helper_that_built_the_mask_is_named():
    report, _ = check_entry(ENTRIES["mask_axis_target_pad_and_causal"])
    [finding] = [f for f in report.findings if f.code == "mask-axis"]
    assert finding.related[0].function == "make_trg_mask"
    assert "unsqueeze(3)" in inspect.getsource(ENTRIES["mask_axis_target_pad_and_causal"].module).splitlines()[
        finding.related[0].line - 1]


def test_a_nan_output_is_always_an_error_with_its_path():
    report, _ = check_entry(ENTRIES["mask_axis_target_pad_and_causal"])
    [cause] = [f for f in report.findings if f.code == "mask-axis"]  # the NaN is its consequence
    assert cause.severity == "error"
    [nan] = [f for f in cause.consequences if f.code == "nan"]
    assert nan.op == "softmax" and "every key masked" in nan.message
    assert [place.role for place in nan.related][:2] == ["the -inf written here", "carried on to the output by matmul here"]


class PairMaskMinusInfinity(nn.Module):
    """A correct pair mask, but filled with -inf: the padded rows are NaN, and so is the output."""

    def forward(self, x, valid):
        scores = x @ x.transpose(-2, -1)
        pair = valid[:, :, None] & valid[:, None, :]
        return scores.masked_fill(~pair, float("-inf")).softmax(-1) @ x


def test_nan_in_padded_rows_that_reaches_the_output_is_reported():
    valid = torch.tensor([[True] * 5, [True] * 3 + [False] * 2])
    report = run(PairMaskMinusInfinity(), (torch.randn(2, 5, 8), valid))
    assert [f["code"] for f in serious(report)] == ["nan"]


class ReadsTheSoftmaxDimFromTheFront(nn.Module):
    def forward(self, x):
        return torch.softmax(x @ x.transpose(1, 2), dim=1) @ x


def test_hints_use_the_users_own_dim_spelling():
    [finding] = serious(run(ReadsTheSoftmaxDimFromTheFront(), (torch.randn(2, 5, 8),)))
    assert "over dim=1 " in finding["message"] and finding["hint"].endswith("use dim=2")


def test_a_library_module_called_by_attnscope_gets_no_launcher_line():
    mha = nn.MultiheadAttention(8, 2, batch_first=True)
    x = torch.randn(2, 4, 8)
    keep = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]]).bool()  # HF polarity passed as key_padding_mask
    report = run(mha, (x, x, x), {"key_padding_mask": keep})
    assert serious(report) and all(f["file"] == "" for f in serious(report))


class LeakyCausal(nn.Module):
    def forward(self, x):
        T = x.size(1)
        scores = x @ x.transpose(1, 2) / x.size(-1) ** 0.5
        keep = torch.tril(torch.ones(T, T), diagonal=1)
        return scores.masked_fill(keep == 0, float("-inf")).softmax(-1) @ x


def test_a_mask_the_budget_dropped_is_named_with_the_checks_it_limits():
    model, x = LeakyCausal(), torch.randn(1, 64, 8)
    with tracer.trace(model, value_budget_bytes=1024, mask_budget_bytes=1024) as t:  # masks have their own budget
        model(x)
    notes = t.analysis.notes
    assert any("was not kept" in note and "causal-leak" in note and ":" in note for note in notes), notes


def test_the_meta_device_names_the_checks_it_skips():
    model = LeakyCausal()
    with torch.device("meta"), tracer.trace(model) as t:
        model(torch.randn(1, 6, 8))
    assert any("meta device" in note and "causal-leak" in note and "nan" in note for note in t.analysis.notes)


class PoolingSlots(nn.Module):
    """One pooling query per image slot; a sequence with fewer images leaves a slot with no key,
    whose NaN row is dropped before the output (NaViT's attention pooling)."""

    def forward(self, x, image_ids, num_images):
        slots = int(num_images.max())
        queries = x.new_ones(x.shape[0], slots, x.shape[-1])
        scores = queries @ x.transpose(1, 2) / x.shape[-1] ** 0.5
        mask = torch.arange(slots)[:, None] == image_ids[:, None, :]  # (B, slots, T)
        pooled = scores.masked_fill(~mask, float("-inf")).softmax(-1) @ x
        keep = (torch.arange(slots)[None, :] < num_images[:, None]).reshape(-1)
        return pooled.reshape(-1, x.shape[-1])[keep]


def test_an_empty_row_whose_nan_never_reaches_an_output_is_not_reported():
    image_ids = torch.tensor([[0, 0, 0, 1, 1, 1], [0, 0, 0, 0, 0, 0]])
    report = run(PoolingSlots(), (torch.randn(2, 6, 8), image_ids, torch.tensor([2, 1])))
    assert serious(report, ("error", "warning")) == []
    kept_everything = run(PoolingSlots(), (torch.randn(2, 6, 8), image_ids, torch.tensor([2, 2])))
    [row] = [f for f in kept_everything.findings if f.code == "fully-masked-row"]
    assert row.severity == "error" and [f.code for f in row.consequences] == ["nan"]  # the NaN of the empty row


class ImageKeyPadding(nn.Module):
    """DETR's spelling: a (B, H, W) pixel mask, True on padding, flattened into the keys' padding."""

    def __init__(self, invert: bool):
        super().__init__()
        self.invert = invert
        self.proj = nn.Conv2d(4, 8, kernel_size=1)
        self.attn = nn.MultiheadAttention(8, 2)

    def forward(self, image, pixel_mask):
        src = self.proj(image).flatten(2).permute(2, 0, 1)  # (H*W, B, d)
        mask = pixel_mask.flatten(1)
        return self.attn(src, src, src, key_padding_mask=~mask if self.invert else mask)[0]


def test_an_inverted_image_padding_mask_is_named_from_its_shape():
    pixel_mask = torch.zeros(2, 3, 4, dtype=torch.bool)
    pixel_mask[1, :, 3:] = True  # image 1 is narrower and shorter: padded right and bottom
    pixel_mask[1, 2:, :] = True
    image = torch.randn(2, 4, 3, 4)
    assert "mask-polarity" in {f["code"] for f in serious(run(ImageKeyPadding(True), (image, pixel_mask)))}
    assert serious(run(ImageKeyPadding(False), (image, pixel_mask)), ("error", "warning")) == []


class UnbatchedImage(nn.Module):
    """segment-anything's spelling: one (C, H, W) image, normalized by (C, 1, 1) buffers, batched
    by the model itself (`torch.stack`), cut into patches that attend to each other."""

    def __init__(self, d: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.register_buffer("pixel_mean", torch.tensor([123.7, 116.3, 103.5]).view(-1, 1, 1), False)
        self.register_buffer("pixel_std", torch.tensor([58.4, 57.1, 57.4]).view(-1, 1, 1), False)
        self.patch_embed, self.qkv, self.heads = nn.Conv2d(3, d, 4, 4), nn.Linear(d, 3 * d), heads

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        x = torch.stack([(image - self.pixel_mean) / self.pixel_std], dim=0)
        x = self.patch_embed(x).permute(0, 2, 3, 1)
        B, H, W, d = x.shape
        qkv = self.qkv(x).reshape(B, H * W, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.reshape(3, B * self.heads, H * W, -1).unbind(0)
        return ((q * (d // self.heads) ** -0.5) @ k.transpose(-2, -1)).softmax(dim=-1) @ v


def test_an_unbatched_image_the_model_batches_itself_is_no_conflict():
    torch.manual_seed(0)
    report, recorded = tracer.run_check(UnbatchedImage().eval(), (torch.rand(3, 32, 32) * 255,), witness=False)
    assert not report.findings
    assert not any("conflicting evidence" in note for note in report.notes)
    (image,) = [vid for vid, source in recorded.recording.sources.items() if source.kind == "input"]
    assert recorded.analysis.layout.roles[image] == ("feature", "", "")  # channels; the batch is the model's own
