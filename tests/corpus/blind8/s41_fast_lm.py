import torch
import torch.nn as nn
import torch.nn.functional as F


def feature_map(x):
    return F.elu(x) + 1.0


class CausalLinearAttention(nn.Module):
    def __init__(self, d, n_heads, eps=1e-6):
        super().__init__()
        self.n_heads = n_heads
        self.eps = eps
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, D // self.n_heads).unbind(2)
        q, k = feature_map(q), feature_map(k)
        kv = torch.einsum("bthd,bthe->bthde", k, v).cumsum(dim=1)
        k_sum = k.cumsum(dim=1)
        num = torch.einsum("bthd,bthde->bthe", q, kv)
        den = torch.einsum("bthd,bthd->bth", q, k_sum).unsqueeze(-1) + self.eps
        return self.out((num / den).reshape(B, T, D))


class LinearTransformerLM(nn.Module):
    def __init__(self, vocab=40, d=32, n_heads=4, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(16, d)
        self.attn = nn.ModuleList([CausalLinearAttention(d, n_heads) for _ in range(n_layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)) for _ in range(n_layers)])
        self.n1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layers)])
        self.n2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layers)])
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1)))
        for a, f, n1, n2 in zip(self.attn, self.ff, self.n1, self.n2):
            x = x + a(n1(x))
            x = x + f(n2(x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = LinearTransformerLM().eval()
    ids = torch.randint(0, 40, (2, 8))
    return model, (ids,)
