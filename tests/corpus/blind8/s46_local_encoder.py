import math
import torch
import torch.nn as nn


class LocalAttention(nn.Module):
    def __init__(self, d_model, n_heads, window):
        super().__init__()
        self.n_heads = n_heads
        self.window = window
        self.q = nn.Linear(d_model, d_model)
        self.kv = nn.Linear(d_model, 2 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, pad_mask):
        B, T, D = x.shape
        H = self.n_heads
        q = self.q(x).view(B, T, H, -1).transpose(1, 2)
        k, v = self.kv(x).view(B, T, 2, H, -1).permute(2, 0, 3, 1, 4)
        s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(D // H)
        idx = torch.arange(T, device=x.device)
        near = (idx[:, None] - idx[None, :]).abs() <= self.window
        allowed = near[None, None] & ~pad_mask[:, None, None, :]
        s = s.masked_fill(~allowed, float("-inf"))
        p = torch.softmax(s, dim=-1)
        p = torch.nan_to_num(p, nan=0.0)
        return self.out(torch.matmul(p, v).transpose(1, 2).reshape(B, T, D))


class LocalEncoder(nn.Module):
    def __init__(self, vocab=40, d_model=32, n_heads=4, window=2, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(16, d_model)
        self.attn = nn.ModuleList([LocalAttention(d_model, n_heads, window) for _ in range(n_layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.Linear(64, d_model)) for _ in range(n_layers)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])

    def forward(self, tokens, pad_mask):
        x = self.emb(tokens) + self.pos(torch.arange(tokens.size(1)))
        for a, f, l1, l2 in zip(self.attn, self.ff, self.ln1, self.ln2):
            x = x + a(l1(x), pad_mask)
            x = x + f(l2(x))
        return x


def build():
    torch.manual_seed(0)
    model = LocalEncoder().eval()
    tokens = torch.tensor([[3, 8, 14, 22, 5, 30, 11, 9, 17, 25], [6, 12, 19, 27, 0, 0, 0, 0, 0, 0]])
    pad_mask = tokens == 0
    return model, (tokens, pad_mask)
