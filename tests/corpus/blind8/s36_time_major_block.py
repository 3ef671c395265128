import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    """Works on sequence-first tensors of shape (T, B, D)."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)

    def forward(self, x):
        T, B, D = x.shape
        def heads(t):
            return t.view(T, B, self.n_heads, self.d_head).permute(1, 2, 0, 3)
        q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_head)
        mask = torch.triu(torch.ones(T, T, device=x.device), diagonal=0).bool()
        scores = scores.masked_fill(mask, -1e9)
        p = F.softmax(scores, dim=-1)
        out = torch.matmul(p, v).permute(2, 0, 1, 3).reshape(T, B, D)
        return self.o(out)


class DecoderBlock(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Stack(nn.Module):
    def __init__(self, d_model=32, n_layers=2):
        super().__init__()
        self.blocks = nn.ModuleList([DecoderBlock(d_model) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = Stack().eval()
    x = torch.randn(7, 2, 32)
    return model, (x,)
