"""Decoder LM with Selective Attention (Leviathan, Kalman & Matias, 2024).

A token can decide that an earlier token is no longer needed by later tokens. The selection
scores S are the ReLU'd logits of head 0; a token never masks itself or the <bos> token. The
selections made by tokens 0..i-1 accumulate along the QUERY axis into F, and F[i, j] is
subtracted from every head's logit of query i on key j before the causal softmax.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelectiveSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        logits = q @ k.transpose(-1, -2) / self.dh ** 0.5
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        eye = torch.eye(T, dtype=torch.bool, device=x.device)
        S = F.relu(logits[:, 0]).masked_fill(future | eye, 0.0)
        S[..., 0] = 0.0
        S = F.pad(S[:, :-1], (0, 0, 1, 0))
        Fsel = S.cumsum(dim=-2)
        logits = logits - Fsel[:, None]
        attn = logits.masked_fill(future, float("-inf")).softmax(dim=-1)
        return self.out((attn @ v).transpose(1, 2).reshape(B, T, D))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = SelectiveSelfAttention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class SelectiveLM(nn.Module):
    def __init__(self, vocab=128, dim=32, heads=4, depth=2, max_len=64):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(depth))
        self.ln_f = nn.LayerNorm(dim)

    def forward(self, ids):
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for blk in self.blocks:
            x = blk(x)
        return self.ln_f(x) @ self.tok.weight.T


def build():
    torch.manual_seed(0)
    model = SelectiveLM()
    with torch.no_grad():
        for blk in model.blocks:
            blk.attn.qkv.weight.mul_(3.0)
    ids = torch.randint(2, 128, (2, 16))
    ids[:, 0] = 1
    return model.eval(), (ids,)
