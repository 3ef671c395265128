import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange, repeat


class Attention(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, mask):
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in self.to_qkv(x).chunk(3, dim=-1))
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        mask = rearrange(mask, "b j -> b 1 1 j")
        dots = dots.masked_fill(~mask, -torch.finfo(dots.dtype).max)
        attn = dots.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class SentenceEncoder(nn.Module):
    def __init__(self, vocab=60, dim=32, depth=2, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.cls = nn.Parameter(torch.randn(dim) * 0.02)
        self.pos = nn.Parameter(torch.randn(max_len + 1, dim) * 0.02)
        self.layers = nn.ModuleList(nn.ModuleList([nn.LayerNorm(dim), Attention(dim), nn.LayerNorm(dim),
                                                   nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))])
                                    for _ in range(depth))
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids, attention_mask):
        b, n = ids.shape
        x = torch.cat([repeat(self.cls, "d -> b 1 d", b=b), self.tok(ids)], dim=1) + self.pos[: n + 1]
        mask = F.pad(attention_mask.bool(), (1, 0), value=True)
        for ln1, attn, ln2, ff in self.layers:
            x = x + attn(ln1(x), mask)
            x = x + ff(ln2(x))
        x = self.norm(x)
        m = mask[:, 1:].unsqueeze(-1).float()
        mean = (x[:, 1:] * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return torch.cat([x[:, 0], mean], dim=-1)  # [CLS ; mean of real tokens]


def build():
    torch.manual_seed(0)
    model = SentenceEncoder().eval()
    ids = torch.zeros(3, 10, dtype=torch.long)
    for b, n in enumerate([10, 4, 7]):
        ids[b, :n] = torch.randint(1, 60, (n,))
    return model, (ids, (ids > 0).long())
