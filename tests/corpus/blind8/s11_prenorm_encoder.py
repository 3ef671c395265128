import torch
import torch.nn as nn


class MyLayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        mu = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        x_hat = (x - mu) * torch.rsqrt(var + self.eps)
        return x_hat * self.weight + self.bias


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, 2 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, src_mask):
        b, n, d = x.shape
        h = self.heads
        q = self.to_q(x).reshape(b, n, h, -1)
        k, v = self.to_kv(x).reshape(b, n, 2, h, -1).unbind(2)
        dots = torch.einsum("bihd,bjhd->bhij", q, k) * self.scale
        dots = dots.masked_fill(src_mask == 0, -1e9)
        attn = dots.softmax(dim=-1)
        out = torch.einsum("bhij,bjhd->bihd", attn, v).reshape(b, n, d)
        return self.to_out(out)


class PreNormEncoder(nn.Module):
    def __init__(self, vocab=45, dim=32, heads=4, depth=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(16, dim)
        self.layers = nn.ModuleList([])
        for _ in range(depth):
            self.layers.append(nn.ModuleList([
                MyLayerNorm(dim), Attention(dim, heads),
                MyLayerNorm(dim), nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim)),
            ]))
        self.norm = MyLayerNorm(dim)

    def forward(self, src, src_mask):
        x = self.emb(src) + self.pos(torch.arange(src.shape[1], device=src.device))
        for ln1, attn, ln2, ff in self.layers:
            x = x + attn(ln1(x), src_mask)
            x = x + ff(ln2(x))
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = PreNormEncoder().eval()
    src = torch.tensor([[6, 12, 9, 30, 2, 0, 0], [4, 40, 17, 23, 11, 8, 2]])
    src_mask = (src != 0).unsqueeze(1).unsqueeze(2)
    return model, (src, src_mask)
