"""Blockwise local causal attention for a small character LM.

The sequence is cut into blocks of `block` tokens; each block attends to itself and to the
block before it (BigBird / Longformer style sliding blocks, here causal), which keeps the
cost linear in the length. Blocks are formed by reshaping the time axis, the previous block
is obtained by shifting the block axis by one and padding with an empty block.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class BlockLocalAttention(nn.Module):
    def __init__(self, dim, heads, block):
        super().__init__()
        self.h, self.dh, self.block = heads, dim // heads, block
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        h, dh, bs = self.h, self.dh, self.block
        nb = T // bs
        q, k, v = self.qkv(x).split(C, dim=-1)
        # (B, T, C) -> (B, h, nb, bs, dh)
        q, k, v = (t.view(B, nb, bs, h, dh).permute(0, 3, 1, 2, 4) for t in (q, k, v))

        # keys/values of the previous block next to the block's own: (B, h, nb, 2*bs, dh)
        k_prev = F.pad(k, (0, 0, 0, 0, 1, 0))[:, :, :-1]
        v_prev = F.pad(v, (0, 0, 0, 0, 1, 0))[:, :, :-1]
        k2 = torch.cat([k_prev, k], dim=3)
        v2 = torch.cat([v_prev, v], dim=3)

        # absolute positions of queries and keys within each block window
        blk = torch.arange(nb, device=x.device)[:, None]
        q_pos = blk * bs + torch.arange(bs, device=x.device)             # (nb, bs)
        k_pos = blk * bs + torch.arange(-bs, bs, device=x.device)        # (nb, 2bs)
        allowed = (k_pos[:, None, :] <= q_pos[:, :, None]) & (k_pos[:, None, :] >= 0)

        att = torch.einsum("bhnqd,bhnkd->bhnqk", q, k2) / math.sqrt(dh)
        att = att.masked_fill(~allowed, float("-inf")).softmax(dim=-1)
        y = torch.einsum("bhnqk,bhnkd->bhnqd", att, v2)
        y = y.permute(0, 2, 3, 1, 4).reshape(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, dim, heads, block):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = BlockLocalAttention(dim, heads, block)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class LocalCharLM(nn.Module):
    def __init__(self, vocab=60, dim=32, heads=4, block=4, max_len=16, depth=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(max_len, dim)
        self.blocks = nn.Sequential(*[Block(dim, heads, block) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.blocks(self.wte(idx) + self.wpe(pos))
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(3)
    model = LocalCharLM().eval()
    idx = torch.randint(0, 60, (2, 16))
    return model, (idx,)
