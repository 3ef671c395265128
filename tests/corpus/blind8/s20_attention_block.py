import math
import torch
import torch.nn as nn


def softmax(x, mask=None, dim=-1):
    if mask is not None:
        x = x.masked_fill(~mask, float("-inf"))
    x_max = x.amax(dim=dim, keepdim=True)
    e = torch.exp(x - x_max)
    return e / e.sum(dim=dim, keepdim=True)


class Attention(nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.heads = heads
        self.dk = d_model // heads
        self.Wq = nn.Linear(d_model, d_model, bias=False)
        self.Wk = nn.Linear(d_model, d_model, bias=False)
        self.Wv = nn.Linear(d_model, d_model, bias=False)
        self.Wo = nn.Linear(d_model, d_model)

    def forward(self, x, mask):
        B, T, _ = x.shape
        Q = self.Wq(x).view(B, T, self.heads, self.dk).permute(0, 2, 1, 3)
        K = self.Wk(x).view(B, T, self.heads, self.dk).permute(0, 2, 1, 3)
        V = self.Wv(x).view(B, T, self.heads, self.dk).permute(0, 2, 1, 3)
        S = Q @ K.transpose(-1, -2) / math.sqrt(self.dk)
        A = softmax(S, mask[:, None, None, :])
        return self.Wo((A @ V).permute(0, 2, 1, 3).reshape(B, T, -1))


class Model(nn.Module):
    def __init__(self, d_model=32, heads=4):
        super().__init__()
        self.attn = Attention(d_model, heads)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.Linear(64, d_model))

    def forward(self, x, mask):
        x = x + self.attn(self.ln1(x), mask)
        return x + self.ff(self.ln2(x))


def build():
    torch.manual_seed(0)
    model = Model().eval()
    x = torch.randn(3, 6, 32)
    mask = torch.tensor([[True] * 6, [True] * 4 + [False] * 2, [True] * 5 + [False]])
    return model, (x, mask)
