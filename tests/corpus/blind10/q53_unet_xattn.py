import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class Attention(nn.Module):
    def __init__(self, query_dim, context_dim=None, heads=4, dim_head=8):
        super().__init__()
        inner_dim = dim_head * heads
        context_dim = query_dim if context_dim is None else context_dim
        self.scale = inner_dim ** -0.5
        self.heads = heads
        self.to_q = nn.Linear(query_dim, inner_dim, bias=False)
        self.to_k = nn.Linear(context_dim, inner_dim, bias=False)
        self.to_v = nn.Linear(context_dim, inner_dim, bias=False)
        self.to_out = nn.Linear(inner_dim, query_dim)

    def forward(self, x, context=None, mask=None):
        h = self.heads
        context = x if context is None else context
        q, k, v = self.to_q(x), self.to_k(context), self.to_v(context)
        q, k, v = (rearrange(t, "b n (h d) -> (b h) n d", h=h) for t in (q, k, v))
        sim = torch.einsum("b i d, b j d -> b i j", q, k) * self.scale
        if mask is not None:
            mask = rearrange(mask, "b j -> b 1 j").repeat_interleave(h, dim=0)
            sim = sim.masked_fill(~mask, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        out = torch.einsum("b i j, b j d -> b i d", attn, v)
        return self.to_out(rearrange(out, "(b h) n d -> b n (h d)", h=h))


class AttnBlock(nn.Module):
    def __init__(self, c=32, context_dim=24):
        super().__init__()
        self.norm = nn.GroupNorm(8, c)
        self.self_attn = Attention(c)
        self.cross_attn = Attention(c, context_dim)
        self.ln1, self.ln2 = nn.LayerNorm(c), nn.LayerNorm(c)

    def forward(self, x, context, context_mask):
        b, c, hh, ww = x.shape
        h = rearrange(self.norm(x), "b c h w -> b (h w) c")
        h = h + self.self_attn(self.ln1(h))
        h = h + self.cross_attn(self.ln2(h), context, context_mask)
        return x + rearrange(h, "b (h w) c -> b c h w", h=hh)


class Denoiser(nn.Module):
    def __init__(self, c=32, vocab=40, context_dim=24):
        super().__init__()
        self.inp = nn.Conv2d(4, c, 3, padding=1)
        self.tok = nn.Embedding(vocab, context_dim)
        self.block = AttnBlock(c, context_dim)
        self.out = nn.Conv2d(c, 4, 3, padding=1)

    def forward(self, noisy_latents, text_ids, text_mask):
        return self.out(self.block(self.inp(noisy_latents), self.tok(text_ids), text_mask.bool()))


def build():
    torch.manual_seed(0)
    model = Denoiser().eval()
    lat = torch.randn(2, 4, 6, 6)
    text = torch.zeros(2, 7, dtype=torch.long)
    text[0, :5] = torch.randint(1, 40, (5,))
    text[1, :7] = torch.randint(1, 40, (7,))
    return model, (lat, text, (text != 0).long())
