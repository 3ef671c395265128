"""Code run under torch.func transforms or on nested (jagged) tensors is traced without changing what it
computes: what the recording cannot describe is left out, and the report says so."""

from __future__ import annotations

import math

import torch
import torch.nn as nn

from tracer.recorder import NESTED_NOTE, TRANSFORM_NOTE
from tests.support import run


class PerSampleAttention(nn.Module):
    """Attention written for one sample, vmapped over the batch (lengths read inside)."""

    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(8, 24)

    def one(self, x, length):
        real = torch.arange(x.shape[0]) < length
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = torch.where(real[None, :], q @ k.T / math.sqrt(8), torch.tensor(float("-inf")))
        return scores.softmax(-1) @ v

    def forward(self, x, lengths):
        return torch.func.vmap(self.one)(x, lengths)


def test_a_vmapped_forward_runs_as_it_would_and_is_named_unseen():
    model, x, lengths = PerSampleAttention().eval(), torch.randn(3, 5, 8), torch.tensor([5, 3, 2])
    with torch.no_grad():
        expected = model(x, lengths)
    report = run(model, (x, lengths))
    assert [f.code for f in report.findings if f.severity == "error"] == []
    assert TRANSFORM_NOTE in report.notes
    with torch.no_grad():
        assert torch.equal(model(x, lengths), expected)


class JaggedEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x, lengths):
        ragged = torch.nested.nested_tensor([row[:int(n)] for row, n in zip(x, lengths)], layout=torch.jagged)
        pooled = torch.stack([self.proj(part).mean(0) for part in ragged.unbind()])
        return pooled


def test_nested_tensors_are_left_out_of_the_recording_with_a_note():
    model, x, lengths = JaggedEncoder().eval(), torch.randn(2, 5, 8), torch.tensor([5, 2])
    report = run(model, (x, lengths))
    assert [f for f in report.findings if f.severity == "error"] == []
    assert NESTED_NOTE in report.notes
