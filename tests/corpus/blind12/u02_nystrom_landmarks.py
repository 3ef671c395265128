"""Nystromformer encoder (Xiong et al., 2021) for padded token sequences.

Softmax attention is approximated with m landmarks, the segment means of queries and keys:
    softmax(Q K~^T) pinv(softmax(Q~ K~^T)) softmax(Q~ K^T) V
Queries and keys are zeroed at padding before the landmarks are taken (as the reference
implementation does) and padded keys are masked in the third kernel. The Moore-Penrose
inverse uses the iterative scheme of the paper, initialised per matrix.
"""
import math

import torch
import torch.nn as nn


def iterative_pinv(mat, n_iter=6):
    """Newton-Schulz style approximation of pinv for a batch of (m, m) row-stochastic matrices."""
    eye = torch.eye(mat.size(-1), dtype=mat.dtype, device=mat.device)
    abs_mat = mat.abs()
    col = abs_mat.sum(dim=-2).amax(dim=-1)[..., None, None]
    row = abs_mat.sum(dim=-1).amax(dim=-1)[..., None, None]
    z = mat.transpose(-1, -2) / (col * row)
    for _ in range(n_iter):
        kz = mat @ z
        z = 0.25 * z @ (13 * eye - kz @ (15 * eye - kz @ (7 * eye - kz)))
    return z


class NystromAttention(nn.Module):
    def __init__(self, dim, heads=4, num_landmarks=4):
        super().__init__()
        self.heads = heads
        self.dim_head = dim // heads
        self.m = num_landmarks
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, mask):
        b, n, d = x.shape
        h, dh, m = self.heads, self.dim_head, self.m
        q, k, v = self.qkv(x).view(b, n, 3, h, dh).permute(2, 0, 3, 1, 4)
        keep = mask[:, None, :, None].to(x.dtype)
        q = q * keep / math.sqrt(math.sqrt(dh))
        k = k * keep / math.sqrt(math.sqrt(dh))
        v = v * keep

        q_land = q.reshape(b, h, m, n // m, dh).mean(dim=-2)
        k_land = k.reshape(b, h, m, n // m, dh).mean(dim=-2)

        kernel_1 = torch.softmax(q @ k_land.transpose(-1, -2), dim=-1)
        kernel_2 = torch.softmax(q_land @ k_land.transpose(-1, -2), dim=-1)
        scores_3 = q_land @ k.transpose(-1, -2)
        scores_3 = scores_3.masked_fill(~mask[:, None, None, :], -1e9)
        kernel_3 = torch.softmax(scores_3, dim=-1)

        ctx = (kernel_1 @ iterative_pinv(kernel_2)) @ (kernel_3 @ v)
        return self.out(ctx.transpose(1, 2).reshape(b, n, d))


class NystromEncoder(nn.Module):
    def __init__(self, vocab=40, dim=32, max_len=16, depth=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList()
        for _ in range(depth):
            self.layers.append(nn.ModuleDict(dict(
                ln1=nn.LayerNorm(dim), attn=NystromAttention(dim),
                ln2=nn.LayerNorm(dim), mlp=nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim)))))

    def forward(self, tokens, mask):
        x = self.emb(tokens) + self.pos(torch.arange(tokens.size(1), device=tokens.device))
        for layer in self.layers:
            x = x + layer["attn"](layer["ln1"](x), mask)
            x = x + layer["mlp"](layer["ln2"](x))
        return x


def build():
    torch.manual_seed(1)
    model = NystromEncoder().eval()
    tokens = torch.randint(1, 40, (2, 16))
    mask = torch.ones(2, 16, dtype=torch.bool)
    mask[1, 10:] = False
    tokens[1, 10:] = 0
    return model, (tokens, mask)
