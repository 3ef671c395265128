"""No false alarms on real library code: torch's own Transformer modules."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from support import run, serious

B, S, T, D = 2, 6, 5, 16


@pytest.fixture
def padding() -> torch.Tensor:
    pad = torch.zeros(B, S, dtype=torch.bool)
    pad[1, -2:] = True
    return pad


def test_nn_transformer_batch_first():
    torch.manual_seed(0)
    model = nn.Transformer(D, 4, 2, 2, 32, batch_first=True)
    mask = nn.Transformer.generate_square_subsequent_mask(T)
    report = run(model, (torch.randn(B, S, D), torch.randn(B, T, D)), {"tgt_mask": mask})
    assert report.summary["attention_blocks"] == 6
    assert serious(report, ("error", "warning")) == []


@pytest.mark.parametrize("layout", [None, "seq-first"])
def test_nn_transformer_sequence_first_needs_no_flag(layout):
    """PyTorch's default layout (T, B, d) is read from what the modules do with it."""
    torch.manual_seed(0)
    model = nn.Transformer(D, 4, 2, 2, 32)
    mask = nn.Transformer.generate_square_subsequent_mask(T)
    report = run(model, (torch.randn(S, B, D), torch.randn(T, B, D)), {"tgt_mask": mask}, layout=layout)
    assert report.summary["attention_blocks"] == 6
    assert serious(report, ("error", "warning")) == []


class PositionsThenAttention(nn.Module):
    """Batch-first data by its own code's say-so: (B, T) ids, positions cut along dim 1 of a (1, L, d) table."""

    def __init__(self, batch_first: bool):
        super().__init__()
        self.embed = nn.Embedding(20, D)
        self.pos = nn.Parameter(torch.randn(1, 32, D))
        self.mha = nn.MultiheadAttention(D, 4, batch_first=batch_first)

    def forward(self, ids):
        x = self.embed(ids) + self.pos[:, : ids.size(1)]
        return self.mha(x, x, x)[0]


def test_batch_first_data_read_as_sequence_first_is_flagged():
    """The misuse batch_first exists for: attention over the batch axis."""
    ids = torch.randint(1, 20, (B, T))
    report = run(PositionsThenAttention(batch_first=False), (ids,))
    assert [f["code"] for f in serious(report)] == ["softmax-axis"]
    assert serious(run(PositionsThenAttention(batch_first=True), (ids,)), ("error", "warning")) == []


def test_a_default_multihead_attention_alone_reads_its_input_sequence_first():
    """With no other evidence, (a, b, d) into a seq-first module is (T, B, d): no false alarm."""
    x = torch.randn(B, T, D)
    report = run(nn.MultiheadAttention(D, 4), (x, x, x))
    assert serious(report, ("error", "warning")) == []


def test_transformer_encoder_with_key_padding(padding):
    torch.manual_seed(0)
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(D, 4, 32, batch_first=True), 2)
    report = run(encoder, (torch.randn(B, S, D),), {"src_key_padding_mask": padding})
    assert report.summary["attention_blocks"] == 2
    assert serious(report, ("error", "warning")) == []


def test_transformer_decoder_with_causal_mask():
    torch.manual_seed(0)
    decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(D, 4, 32, batch_first=True), 2)
    mask = nn.Transformer.generate_square_subsequent_mask(T)
    report = run(decoder, (torch.randn(B, T, D), torch.randn(B, S, D)), {"tgt_mask": mask, "tgt_is_causal": True})
    assert report.summary["attention_blocks"] == 4
    assert serious(report, ("error", "warning")) == []


@pytest.mark.parametrize("need_weights", [True, False])
def test_multihead_attention_with_key_padding(padding, need_weights):
    torch.manual_seed(0)
    x = torch.randn(B, S, D)
    mha = nn.MultiheadAttention(D, 4, batch_first=True)
    report = run(mha, (x, x, x), {"key_padding_mask": padding, "need_weights": need_weights})
    assert report.summary["attention_blocks"] == 1
    assert serious(report, ("error", "warning")) == []


def test_multihead_attention_inverted_padding_is_flagged(padding):
    """The same call with the mask's convention inverted must not pass."""
    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.mha = nn.MultiheadAttention(D, 4, batch_first=True)

        def forward(self, x, attention_mask):
            return self.mha(x, x, x, key_padding_mask=attention_mask.bool())[0]

    torch.manual_seed(0)
    keep = (~padding).long()  # HF convention: 1 = keep
    report = run(Model(), (torch.randn(B, S, D), keep))
    assert "mask-polarity" in {f["code"] for f in serious(report)}


def test_sdpa_is_causal():
    class Model(nn.Module):
        def forward(self, q, k, v):
            return nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)

    torch.manual_seed(0)
    q = torch.randn(B, 4, T, 8)
    report = run(Model(), (q, torch.randn_like(q), torch.randn_like(q)))
    assert report.summary["attention_blocks"] == 1
    assert report.summary["score_elements"] == B * 4 * T * T
    assert serious(report, ("error", "warning")) == []
