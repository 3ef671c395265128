import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiQueryAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.kv_proj = nn.Linear(d_model, 2 * self.head_dim, bias=False)
        self.out_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k, v = self.kv_proj(x).split(self.head_dim, dim=-1)
        k = k.unsqueeze(1)
        v = v.unsqueeze(1)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        causal = torch.ones(T, T, device=x.device).tril().bool()
        scores = torch.where(causal, scores, torch.full_like(scores, float("-inf")))
        w = scores.softmax(dim=-1)
        out = (w @ v).transpose(1, 2).reshape(B, T, D)
        return self.out_proj(out)


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.mqa = MultiQueryAttention(d, h)
        self.norm2 = nn.LayerNorm(d)
        self.ffn = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.mqa(self.norm1(x))
        return x + self.ffn(self.norm2(x))


class MQALM(nn.Module):
    def __init__(self, vocab=42, d=32, h=4, layers=2, max_len=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([Block(d, h) for _ in range(layers)])
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        x = self.wte(ids) + self.wpe(torch.arange(ids.size(1)))
        for b in self.blocks:
            x = b(x)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = MQALM().eval()
    ids = torch.randint(0, 42, (3, 8))
    return model, (ids,)
