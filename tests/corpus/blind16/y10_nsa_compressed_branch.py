"""Native Sparse Attention (Yuan et al. 2025), compressed + local branches, for a small LM.

Compressed branch: keys/values of each block of `l` tokens are summarised by an MLP over the
block (with an intra-block position embedding); a query may read a compressed block only once
the whole block lies in its past. Local branch: causal attention inside the query's own block.
A per-head sigmoid gate mixes the two branch outputs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BlockCompressor(nn.Module):
    def __init__(self, head_dim, block):
        super().__init__()
        self.block = block
        self.intra_pos = nn.Parameter(torch.randn(block, head_dim) * 0.02)
        self.mlp = nn.Sequential(nn.Linear(block * head_dim, head_dim), nn.GELU(), nn.Linear(head_dim, head_dim))

    def forward(self, x):  # x: (B, H, T, d), T divisible by block
        B, H, T, d = x.shape
        blocks = (x.view(B, H, T // self.block, self.block, d) + self.intra_pos).flatten(-2)
        return self.mlp(blocks)  # (B, H, T // block, d)


class NSAAttention(nn.Module):
    def __init__(self, dim, heads, block=4):
        super().__init__()
        self.h, self.dh, self.block = heads, dim // heads, block
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.k_cmp = BlockCompressor(self.dh, block)
        self.v_cmp = BlockCompressor(self.dh, block)
        self.gate = nn.Linear(dim, 2 * heads)
        self.out = nn.Linear(dim, dim, bias=False)

    def compressed_branch(self, q, k, v):
        T = q.size(2)
        kc, vc = self.k_cmp(k), self.v_cmp(v)
        block_end = torch.arange(kc.size(2), device=q.device) * self.block + self.block - 1
        visible = block_end[None, :] <= torch.arange(T, device=q.device)[:, None]   # (T, nb)
        scores = (q @ kc.transpose(-2, -1)) * self.dh ** -0.5
        scores = scores.masked_fill(~visible, float("-inf"))
        return scores.softmax(dim=-1) @ vc

    def local_branch(self, q, k, v):
        T = q.size(2)
        i = torch.arange(T, device=q.device)
        allowed = (i[None, :] <= i[:, None]) & (i[None, :] // self.block == i[:, None] // self.block)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        g = torch.sigmoid(self.gate(x)).view(B, T, 2, self.h).permute(2, 0, 3, 1).unsqueeze(-1)
        o = g[0] * self.compressed_branch(q, k, v) + g[1] * self.local_branch(q, k, v)
        return self.out(o.transpose(1, 2).reshape(B, T, D))


class NSALanguageModel(nn.Module):
    def __init__(self, vocab=80, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(nn.ModuleDict(dict(
            n1=nn.LayerNorm(dim), attn=NSAAttention(dim, heads), n2=nn.LayerNorm(dim),
            mlp=nn.Sequential(nn.Linear(dim, 3 * dim), nn.GELU(), nn.Linear(3 * dim, dim)))) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.size(1), device=idx.device))
        for b in self.blocks:
            x = x + b["attn"](b["n1"](x))
            x = x + b["mlp"](b["n2"](x))
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = NSALanguageModel().eval()
    idx = torch.randint(0, 80, (2, 16))
    return model, (idx,)
