"""Single-layer local (banded causal) attention over frame embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LocalAttention(nn.Module):
    def __init__(self, dim, heads, window):
        super().__init__()
        self.heads = heads
        self.window = window
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = (f(x).view(B, T, self.heads, -1).transpose(1, 2) for f in (self.to_q, self.to_k, self.to_v))
        # keys j with i - window < j <= i
        band = torch.ones(T, T, device=x.device).tril().triu(diagonal=-(self.window - 1)).bool()
        scores = torch.einsum("bhid,bhjd->bhij", q, k) * q.shape[-1] ** -0.5
        scores = torch.where(band, scores, float("-inf"))
        out = torch.einsum("bhij,bhjd->bhid", F.softmax(scores, dim=-1), v)
        return self.to_out(out.transpose(1, 2).reshape(B, T, C))


class LocalFrameModel(nn.Module):
    def __init__(self, in_dim=16, dim=32, heads=4, window=3):
        super().__init__()
        self.inp = nn.Linear(in_dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.attn = LocalAttention(dim, heads, window)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, frames):
        x = self.inp(frames)
        x = x + self.attn(self.norm(x))
        return x + self.ff(x)


def build():
    torch.manual_seed(0)
    model = LocalFrameModel().eval()
    frames = torch.randn(2, 10, 16)
    return model, (frames,)
