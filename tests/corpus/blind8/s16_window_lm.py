import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SlidingWindowAttention(nn.Module):
    def __init__(self, d_model, n_heads, window=3):
        super().__init__()
        self.n_heads = n_heads
        self.window = window
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        idx = torch.arange(T, device=x.device)
        dist = idx[None, :] - idx[:, None]
        blocked = dist.abs() > self.window
        s = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(q.size(-1))
        s = s.masked_fill(blocked, float("-inf"))
        p = F.softmax(s, dim=-1)
        y = torch.einsum("bhij,bhjd->bhid", p, v)
        return self.o(y.transpose(1, 2).reshape(B, T, D))


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.n1 = nn.LayerNorm(d)
        self.attn = SlidingWindowAttention(d, h)
        self.n2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.ff(self.n2(x))


class LocalLM(nn.Module):
    def __init__(self, vocab=40, d=32, h=4, n=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([Block(d, h) for _ in range(n)])
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, ids):
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for b in self.blocks:
            x = b(x)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = LocalLM().eval()
    ids = torch.randint(0, 40, (2, 10))
    return model, (ids,)
