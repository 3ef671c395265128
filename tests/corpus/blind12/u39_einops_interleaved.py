"""Protein sequence encoder (residue tokens, padded batches) with einops-based attention.

The fused QKV projection is unpacked with the head index innermost, '(qkv d h)', i.e. the
features of a head are strided rather than contiguous; heads are merged back with the same
'(d h)' order, so the layout is a fixed permutation of the projection weights.
"""
import torch
import torch.nn as nn
from einops import rearrange


class Attention(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, mask):
        q, k, v = rearrange(self.to_qkv(x), "b n (qkv d h) -> qkv b h n d", qkv=3, h=self.heads)
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        dots = dots.masked_fill(~rearrange(mask, "b j -> b 1 1 j"), torch.finfo(dots.dtype).min)
        attn = dots.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (d h)"))


class ProteinEncoder(nn.Module):
    AMINO = 25

    def __init__(self, dim=32, depth=2, max_len=16):
        super().__init__()
        self.embed = nn.Embedding(self.AMINO, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([nn.ModuleList([nn.LayerNorm(dim), Attention(dim), nn.LayerNorm(dim),
                                                    nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))])
                                     for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, residues, mask):
        x = self.embed(residues) + self.pos.weight[: residues.size(1)]
        for ln1, attn, ln2, ff in self.layers:
            x = x + attn(ln1(x), mask)
            x = x + ff(ln2(x))
        return self.norm(x)


def build():
    torch.manual_seed(39)
    model = ProteinEncoder().eval()
    mask = torch.arange(14)[None] < torch.tensor([14, 9, 5])[:, None]
    residues = torch.randint(1, 25, (3, 14)) * mask
    return model, (residues, mask)
