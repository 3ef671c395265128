"""Causal language model whose attention keeps, per query, only the top-k visible keys
(the rest of the row is dropped before the softmax)."""
import torch
import torch.nn as nn


class SparseTopKSelfAttention(nn.Module):
    def __init__(self, dim, heads, k_keep):
        super().__init__()
        self.heads, self.k_keep = heads, k_keep
        self.q = nn.Linear(dim, dim, bias=False)
        self.k = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.o = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, D = x.shape
        H = self.heads
        q = self.q(x).reshape(B, T, H, -1)
        k = self.k(x).reshape(B, T, H, -1)
        v = self.v(x).reshape(B, T, H, -1)
        logits = torch.einsum("bqhd,bkhd->bhqk", q, k) * q.size(-1) ** -0.5
        visible = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        logits = logits.masked_fill(~visible, float("-inf"))
        kth = logits.topk(min(self.k_keep, T), dim=-1).values[..., -1:]
        logits = torch.where(logits >= kth, logits, torch.full_like(logits, float("-inf")))
        weights = logits.softmax(dim=-1)
        out = torch.einsum("bhqk,bkhd->bqhd", weights, v)
        return self.o(out.reshape(B, T, D))


class Decoder(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2, k_keep=5, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.norms1 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.attns = nn.ModuleList(SparseTopKSelfAttention(dim, heads, k_keep) for _ in range(depth))
        self.norms2 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.ffs = nn.ModuleList(nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim)) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.tok(tokens) + self.pos.weight[: tokens.size(1)]
        for n1, attn, n2, ff in zip(self.norms1, self.attns, self.norms2, self.ffs):
            x = x + attn(n1(x))
            x = x + ff(n2(x))
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = Decoder().eval()
    tokens = torch.randint(0, 64, (3, 16))
    return model, (tokens,)
