"""Notes that point at the cause: the line in build() that made an input, where a mask was laid along
its axes, the arguments a library module was made with, the reshape that folded samples together."""

from __future__ import annotations

import textwrap

import torch
import torch.nn as nn

from tests.support import run
from tracer.commands.common import trace_target
from tracer.targets import isolated

CAUSAL_MASK_FROM_BUILD = '''
import torch
import torch.nn as nn


def future_mask(size):
    hidden = torch.triu(torch.ones(size, size), diagonal=0)
    return hidden == 0


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(8, 24)

    def forward(self, x, keep):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = (q @ k.transpose(1, 2) / 8 ** 0.5).masked_fill(~keep, -1e9)
        return scores.softmax(-1) @ v


def build():
    torch.manual_seed(0)
    return Decoder().eval(), (torch.randn(2, 5, 8), future_mask(5))
'''


def test_a_mask_built_by_a_helper_of_build_is_named_at_that_helpers_line(tmp_path):
    path = tmp_path / "decoder.py"
    path.write_text(textwrap.dedent(CAUSAL_MASK_FROM_BUILD))
    with isolated():
        report, _ = trace_target(f"{path}:build")
    [finding] = [f for f in report.findings if f.code == "causal-diagonal"]
    assert (str(path), 7) in {(note.file, note.line) for note in finding.related}  # the triu line
    assert any(note.role == "the input 'keep' built here" for note in finding.related)


class QueryRowsMasked(nn.Module):
    """A padding mask laid along the queries by a helper: `mask[:, None, :, None]`."""

    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(8, 24)

    def extended(self, mask):
        return (1.0 - mask[:, None, :, None].float()) * -1e9

    def forward(self, x, mask):
        q, k, v = (t.unflatten(-1, (2, 4)).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / 2.0 + self.extended(mask)
        return (scores.softmax(-1) @ v).transpose(1, 2).flatten(2)


def test_a_mask_axis_finding_names_the_line_that_laid_the_mask_along_the_queries():
    mask = torch.ones(2, 6, dtype=torch.long)
    mask[1, 4:] = 0
    report = run(QueryRowsMasked(), (torch.randn(2, 6, 8), mask))
    [finding] = [f for f in report.findings if f.code == "mask-axis"]
    line = QueryRowsMasked.extended.__code__.co_firstlineno + 1
    assert finding.related[0].line == line and finding.related[0].role == "the mask laid along the query axis here"


class BatchStatistics(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.BatchNorm1d(4, track_running_stats=False)

    def forward(self, x):
        return self.norm(x.transpose(1, 2)).transpose(1, 2)


def test_a_batchnorm_without_running_statistics_is_laid_where_it_was_made():
    """Its argument is the cause: the finding stands at the construction, with a note at the call."""
    report = run(BatchStatistics(), (torch.randn(3, 5, 4),))
    [finding] = [f for f in report.findings if f.code == "batch-leak"]
    assert finding.line == BatchStatistics.__init__.__code__.co_firstlineno + 2
    assert "keeps no running statistics" in finding.message
    called = BatchStatistics.forward.__code__.co_firstlineno + 1
    assert [(note.line, note.role) for note in finding.related] == [(called, "called here")]


class FoldedSamples(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(8, 24)

    def forward(self, x):
        B, T, C = x.shape
        flat = x.reshape(1, B * T, C)
        q, k, v = self.qkv(flat).chunk(3, dim=-1)
        return ((q @ k.transpose(1, 2) / C ** 0.5).softmax(-1) @ v).reshape(B, T, C)


def test_samples_folded_into_one_sequence_are_laid_at_the_fold():
    report = run(FoldedSamples(), (torch.randn(2, 4, 8),))
    [finding] = [f for f in report.findings if f.code == "batch-leak"]
    assert finding.line == FoldedSamples.forward.__code__.co_firstlineno + 2
    assert "folds the samples into one sequence" in finding.message


STRIDED_HEADS = """
    import torch
    import torch.nn as nn


    class StridedDecoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed, self.qkv, self.head = nn.Embedding(20, 8), nn.Linear(8, 24), nn.Linear(8, 20)

        def pattern(self, T):
            i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
            local = (j <= i) & (i - j < 2)
            strided = (i - j) % 2 == 0
            return torch.stack([local, strided])

        def forward(self, ids):
            B, T = ids.shape
            q, k, v = (t.unflatten(-1, (2, 4)).transpose(1, 2) for t in self.qkv(self.embed(ids)).chunk(3, dim=-1))
            scores = (q @ k.transpose(-2, -1) / 2.0).masked_fill(~self.pattern(T), float("-inf"))
            return self.head((scores.softmax(-1) @ v).transpose(1, 2).flatten(2))


    def build():
        torch.manual_seed(0)
        return StridedDecoder().eval(), (torch.randint(0, 20, (2, 6)),)
"""


def test_a_leak_in_one_piece_of_a_stacked_mask_is_named_at_that_piece(tmp_path):
    """Local heads and strided heads stacked into one mask; the strided heads read ahead. The notes
    name the strided line, whose own values let a query see a later key, not the local one."""
    path = tmp_path / "strided.py"
    path.write_text(textwrap.dedent(STRIDED_HEADS))
    with isolated():
        report, _ = trace_target(f"{path}:build")
    [finding] = [f for f in report.findings if f.code == "causal-leak"]
    lines = {note.line for note in finding.related if note.file == str(path)}
    assert 14 in lines and 13 not in lines  # strided, not local
