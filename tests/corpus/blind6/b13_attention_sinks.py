"""Causal attention with learned per-head sink logits (gpt-oss style)."""
import torch
import torch.nn as nn


class SinkAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.scale = self.head_dim**-0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.sinks = nn.Parameter(torch.randn(n_heads))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.scale
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(future, float("-inf"))
        sink = self.sinks.view(1, -1, 1, 1).expand(B, -1, T, 1)
        logits = torch.cat([scores, sink], dim=-1)
        logits = logits - logits.amax(dim=-1, keepdim=True)
        probs = logits.softmax(dim=-1)
        probs = probs[..., :-1]  # the sink takes probability mass but carries no value
        out = torch.einsum("bhqk,bhkd->bhqd", probs, v)
        return self.out(out.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.norm1 = nn.RMSNorm(dim)
        self.attn = SinkAttention(dim, n_heads)
        self.norm2 = nn.RMSNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class SinkLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.norm = nn.RMSNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos(torch.arange(tokens.shape[1], device=tokens.device))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = SinkLM().eval()
    tokens = torch.randint(0, 64, (2, 9))
    return model, (tokens,)
