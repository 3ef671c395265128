"""Witnesses: the model run again under controlled changes proves errors, finds what no rule knows,
refutes what a rule claimed, and leaves the model exactly as one forward pass left it."""

from __future__ import annotations

import copy

import pytest
import torch
import torch.nn as nn

import tracer
from models.zoo import catalogue
from tests.support import build_workload, check_entry


def _errors(name: str, witness: bool = True):
    report, _ = check_entry(catalogue()[name], witness=witness)
    return [finding for finding in report.findings if finding.severity == "error"], report


def _bug_line(name: str) -> int:
    source = catalogue()[name].module.__file__
    with open(source) as handle:
        return next(number for number, line in enumerate(handle, 1) if "# BUG:" in line)


@pytest.mark.parametrize("name, code, kind", [
    ("causal_leak_static_kv_cache", "causal-leak", "causal"),
    ("mask_polarity_where_pooling", "mask-polarity", "padding"),
    ("padding_leak_mask_ignored", "padding-leak", "padding"),
    ("batch_leak_eval_batch_statistics", "batch-leak", "batch"),
    ("causal_leak_conv_no_causal_padding", "causal-leak", "causal"),
    ("nondeterministic_noise_in_eval", "nondeterministic", "repeat"),
    ("padding_leak_pad_id_mean_pool", "padding-leak", "padding"),
    ("causal_leak_linear_attention_normalizer", "causal-leak", "causal"),
    ("causal_leak_ssm_centred_conv", "causal-leak", "causal"),
    ("batch_leak_packed_documents_causal_only", "batch-leak", "batch"),  # a packed document is a sample
    ("positional_axis_packed_positions_not_reset", "positional-axis", "batch"),  # the document run alone differs
    ("batch_leak_beam_rows_without_offset", "batch-leak", "batch"),  # rows it chose itself
    ("batch_leak_embeddings_normalized_over_batch", "batch-leak", "batch"),  # beside a batch x batch table
])
def test_a_violated_witness_is_an_error_at_the_line_that_made_it(name: str, code: str, kind: str) -> None:
    errors, _ = _errors(name)
    assert [(f.code, f.line) for f in errors] == [(code, _bug_line(name))]
    assert errors[0].witness is not None and errors[0].witness.kind == kind and errors[0].witness.by > 0


@pytest.mark.parametrize("name", ["causal_leak_static_kv_cache", "mask_polarity_where_pooling",
                                  "padding_leak_mask_ignored",
                                  "causal_leak_conv_no_causal_padding", "nondeterministic_noise_in_eval",
                                  "causal_leak_linear_attention_normalizer", "causal_leak_ssm_centred_conv",
                                  "batch_leak_packed_documents_causal_only",
                                  "positional_axis_packed_positions_not_reset"])
def test_no_rule_sees_these_without_a_witness(name: str) -> None:
    errors, report = _errors(name, witness=False)
    assert errors == [] and "witnesses" not in report.summary


@pytest.mark.parametrize("name, kinds", [
    ("ok_static_kv_cache", {"repeat", "causal"}),
    ("ok_where_pooling", {"repeat", "batch", "padding", "alone"}),
    ("ok_attention_mask_unpadded", {"repeat", "batch", "padding"}),
    ("ok_per_sample_statistics", {"repeat", "batch"}),
    ("ok_causal_conv", {"repeat", "batch", "causal"}),
    ("ok_noise_in_training", {"repeat", "batch"}),
    ("ok_detr_padded_image", {"repeat", "batch"}),
    ("ok_pad_id_masked_pool", {"repeat", "batch", "padding", "alone"}),
    ("ok_linear_attention_running_normalizer", {"repeat", "batch", "causal"}),  # causal: its running sums
    ("ok_ssm_causal_conv", {"repeat", "batch", "causal"}),  # causal: its scan, first to last
    ("ok_bidirectional_scan_tagger", {"repeat", "batch"}),  # scans both ways: no causal claim
    ("ok_packed_documents_block_causal", {"repeat", "batch", "padding", "documents", "causal", "alone"}),
    ("ok_modality_ids_joint_attention", {"repeat", "batch"}),  # ids compared with one value: no documents
    ("ok_packed_positions_restarted", {"repeat", "batch", "documents", "causal", "alone"}),
    ("ok_left_padded_fixed_window", {"repeat", "batch", "padding", "causal", "alone"}),  # positions by design
    ("ok_dual_encoder_in_batch_logits", {"repeat", "batch"}),  # the embeddings judged, the (B, B) table not
])
def test_the_correct_twins_pass_every_witness_that_ran(name: str, kinds: set[str]) -> None:
    report, _ = check_entry(catalogue()[name])
    assert [f for f in report.findings if f.severity != "info"] == []
    assert set(report.summary["witnesses"]["ran"]) == kinds


def test_rows_the_caller_picks_are_not_judged_and_the_report_says_so() -> None:
    """A cache reordered by beam rows given to the forward: samples read each other where the
    caller said; the batch witness says it cannot judge that instead of reporting a leak."""
    report, _ = check_entry(catalogue()["ok_beam_cache_reordered_by_given_rows"])
    assert [f for f in report.findings if f.severity != "info"] == []
    assert "batch" not in report.summary["witnesses"]["ran"]
    assert any(note.startswith("batch witness not judged") and "beam_rows" in note and "line 39" in note
               for note in report.notes)


def test_a_rule_finding_gains_the_witness_as_its_proof_in_json_and_text(capsys) -> None:
    report, _ = check_entry(catalogue()["mask_polarity_additive"])
    finding = next(f for f in report.findings if f.code == "mask-polarity")
    data = finding.to_dict()["witness"]
    assert data["kind"] == "padding" and data["by"] > 0 and data["changed"] and data["moved"]
    from tracer.cli import main

    assert main(["check", "zoo:mask_polarity_additive", "--jobs", "1"]) == 1
    printed = capsys.readouterr().out
    assert "  proof: changing the padded positions of x moved the output at position" in printed


def test_witness_off_runs_none() -> None:
    from tracer.cli import main

    assert main(["check", "zoo:causal_leak_static_kv_cache", "--witness", "off", "--jobs", "1"]) == 0


class _Stateful(nn.Module):
    """A model whose forward writes a cache buffer, grows a list and counts its calls."""

    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.register_buffer("cache", torch.zeros(2, 3, 4))
        self.calls = 0
        self.seen: list[torch.Tensor] = []

    def forward(self, x):
        self.calls += 1
        self.cache[:, : x.shape[1]] += self.proj(x)
        self.seen.append(x.sum())
        return self.cache.clone() * self.calls


def test_the_model_is_left_as_one_forward_pass_left_it() -> None:
    torch.manual_seed(0)
    model, x = _Stateful().eval(), torch.randn(2, 3, 4)
    twin = copy.deepcopy(model)
    with torch.no_grad():
        expected_first = twin(x)
    tracer.check(model, x)
    assert model.calls == twin.calls == 1 and len(model.seen) == 1
    assert torch.equal(model.cache, twin.cache)
    with torch.no_grad():
        assert torch.equal(model(x), twin(x))  # the second call sees the state the first left
    assert not torch.equal(expected_first, model.cache)


class _ExpandedAttribute(nn.Module):
    """Holds an `expand`ed tensor (its rows one memory location), as a mask kept for reuse might be."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.bias_rows = torch.zeros(1, 4).expand(3, 4)

    def forward(self, x):
        return self.proj(x) + self.bias_rows


def test_state_with_an_expanded_tensor_is_kept_and_the_witnesses_run() -> None:
    model, x = _ExpandedAttribute().eval(), torch.randn(2, 3, 4)
    report = tracer.check(model, x)
    assert [f for f in report.findings if f.severity != "info"] == []
    assert "batch" in report.summary["witnesses"]["ran"]
    assert model.bias_rows.stride(0) == 0  # the user's object, untouched


def test_no_witness_on_the_meta_device_and_the_report_says_so() -> None:
    entry = catalogue()["causal_leak_static_kv_cache"]
    from tracer.commands.common import trace_target

    report, _ = trace_target(f"zoo:{entry.name}", device="meta")
    assert any(note.startswith("witnesses not run: on the meta device") for note in report.notes)


def test_a_saved_recording_says_no_witness_ran(tmp_path) -> None:
    from tracer.commands.common import trace_target

    _, recorded = check_entry(catalogue()["ok_static_kv_cache"], witness=False)
    path = tmp_path / "run.attntrace"
    recorded.save(str(path))
    report, _ = trace_target(str(path))
    assert "witnesses not run: a saved recording has no model to run again" in report.notes


def test_a_clean_padding_witness_refutes_a_mask_claim() -> None:
    """A rule finding claiming padding reaches real positions, on a model where it does not, is a note."""
    from tracer.witness import _refuted
    from tracer.witness.plans import Plan
    from tracer.witness.regions import Region

    report, recorded = check_entry(catalogue()["mask_axis_query_broadcast"], witness=False)
    claim = next(f for f in report.findings if f.code == "mask-axis")
    analysis = recorded.analysis
    sequence = next(iter(analysis.padding))
    root = analysis.table.find(analysis.inputs.axes[next(
        vid for vid, roles in analysis.layout.roles.items() if "seq" in roles)][1])
    plan = Plan("padding", Region("padding", root, pad=analysis.padding[sequence].pad), "the padded positions of x")
    refuted = _refuted(analysis, plan, [claim])[0]
    assert refuted.severity == "info" and refuted.witness.by == 0.0 and "no harm" in refuted.message
    assert refuted.witness.moved == "nothing at the real positions"


def test_inputs_and_outputs_are_untouched_by_the_witnesses() -> None:
    model, args, kwargs = build_workload(catalogue()["padding_leak_mask_ignored"])
    kept = [arg.clone() for arg in args]
    with torch.no_grad():
        expected = model(*args)
    tracer.check(model, *args)
    assert all(torch.equal(a, b) for a, b in zip(args, kept))
    with torch.no_grad():
        assert torch.equal(model(*args), expected)


def test_render_witness_outlines_the_divergence_path(tmp_path) -> None:
    from tracer.cli import main

    plain, marked = tmp_path / "plain.dot", tmp_path / "witness.dot"
    assert main(["render", "zoo:causal_leak_static_kv_cache", "-o", str(plain)]) == 0
    assert main(["render", "zoo:causal_leak_static_kv_cache", "-o", str(marked), "--witness"]) == 0
    from tracer.render.dot import THEMES

    colour = THEMES["light"].witness
    assert colour not in plain.read_text()
    drawn = marked.read_text()
    assert drawn.count(f'color="{colour}"') >= 4 and "the witnessed change passed here" in drawn


def test_a_redrawn_pad_row_is_put_back() -> None:
    """The padding witness of an ids-only model redraws the pad embedding row for one run only."""
    model, args, _ = build_workload(catalogue()["padding_leak_pad_id_mean_pool"])
    row = model.embed.weight[0].clone()
    tracer.check(model, *args)
    assert torch.equal(model.embed.weight[0], row)


def test_zeros_that_only_may_be_padding_get_no_note_but_stay_in_the_summary() -> None:
    """Ids ending in token 0 with no mask and no pad id: perhaps padding, perhaps a token. The
    padding witness has nothing to change; the summary says why, the report adds no note."""
    class Tagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed, self.attn = nn.Embedding(10, 8), nn.MultiheadAttention(8, 2, batch_first=True)
            self.out = nn.Linear(8, 10)

        def forward(self, ids):
            x = self.embed(ids)
            return self.out(self.attn(x, x, x, need_weights=False)[0])

    torch.manual_seed(0)
    ids = torch.tensor([[3, 4, 5, 0, 0], [6, 7, 8, 9, 1]])
    report = tracer.check(Tagger().eval(), ids)
    assert not any("padding witness" in note for note in report.notes)
    assert "may be padding" in report.summary["witnesses"]["skipped"]["padding"]
