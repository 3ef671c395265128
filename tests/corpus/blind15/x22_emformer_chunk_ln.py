"""Streaming speech encoder with chunked attention (Emformer/U2 style) and a CTC head.

Frame i attends to its own chunk and to `left_context` frames before the chunk, never to
later chunks, so the encoder can run chunk by chunk with a fixed latency.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def chunk_mask(T, chunk, left_context, device=None):
    i = torch.arange(T, device=device)[:, None]
    j = torch.arange(T, device=device)[None, :]
    start = (i // chunk) * chunk
    return (j < start + chunk) & (j >= start - left_context)


class ChunkedSelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.in_proj = nn.Linear(d, 3 * d)
        self.out_proj = nn.Linear(d, d)

    def forward(self, x, allowed):
        B, T, D = x.shape
        q, k, v = self.in_proj(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-1, -2)) * (D // self.heads) ** -0.5
        scores = scores.masked_fill(~allowed, -1e8)
        out = torch.matmul(scores.softmax(dim=-1), v)
        return self.out_proj(out.transpose(1, 2).reshape(B, T, D))


class StreamingLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.norm1, self.attn = nn.LayerNorm(d), ChunkedSelfAttention(d, heads)
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))

    def forward(self, x, allowed):
        x = x + self.attn(self.norm1(x), allowed)
        return x + self.ff(self.norm2(x))


class StreamingCTC(nn.Module):
    def __init__(self, n_mels=20, d=32, heads=4, layers=2, vocab=30, chunk=4, left_context=4):
        super().__init__()
        self.chunk, self.left_context = chunk, left_context
        self.input_proj = nn.Linear(n_mels, d)
        self.layers = nn.ModuleList(StreamingLayer(d, heads) for _ in range(layers))
        self.ctc = nn.Linear(d, vocab)

    def forward(self, feats, feat_lens):
        B, T, _ = feats.shape
        x = self.input_proj(F.layer_norm(feats, feats.shape[1:]))
        key_real = torch.arange(T, device=feats.device)[None, :] < feat_lens[:, None]
        allowed = chunk_mask(T, self.chunk, self.left_context, feats.device)[None, None] & key_real[:, None, None, :]
        for layer in self.layers:
            x = layer(x, allowed)
        return self.ctc(x).log_softmax(dim=-1)


def build():
    torch.manual_seed(0)
    model = StreamingCTC().eval()
    feat_lens = torch.tensor([16, 13, 7])
    feats = torch.randn(3, 16, 20) * (torch.arange(16)[None, :, None] < feat_lens[:, None, None])
    return model, (feats, feat_lens)
