import math
import torch
import torch.nn as nn


def masked_softmax(scores, mask):
    e = torch.exp(scores)
    e = e * mask
    return e / e.sum(dim=-1, keepdim=True)


class ScratchAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.dk = d_model // n_heads
        self.W_Q = nn.Parameter(torch.randn(d_model, d_model) / math.sqrt(d_model))
        self.W_K = nn.Parameter(torch.randn(d_model, d_model) / math.sqrt(d_model))
        self.W_V = nn.Parameter(torch.randn(d_model, d_model) / math.sqrt(d_model))
        self.W_O = nn.Parameter(torch.randn(d_model, d_model) / math.sqrt(d_model))

    def forward(self, x, mask):
        B, T, D = x.shape
        Q = (x @ self.W_Q).reshape(B, T, self.h, self.dk).transpose(1, 2)
        K = (x @ self.W_K).reshape(B, T, self.h, self.dk).transpose(1, 2)
        V = (x @ self.W_V).reshape(B, T, self.h, self.dk).transpose(1, 2)
        scores = Q @ K.transpose(-1, -2) / math.sqrt(self.dk)
        A = masked_softmax(scores, mask[:, None, None, :].float())
        Z = (A @ V).transpose(1, 2).reshape(B, T, D)
        return Z @ self.W_O


class Model(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.attn = ScratchAttention(d_model, n_heads)
        self.norm = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))

    def forward(self, x, mask):
        x = x + self.attn(x, mask)
        return x + self.ff(self.norm(x))


def build():
    torch.manual_seed(0)
    model = Model().eval()
    x = torch.randn(2, 6, 32)
    mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0]])
    return model, (x, mask)
