import math
import torch
import torch.nn as nn


class CausalAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.Wq = nn.Linear(d_model, d_model)
        self.Wk = nn.Linear(d_model, d_model)
        self.Wv = nn.Linear(d_model, d_model)
        self.Wo = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, D = x.shape
        q = self.Wq(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.Wk(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.Wv(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(mask, float("-inf"))
        weights = torch.exp(scores) / torch.exp(scores).sum(dim=-1, keepdim=True)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(B, T, D)
        return self.Wo(out)


class DecoderBlock(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.attn = CausalAttention(d_model, n_heads)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = self.ln1(x + self.attn(x))
        return self.ln2(x + self.ff(x))


def build():
    torch.manual_seed(0)
    model = DecoderBlock().eval()
    x = torch.randn(2, 7, 32)
    return model, (x,)
