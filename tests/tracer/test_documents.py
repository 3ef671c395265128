"""Packed documents: told by an input's values (ids or offsets), kept apart as samples are.

The documents witness changes one packed document of each row (the second of three or more, else
the first) and protects every other document's positions; where every output is pooled, the
values inside are judged instead.
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from tests.support import run
from tracer.evidence.documents import document_ids


class VarlenEncoder(nn.Module):
    """The varlen layout: (total, d) tokens, documents told by offsets (`cu_seqlens`)."""

    def __init__(self, right: bool):
        super().__init__()
        self.right = right
        self.qkv = nn.Linear(8, 24)

    def forward(self, x, cu_seqlens):
        positions = torch.arange(x.shape[0])
        doc = torch.bucketize(positions, cu_seqlens[1:], right=self.right)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        keep = doc[:, None] == doc[None, :]
        return F.scaled_dot_product_attention(q[None], k[None], v[None], attn_mask=keep)[0]


def _errors(report):
    return [f for f in report.findings if f.severity == "error"]


def test_a_document_boundary_off_by_one_in_offsets_is_a_batch_leak_with_its_proof():
    x, offsets = torch.randn(9, 8), torch.tensor([0, 4, 9])
    [finding] = _errors(run(VarlenEncoder(right=False), (x, offsets)))
    assert finding.code == "batch-leak" and finding.witness.kind == "batch"
    assert finding.witness.changed == "the first packed document of x (positions 0-3; documents told by cu_seqlens)"
    assert "position 4" in finding.witness.moved  # the first token of document 1 reads document 0
    clean = run(VarlenEncoder(right=True), (x, offsets))
    assert _errors(clean) == [] and "documents" in clean.summary["witnesses"]["ran"]


class PooledPerDocument(nn.Module):
    """One vector per packed document (slot j pools document j), with or without a document mask."""

    def __init__(self, masked: bool):
        super().__init__()
        self.masked = masked
        self.qkv = nn.Linear(8, 24)

    def forward(self, x, doc_ids):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / math.sqrt(8)
        if self.masked:
            scores = scores.masked_fill(doc_ids[:, :, None] != doc_ids[:, None, :], float("-inf"))
        h = scores.softmax(-1) @ v
        slots = torch.arange(3)[None, :, None] == doc_ids[:, None, :]  # (B, 3, T)
        return (slots.float() @ h) / slots.sum(-1, keepdim=True).clamp(min=1)


def test_pooled_documents_are_judged_inside_where_no_output_has_their_positions():
    x = torch.randn(2, 7, 8)
    doc_ids = torch.tensor([[0, 0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 1, 1, 1]])
    [finding] = _errors(run(PooledPerDocument(masked=False), (x, doc_ids)))
    assert finding.code == "batch-leak" and "output (line" in finding.witness.moved
    clean = run(PooledPerDocument(masked=True), (x, doc_ids))
    assert _errors(clean) == [] and "documents" in clean.summary["witnesses"]["ran"]


class SegmentEmbedded(nn.Module):
    """BERT's sentence pair: 0/1 segment ids only embedded, both sentences read together on purpose."""

    def __init__(self):
        super().__init__()
        self.tokens, self.segments = nn.Embedding(20, 8), nn.Embedding(2, 8)
        self.attn = nn.MultiheadAttention(8, 2, batch_first=True)

    def forward(self, ids, segment_ids):
        x = self.tokens(ids) + self.segments(segment_ids)
        return self.attn(x, x, x, need_weights=False)[0]


def test_ids_that_are_only_embedded_tell_neither_documents_nor_padding():
    segment_ids = torch.tensor([[0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1]])
    report = run(SegmentEmbedded(), (torch.randint(0, 20, (2, 6)), segment_ids))
    assert _errors(report) == [] and "documents" not in report.summary["witnesses"]["ran"]


def test_document_ids_rise_run_by_run_and_are_longer_than_positions():
    assert document_ids(torch.tensor([[0, 0, 1, 1, 1, -1]])).tolist() == [[0, 0, 1, 1, 1, -1]]
    assert document_ids(torch.tensor([[2, 2, 1, 1]])) is None  # falling: not packed in order
    assert document_ids(torch.tensor([[1, 1, 2, 0, 0]])).tolist() == [[1, 1, 2, -1, -1]]  # packing's segment 0: padding
    assert document_ids(torch.tensor([[0, 0, 1, 1, 2]])).tolist() == [[0, 0, 1, 1, 2]]  # ids from 0: a document
    assert document_ids(torch.tensor([[0, 0, 1, 1, 0, 0]])) is None  # an id in two places (labels, buckets)
    assert document_ids(torch.arange(6)[None]) is None  # a new id at every position: positions
    assert document_ids(torch.tensor([[0.0, 0.0, 1.0]])) is None
