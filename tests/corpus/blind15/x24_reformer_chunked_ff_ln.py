"""Reformer-style encoder (Kitaev et al., 2020) for sequence classification: reversible
residual layers and a feed-forward applied chunk by chunk along the sequence to save memory.
"""
import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, features, eps=1e-6):
        super().__init__()
        self.a_2 = nn.Parameter(torch.ones(features))
        self.b_2 = nn.Parameter(torch.zeros(features))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True)
        return self.a_2 * (x - mean) / (std + self.eps) + self.b_2


class SelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, d)

    def forward(self, x, key_padding_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, self.h, self.dh).transpose(1, 2).reshape(B * self.h, T, self.dh) for t in (q, k, v))
        scores = torch.bmm(q, k.transpose(1, 2)) / self.dh ** 0.5
        pad = key_padding_mask.repeat_interleave(self.h, dim=0)[:, None, :]
        scores = scores.masked_fill(pad, float("-inf"))
        y = torch.bmm(torch.softmax(scores, dim=-1), v)
        return self.out(y.view(B, self.h, T, self.dh).transpose(1, 2).reshape(B, T, D))


class ChunkedFeedForward(nn.Module):
    def __init__(self, d, n_chunks=4):
        super().__init__()
        self.n_chunks = n_chunks
        self.net = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        return torch.cat([self.net(c) for c in x.chunk(self.n_chunks, dim=1)], dim=1)


class ReversibleBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.norm_f, self.f = LayerNorm(d), SelfAttention(d, heads)
        self.norm_g, self.g = LayerNorm(d), ChunkedFeedForward(d)

    def forward(self, x1, x2, key_padding_mask):
        y1 = x1 + self.f(self.norm_f(x2), key_padding_mask)
        y2 = x2 + self.g(self.norm_g(y1))
        return y1, y2


class ReformerClassifier(nn.Module):
    def __init__(self, vocab=200, d=32, heads=4, depth=3, max_len=64, n_classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(ReversibleBlock(d, heads) for _ in range(depth))
        self.norm = LayerNorm(2 * d)
        self.head = nn.Linear(2 * d, n_classes)

    def forward(self, input_ids, attention_mask):
        x = self.emb(input_ids) + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        pad = attention_mask == 0
        x1, x2 = x, x
        for blk in self.blocks:
            x1, x2 = blk(x1, x2, pad)
        h = self.norm(torch.cat([x1, x2], dim=-1))
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        return self.head((h * m).sum(1) / m.sum(1))


def build():
    torch.manual_seed(0)
    model = ReformerClassifier().eval()
    lengths = torch.tensor([24, 17, 10])
    attention_mask = (torch.arange(24)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(1, 200, (3, 24)) * attention_mask
    return model, (input_ids, attention_mask)
