"""Binarized Transformer encoder (BiT / BinaryBERT-style) for on-device intent classification.

Queries and keys are binarized to {-a, +a} with a per-tensor scale and a straight-through
estimator; attention probabilities stay in full precision.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SignSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.where(x >= 0, torch.ones_like(x), -torch.ones_like(x))

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (x.abs() <= 1).to(g.dtype)


def binarize(x):
    alpha = x.abs().mean(dim=-1, keepdim=True)
    return SignSTE.apply(x) * alpha


class BinaryAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, pad_mask):
        B, N, C = x.shape
        dh = C // self.heads
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, dh).permute(2, 0, 3, 1, 4)
        q, k = binarize(q), binarize(k)
        scores = (q @ k.transpose(-2, -1)) * dh ** -0.5
        scores.masked_fill(pad_mask[:, None, None, :], float("-inf"))
        attn = scores.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


class BinaryEncoder(nn.Module):
    def __init__(self, vocab=300, dim=48, heads=4, depth=2, n_intents=10, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.pos = nn.Parameter(torch.zeros(1, 32, dim))
        nn.init.trunc_normal_(self.pos, std=0.02)
        self.blocks = nn.ModuleList(
            nn.ModuleDict(dict(n1=nn.LayerNorm(dim), attn=BinaryAttention(dim, heads), n2=nn.LayerNorm(dim),
                               mlp=nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))))
            for _ in range(depth))
        self.head = nn.Linear(dim, n_intents)

    def forward(self, ids):
        pad = ids.eq(self.pad_id)
        x = self.tok(ids) + self.pos[:, : ids.size(1)]
        for blk in self.blocks:
            x = x + blk["attn"](blk["n1"](x), pad)
            x = x + blk["mlp"](blk["n2"](x))
        real = (~pad).unsqueeze(-1).float()
        pooled = (x * real).sum(1) / real.sum(1)
        return self.head(pooled)


def build():
    torch.manual_seed(0)
    model = BinaryEncoder().eval()
    ids = torch.randint(1, 300, (4, 12))
    ids[1, 7:] = 0
    ids[3, 4:] = 0
    return model, (ids,)
