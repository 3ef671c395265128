import torch
import torch.nn as nn
import torch.nn.functional as F


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class Rotary(nn.Module):
    def __init__(self, dim, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, seq_len):
        t = torch.arange(seq_len, dtype=self.inv_freq.dtype)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos()[None, None], emb.sin()[None, None]


class RoPEAttention(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.hd = d // n_heads
        self.wqkv = nn.Linear(d, 3 * d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)
        self.rotary = Rotary(self.hd)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.n_heads, self.hd).unbind(2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        cos, sin = self.rotary(T)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        att = (q @ k.transpose(-2, -1)) * self.hd ** -0.5
        future = torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)
        att = att.masked_fill(future, float("-inf"))
        y = F.softmax(att, dim=-1) @ v
        return self.wo(y.transpose(1, 2).reshape(B, T, D))


class RoPELM(nn.Module):
    def __init__(self, vocab=48, d=32, n_heads=4, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.attn = nn.ModuleList([RoPEAttention(d, n_heads) for _ in range(n_layers)])
        self.ffn = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d)) for _ in range(n_layers)])
        self.n1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layers)])
        self.n2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, tokens):
        x = self.embed(tokens)
        for att, ff, n1, n2 in zip(self.attn, self.ffn, self.n1, self.n2):
            x = x + att(n1(x))
            x = x + ff(n2(x))
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = RoPELM().eval()
    tokens = torch.randint(0, 48, (2, 9))
    return model, (tokens,)
