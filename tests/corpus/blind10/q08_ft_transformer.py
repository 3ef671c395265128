import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureTokenizer(nn.Module):
    def __init__(self, n_num, cat_cardinalities, d_token):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_num + 1, d_token) * 0.1)  # +1: CLS
        self.bias = nn.Parameter(torch.randn(n_num + len(cat_cardinalities), d_token) * 0.1)
        offsets = torch.tensor([0] + cat_cardinalities[:-1]).cumsum(0)
        self.register_buffer("category_offsets", offsets)
        self.category_embeddings = nn.Embedding(sum(cat_cardinalities), d_token)

    def forward(self, x_num, x_cat):
        x_num = torch.cat([torch.ones(x_num.size(0), 1), x_num], dim=1)
        x = self.weight[None] * x_num[:, :, None]
        x = torch.cat([x, self.category_embeddings(x_cat + self.category_offsets[None])], dim=1)
        bias = torch.cat([torch.zeros(1, self.bias.shape[1]), self.bias])
        return x + bias[None]


class MHA(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.W_q, self.W_k, self.W_v, self.W_out = (nn.Linear(d, d) for _ in range(4))

    def _split(self, x):
        b, n, d = x.shape
        return x.reshape(b, n, self.n_heads, d // self.n_heads).transpose(1, 2).reshape(b * self.n_heads, n, -1)

    def forward(self, x_q, x_kv):
        q, k, v = self._split(self.W_q(x_q)), self._split(self.W_k(x_kv)), self._split(self.W_v(x_kv))
        d_head = q.shape[-1]
        attention = F.softmax(torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d_head), dim=-1)
        x = torch.bmm(attention, v)
        b = x_q.shape[0]
        x = x.reshape(b, self.n_heads, x_q.shape[1], d_head).transpose(1, 2).reshape(b, x_q.shape[1], -1)
        return self.W_out(x)


class FTTransformer(nn.Module):
    def __init__(self, n_num=5, cats=(3, 7, 4), d=32, n_heads=4, n_layers=2, d_out=2):
        super().__init__()
        self.tokenizer = FeatureTokenizer(n_num, list(cats), d)
        self.layers = nn.ModuleList()
        for i in range(n_layers):
            self.layers.append(nn.ModuleDict({
                "attention": MHA(d, n_heads),
                "ffn": nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d)),
                "norm0": nn.LayerNorm(d) if i else nn.Identity(),
                "norm1": nn.LayerNorm(d),
            }))
        self.head = nn.Sequential(nn.LayerNorm(d), nn.ReLU(), nn.Linear(d, d_out))

    def forward(self, x_num, x_cat):
        x = self.tokenizer(x_num, x_cat)
        for i, layer in enumerate(self.layers):
            last = i + 1 == len(self.layers)
            h = layer["norm0"](x)
            x_q = h[:, :1] if last else h  # only the CLS token is needed in the last layer
            x = (x[:, :1] if last else x) + layer["attention"](x_q, h)
            x = x + layer["ffn"](layer["norm1"](x))
        return self.head(x[:, 0])


def build():
    torch.manual_seed(0)
    model = FTTransformer().eval()
    x_num = torch.randn(3, 5)
    x_cat = torch.stack([torch.randint(0, c, (3,)) for c in (3, 7, 4)], dim=1)
    return model, (x_num, x_cat)
