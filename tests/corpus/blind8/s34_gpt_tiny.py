import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        norm = x.pow(2).mean(dim=-1, keepdim=True).add(self.eps).sqrt()
        return self.scale * x / norm


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        qkv = rearrange(self.qkv(x), "b t (three h d) -> three b h t d", three=3, h=self.heads)
        o = F.scaled_dot_product_attention(qkv[0], qkv[1], qkv[2], is_causal=True)
        return self.out(rearrange(o, "b h t d -> b t (h d)"))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.n1 = RMSNorm(dim)
        self.attn = Attn(dim, heads)
        self.n2 = RMSNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim, bias=False), nn.SiLU(), nn.Linear(4 * dim, dim, bias=False))

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.ff(self.n2(x))


class RMSGPT(nn.Module):
    def __init__(self, vocab=40, dim=32, heads=4, depth=2, ctx=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        self.blocks = nn.Sequential(*[Block(dim, heads) for _ in range(depth)])
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.tok.weight

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        return self.lm_head(self.norm(self.blocks(x)))


def build():
    torch.manual_seed(0)
    model = RMSGPT().eval()
    idx = torch.randint(0, 40, (3, 8))
    return model, (idx,)
