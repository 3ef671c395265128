"""Tracing on the meta device: shapes without values, so no weights are allocated; structural
checks still run, value checks are skipped and the report says so."""

from __future__ import annotations

import json
import sys

import pytest
import torch

import tracer
from models.zoo import catalogue
from support import build_workload
from tracer.checks.limits import ON_META
from tracer.targets import META_HINT, Workload

# Bugs that show in the shapes and ops alone, so they must be found without values.
STRUCTURAL = (
    "softmax_axis_query", "head_split_view_no_transpose", "head_merge_view_no_transpose",
    "layernorm_axis_mean_dim1", "scale_factor_d_k", "positional_axis_batch_first_table",
    "axis_mismatch_encoder_residual", "dropout_eval_output", "shape_error_missing_transpose",
)


def _says_meta(notes) -> bool:
    """The one note that names the checks the meta device leaves out, said once."""
    return sum(note.startswith(ON_META) for note in notes) == 1


def on_meta(name: str) -> tuple[tracer.Report, tracer.Trace]:
    """The API equivalent of `attnscope check --device meta zoo:NAME`."""
    entry = catalogue()[name]
    model, args, kwargs = build_workload(entry)
    workload = Workload(name, model, args, kwargs).to("meta")
    with torch.device("meta"):  # tensors the forward pass creates itself follow
        return tracer.run_check(workload.model, workload.args, workload.kwargs,
                                layout=getattr(entry.module, "LAYOUT", "batch-first"))


@pytest.mark.parametrize("name", ["ref_encoder_decoder", "ref_encoder_prenorm", "ok_sdpa_causal", "ok_mha_key_padding"])
def test_reference_models_are_clean_on_meta(name: str) -> None:
    report, recorded = on_meta(name)
    cpu = tracer.run_check(*build_workload(catalogue()[name]))[0]
    assert [f.to_dict() for f in report.findings if f.severity != "info"] == []
    assert recorded.recording.device == "meta" and _says_meta(report.notes)
    assert recorded.recording.values == {}
    assert report.summary["attention_blocks"] == cpu.summary["attention_blocks"] > 0
    assert report.summary["score_elements"] == cpu.summary["score_elements"]


def test_a_validation_guard_is_taken_as_false_and_noted() -> None:
    report, _ = on_meta("ref_encoder_prenorm")  # `if empty_rows.any(): raise ValueError(...)`
    (guess,) = [note for note in report.notes if "bool(tensor)" in note]
    assert "models/reference/attention.py:" in guess and guess.endswith("taken as False")


@pytest.mark.parametrize("name", STRUCTURAL)
def test_structural_bugs_are_found_on_meta(name: str) -> None:
    report, _ = on_meta(name)
    expected = set(catalogue()[name].expected)
    assert expected <= {f.code for f in report.findings}


def test_a_bug_only_values_show_is_skipped_with_the_note() -> None:
    report, _ = on_meta("causal_leak_tril_offset")
    assert not report.findings and _says_meta(report.notes)


def test_a_tiny_llama_built_on_meta_is_checked() -> None:
    transformers = pytest.importorskip("transformers")
    config = transformers.LlamaConfig(
        hidden_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        intermediate_size=128, vocab_size=100,
    )
    with torch.device("meta"):
        model = transformers.LlamaForCausalLM(config).eval()
        ids = torch.zeros(2, 16, dtype=torch.long)
    assert model.lm_head.weight.device.type == "meta"
    report = tracer.check(model, ids)
    assert [f.to_dict() for f in report.findings if f.severity != "info"] == []
    assert report.summary["attention_blocks"] == 2
    assert report.summary["score_elements"] == 2 * 4 * 16 * 16 * 2
    assert _says_meta(report.notes)


# ----------------------------------------------------------------------------- --device meta builds on meta
ORDINARY_BUILD = """
import torch
from torch import nn


SEEN = {}


class Huge(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(100_000, 100_000)  # 40 GB of float32 weights, were they allocated
        self.q, self.k = nn.Linear(8, 8), nn.Linear(8, 8)

    def forward(self, x):
        scores = self.q(x) @ self.k(x).transpose(-2, -1) / 8 ** 0.5
        return torch.softmax(scores, dim=-2) @ x


def build():
    SEEN["device"] = torch.empty(1).device.type
    return Huge().eval(), torch.randn(2, 5, 8)
"""


def test_the_build_itself_runs_on_the_meta_device(tmp_path) -> None:
    """A model too big for the machine, built the ordinary way: on meta, no weight is allocated."""
    from tracer.targets import isolated, load_target

    (tmp_path / "huge.py").write_text(ORDINARY_BUILD)
    with isolated():
        workload = load_target(f"{tmp_path / 'huge.py'}:build", device="meta")
        module = sys.modules[type(workload.model).__module__]
        assert module.SEEN["device"] == "meta"  # tensors created inside build() had no storage
    assert all(parameter.is_meta for parameter in workload.model.parameters())
    assert all(arg.is_meta for arg in workload.args)


def test_check_device_meta_on_an_ordinary_build(tmp_path, capsys) -> None:
    from tracer.cli import main

    (tmp_path / "huge.py").write_text(ORDINARY_BUILD)
    assert main(["check", "--json", "--device", "meta", "--max-memory", "1G", f"{tmp_path / 'huge.py'}:build"]) == 1
    (result,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [f["code"] for f in result["findings"]] == ["softmax-axis"]  # structural: found without values
    assert _says_meta(result["notes"])


@pytest.mark.parametrize("body", [
    "model = nn.Linear(2, 2)\n    scale = float(model.weight.sum())",  # reads a value
    "model = nn.Linear(2, 2)\n    model.weight.data.copy_(torch.ones(2, 2).cpu().numpy().mean() * model.weight)",
])
def test_a_build_that_cannot_run_on_meta_gets_a_one_line_explanation(tmp_path, capsys, body: str) -> None:
    from tracer.cli import main

    (tmp_path / "reads.py").write_text(
        f"import torch\nfrom torch import nn\n\n\ndef build():\n    {body}\n    return model, torch.ones(1, 2)\n")
    target = f"{tmp_path / 'reads.py'}:build"
    assert main(["check", "--device", "meta", target]) == 2
    message = capsys.readouterr().err.splitlines()[0]  # the build's own warnings may follow, framed
    assert message.startswith(f"attnscope: error: {target}: calling build() raised ")
    assert message.endswith(META_HINT)
    assert main(["check", target]) in (0, 1)  # the same build is fine on the CPU
    capsys.readouterr()


def test_render_takes_the_device_too(tmp_path, capsys) -> None:
    from tracer.cli import main

    (tmp_path / "huge.py").write_text(ORDINARY_BUILD)
    out = tmp_path / "huge.dot"
    assert main(["render", "--device", "meta", f"{tmp_path / 'huge.py'}:build", "-o", str(out)]) == 0
    assert "softmax" in out.read_text()
