"""Causal linear-attention language model (elu + 1 feature map)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalLinearAttention(nn.Module):
    def __init__(self, dim, n_heads, eps=1e-6):
        super().__init__()
        self.n_heads = n_heads
        self.eps = eps
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim)

    @staticmethod
    def feature_map(x):
        return F.elu(x) + 1.0

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, C // self.n_heads).permute(2, 0, 3, 1, 4)
        q, k = self.feature_map(q), self.feature_map(k)
        # running sum of k_t v_t^T over time gives the causal numerator
        kv = torch.einsum("bhtd,bhte->bhtde", k, v).cumsum(dim=2)
        num = torch.einsum("bhtd,bhtde->bhte", q, kv)
        k_sum = k.sum(dim=2, keepdim=True)
        den = (q * k_sum).sum(dim=-1, keepdim=True)
        out = num / (den + self.eps)
        return self.out(out.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = CausalLinearAttention(dim, n_heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class LinearTransformerLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos(torch.arange(tokens.shape[1], device=tokens.device))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = LinearTransformerLM().eval()
    tokens = torch.randint(0, 64, (2, 10))
    return model, (tokens,)
