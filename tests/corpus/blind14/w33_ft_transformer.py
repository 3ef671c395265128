"""Tabular transformer (FT-Transformer / SAINT-style column attention) with missing-value
indicators: each column is a token; the [CLS] token is prepended and read out."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NumericalEmbedding(nn.Module):
    def __init__(self, n_features, d):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_features, d).uniform_(-0.5, 0.5))
        self.bias = nn.Parameter(torch.empty(n_features, d).uniform_(-0.5, 0.5))
        self.missing = nn.Parameter(torch.randn(n_features, d) * 0.1)

    def forward(self, x, is_missing):
        tokens = torch.einsum("bf,fd->bfd", torch.nan_to_num(x), self.weight) + self.bias
        return torch.where(is_missing[..., None], self.missing.expand_as(tokens), tokens)


class TabBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.norm2 = nn.LayerNorm(d)
        self.ffn = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.1 if self.training else 0.0)
        x = x + self.out(a.transpose(1, 2).flatten(2))
        return x + self.ffn(self.norm2(x))


class TabTransformer(nn.Module):
    def __init__(self, n_num=6, n_classes=3, d=32, heads=4, depth=2):
        super().__init__()
        self.num_emb = NumericalEmbedding(n_num, d)
        self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.1)
        self.blocks = nn.ModuleList(TabBlock(d, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, n_classes)

    def forward(self, x_num):
        is_missing = torch.isnan(x_num)
        tokens = self.num_emb(x_num, is_missing)
        x = torch.cat([self.cls.expand(x_num.size(0), -1, -1), tokens], dim=1)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x[:, 0]))


def build():
    torch.manual_seed(0)
    model = TabTransformer().eval()
    x_num = torch.randn(4, 6)
    x_num[1, 2] = float("nan")
    x_num[3, 0] = float("nan")
    return model, (x_num,)
