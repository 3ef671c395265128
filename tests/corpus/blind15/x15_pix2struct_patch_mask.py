"""Pix2Struct-style encoder (Lee et al., 2023) over variable-resolution patches.

Each image keeps its aspect ratio; its patches are flattened with their 1-based row and
column index in the first two channels and padded to max_patches with all-zero rows.
"""
import torch
import torch.nn as nn
from einops import rearrange


def extract_flattened_patches(image, patch, max_patches):
    c, h, w = image.shape
    rows, cols = h // patch, w // patch
    p = rearrange(image[:, : rows * patch, : cols * patch], "c (r p1) (q p2) -> (r q) (p1 p2 c)", p1=patch, p2=patch)
    r_idx = torch.arange(1, rows + 1).repeat_interleave(cols).float()
    c_idx = torch.arange(1, cols + 1).repeat(rows).float()
    flat = torch.cat([r_idx[:, None], c_idx[:, None], p], dim=-1)
    out = flat.new_zeros(max_patches, flat.size(-1))
    out[: flat.size(0)] = flat
    mask = torch.zeros(max_patches)
    mask[: flat.size(0)] = 1.0
    return out, mask


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, attention_mask):
        q, k, v = rearrange(self.qkv(self.norm1(x)), "b n (three h d) -> three b h n d", three=3, h=self.heads)
        scores = torch.einsum("bhid,bhjd->bhij", q, k) * q.size(-1) ** -0.5
        mask = rearrange(attention_mask, "b j -> b 1 j 1")
        scores = scores.masked_fill(mask == 0, torch.finfo(scores.dtype).min)
        attn = scores.softmax(dim=-1)
        out = rearrange(torch.einsum("bhij,bhjd->bhid", attn, v), "b h n d -> b n (h d)")
        x = x + self.o(out)
        return x + self.mlp(self.norm2(x))


class Pix2StructEncoder(nn.Module):
    def __init__(self, patch_dim=48, dim=32, heads=4, depth=2, max_rows=16, max_cols=16):
        super().__init__()
        self.patch_proj = nn.Linear(patch_dim, dim)
        self.row_emb = nn.Embedding(max_rows + 1, dim)
        self.col_emb = nn.Embedding(max_cols + 1, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)

    def forward(self, flattened_patches, attention_mask):
        rows, cols = flattened_patches[..., 0].long(), flattened_patches[..., 1].long()
        x = self.patch_proj(flattened_patches[..., 2:]) + self.row_emb(rows) + self.col_emb(cols)
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = Pix2StructEncoder().eval()
    images = [torch.randn(3, 16, 20), torch.randn(3, 12, 16), torch.randn(3, 8, 12)]
    flat, masks = zip(*(extract_flattened_patches(im, 4, 20) for im in images))
    return model, (torch.stack(flat), torch.stack(masks))
