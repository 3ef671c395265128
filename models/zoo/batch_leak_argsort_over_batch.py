"""MAE-style random masking whose restore indices are an argsort over dim=0, the batch: each image's tokens are put back by the other images' shuffles.

`ids_shuffle = argsort(noise, dim=1)` orders each image's patches (the first `keep` are
encoded, mask tokens fill the rest), and the inverse permutation that puts every token back
at its patch is `argsort(ids_shuffle, dim=1)`. Sorted over dim=0 instead, each column ranks
the images against each other: the "restore" indices are batch ranks (0..B-1) built from
every image's noise, so the decoder reads the wrong tokens, chosen by the other samples.
Fix: `ids_restore = torch.argsort(ids_shuffle, dim=1)`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("batch-leak",)


class Block(nn.Module):
    def __init__(self, d_model: int):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.mlp = nn.Linear(d_model, d_model)

    def forward(self, x):
        q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
        x = x + F.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v
        return x + F.gelu(self.mlp(x))


class TinyMAE(nn.Module):
    def __init__(self, patch_dim: int = 12, d_model: int = 16, n_patches: int = 8, mask_ratio: float = 0.5):
        super().__init__()
        self.keep = int(n_patches * (1 - mask_ratio))
        self.embed = nn.Linear(patch_dim, d_model)
        self.pos = nn.Parameter(torch.randn(1, n_patches, d_model) * 0.1)
        self.dec_pos = nn.Parameter(torch.randn(1, n_patches, d_model) * 0.1)
        self.encoder = Block(d_model)
        self.mask_token = nn.Parameter(torch.randn(1, 1, d_model) * 0.1)
        self.decoder = Block(d_model)
        self.pred = nn.Linear(d_model, patch_dim)

    def forward(self, patches, noise):
        B, N, _ = patches.shape
        x = self.embed(patches) + self.pos
        D = x.shape[-1]
        ids_shuffle = torch.argsort(noise, dim=1)
        ids_restore = torch.argsort(ids_shuffle, dim=0)  # BUG: batch-leak
        ids_keep = ids_shuffle[:, : self.keep]
        x = self.encoder(torch.gather(x, 1, ids_keep[..., None].expand(-1, -1, D)))
        x = torch.cat([x, self.mask_token.expand(B, N - self.keep, -1)], dim=1)
        x = torch.gather(x, 1, ids_restore[..., None].expand(-1, -1, D))
        return self.pred(self.decoder(x + self.dec_pos))


def build():
    torch.manual_seed(0)
    patches = torch.randn(3, 8, 12)
    noise = torch.rand(3, 8)
    return TinyMAE().eval(), (patches, noise)
