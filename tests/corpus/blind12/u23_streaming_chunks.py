"""Streaming Conformer encoder with dynamic-chunk masks (WeNet / U2 style).

Frames are grouped in chunks of `chunk` frames. A frame attends to every frame of its own
chunk (lookahead up to the chunk end) and to `left_chunks` previous chunks, never to later
chunks, so the encoder can run chunk by chunk with a bounded cache. The convolution module
is causal. Padded frames are masked as keys; rows with no visible key (padded frames far
beyond the utterance) are zeroed after the softmax, as WeNet does.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def chunk_mask(T, chunk, left_chunks, device=None):
    """(T, T) bool, True where query i may see key j."""
    c = torch.arange(T, device=device) // chunk
    q, k = c[:, None], c[None, :]
    return (k <= q) & (k >= q - left_chunks)


class ChunkSelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.d_k = h, d // h
        self.linear_q, self.linear_k, self.linear_v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.linear_out = nn.Linear(d, d)

    def forward(self, x, mask):
        B, T, D = x.shape
        q = self.linear_q(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        k = self.linear_k(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        v = self.linear_v(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        blocked = ~mask[:, None]
        scores = scores.masked_fill(blocked, float("-inf"))
        attn = torch.softmax(scores, dim=-1).masked_fill(blocked, 0.0)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(B, T, D)
        return self.linear_out(out)


class CausalConvModule(nn.Module):
    def __init__(self, d, kernel=3):
        super().__init__()
        self.pointwise1 = nn.Conv1d(d, 2 * d, 1)
        self.depthwise = nn.Conv1d(d, d, kernel, groups=d)
        self.norm = nn.LayerNorm(d)
        self.pointwise2 = nn.Conv1d(d, d, 1)
        self.lorder = kernel - 1

    def forward(self, x, pad_mask):
        x = x.masked_fill(pad_mask[..., None], 0.0).transpose(1, 2)
        x = F.glu(self.pointwise1(x), dim=1)
        x = self.depthwise(F.pad(x, (self.lorder, 0)))
        x = F.silu(self.norm(x.transpose(1, 2))).transpose(1, 2)
        return self.pointwise2(x).transpose(1, 2)


class ConformerLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ff1 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.SiLU(), nn.Linear(2 * d, d))
        self.ln_att = nn.LayerNorm(d)
        self.att = ChunkSelfAttention(d, h)
        self.ln_conv = nn.LayerNorm(d)
        self.conv = CausalConvModule(d)
        self.ff2 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.SiLU(), nn.Linear(2 * d, d))
        self.ln_out = nn.LayerNorm(d)

    def forward(self, x, att_mask, pad_mask):
        x = x + 0.5 * self.ff1(x)
        x = x + self.att(self.ln_att(x), att_mask)
        x = x + self.conv(self.ln_conv(x), pad_mask)
        x = x + 0.5 * self.ff2(x)
        return self.ln_out(x)


class StreamingConformer(nn.Module):
    def __init__(self, n_mels=16, d=32, h=4, layers=2, vocab=30, chunk=4, left_chunks=1):
        super().__init__()
        self.chunk, self.left_chunks = chunk, left_chunks
        self.embed = nn.Linear(n_mels, d)
        self.layers = nn.ModuleList([ConformerLayer(d, h) for _ in range(layers)])
        self.ctc = nn.Linear(d, vocab)

    def forward(self, feats, lengths):
        B, T, _ = feats.shape
        pad_mask = torch.arange(T, device=feats.device)[None] >= lengths[:, None]
        att_mask = chunk_mask(T, self.chunk, self.left_chunks, feats.device)[None] & ~pad_mask[:, None, :]
        x = self.embed(feats)
        for layer in self.layers:
            x = layer(x, att_mask, pad_mask)
        return self.ctc(x).log_softmax(-1)


def build():
    torch.manual_seed(23)
    model = StreamingConformer().eval()
    lengths = torch.tensor([16, 5])
    feats = torch.randn(2, 16, 16)
    return model, (feats, lengths)
