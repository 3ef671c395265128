import torch
import torch.nn as nn
from einops import rearrange, repeat


class Attention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=8):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.norm = nn.LayerNorm(dim)
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Linear(inner, dim)

    def forward(self, x, pad_mask):
        x = self.norm(x)
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.heads), (q, k, v))
        sim = torch.einsum("b h i d, b h j d -> b h i j", q, k) * self.scale
        mask = repeat(pad_mask, "b j -> b h i j", h=self.heads, i=sim.shape[2])
        sim = sim.masked_fill(mask, float("-inf"))
        attn = sim.softmax(dim=-1)
        out = torch.einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class FeedForward(nn.Module):
    def __init__(self, dim, mult=2):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * mult), nn.GELU(), nn.Linear(dim * mult, dim))

    def forward(self, x):
        return self.net(x)


class Transformer(nn.Module):
    def __init__(self, num_tokens=60, dim=32, depth=2, max_seq_len=16):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.pos_emb = nn.Embedding(max_seq_len, dim)
        self.layers = nn.ModuleList([nn.ModuleList([Attention(dim), FeedForward(dim)]) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, x, pad_mask):
        n = x.shape[1]
        x = self.token_emb(x) + rearrange(self.pos_emb(torch.arange(n, device=x.device)), "n d -> 1 n d")
        for attn, ff in self.layers:
            x = attn(x, pad_mask) + x
            x = ff(x) + x
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = Transformer().eval()
    x = torch.tensor([[11, 23, 5, 42, 0, 0, 0], [8, 19, 33, 2, 57, 14, 0], [4, 6, 0, 0, 0, 0, 0]])
    pad_mask = x == 0
    return model, (x, pad_mask)
