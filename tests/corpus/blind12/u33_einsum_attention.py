"""Lab 5: a sentiment classifier with a hand-written transformer encoder.

We write attention with einsum so that every axis has a name:
b = batch, h = head, i = query position, j = key position, d = head feature.
"""
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, mask):
        b, n, d = x.shape
        qkv = self.to_qkv(x).view(b, n, 3, self.heads, d // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)                     # each (b, h, n, dh)
        scores = torch.einsum("bhid,bhjd->bhji", q, k) * self.scale
        scores = scores.masked_fill(~mask[:, None, None, :], -1e9)
        attn = scores.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.permute(0, 2, 1, 3).reshape(b, n, d)
        return self.to_out(out)


class EncoderBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = SelfAttention(dim, heads)
        self.norm1 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x, mask):
        x = x + self.attn(self.norm1(x), mask)
        return x + self.ff(self.norm2(x))


class SentimentModel(nn.Module):
    def __init__(self, vocab=100, dim=32, heads=4, depth=2, max_len=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList([EncoderBlock(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.classify = nn.Linear(dim, 2)

    def forward(self, ids, mask):
        x = self.embed(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for blk in self.blocks:
            x = blk(x, mask)
        x = self.norm(x)
        mean = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return self.classify(mean)


def build():
    torch.manual_seed(33)
    model = SentimentModel().eval()
    mask = torch.arange(12)[None] < torch.tensor([12, 7])[:, None]
    ids = torch.randint(1, 100, (2, 12)) * mask
    return model, (ids, mask)
