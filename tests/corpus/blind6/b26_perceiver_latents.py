"""Perceiver-style classifier: learned latents cross-attend to a padded input array."""
import torch
import torch.nn as nn
from einops import rearrange, repeat


class Attention(nn.Module):
    def __init__(self, query_dim, context_dim=None, heads=4, dim_head=8):
        super().__init__()
        inner = heads * dim_head
        context_dim = context_dim or query_dim
        self.heads = heads
        self.scale = dim_head**-0.5
        self.to_q = nn.Linear(query_dim, inner, bias=False)
        self.to_kv = nn.Linear(context_dim, 2 * inner, bias=False)
        self.to_out = nn.Linear(inner, query_dim)

    def forward(self, x, context=None, mask=None):
        h = self.heads
        context = x if context is None else context
        q = self.to_q(x)
        k, v = self.to_kv(context).chunk(2, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> (b h) n d", h=h), (q, k, v))
        sim = torch.einsum("b i d, b j d -> b i j", q, k) * self.scale
        if mask is not None:
            mask = repeat(mask, "b j -> (b h) () j", h=h)
            sim.masked_fill_(~mask, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        out = torch.einsum("b i j, b j d -> b i d", attn, v)
        out = rearrange(out, "(b h) n d -> b n (h d)", h=h)
        return self.to_out(out)


class FeedForward(nn.Module):
    def __init__(self, dim, mult=2):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * mult), nn.GELU(), nn.Linear(dim * mult, dim))

    def forward(self, x):
        return self.net(x)


class Perceiver(nn.Module):
    def __init__(self, input_dim=12, latent_dim=32, num_latents=6, num_classes=5):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, latent_dim))
        self.cross_norm = nn.LayerNorm(latent_dim)
        self.context_norm = nn.LayerNorm(input_dim)
        self.cross_attn = Attention(latent_dim, input_dim, heads=1, dim_head=32)
        self.cross_ff = FeedForward(latent_dim)
        self.self_norm = nn.LayerNorm(latent_dim)
        self.self_attn = Attention(latent_dim)
        self.self_ff = FeedForward(latent_dim)
        self.to_logits = nn.Sequential(nn.LayerNorm(latent_dim), nn.Linear(latent_dim, num_classes))

    def forward(self, data, mask):
        # data: (B, M, input_dim); mask: (B, M) bool, True for valid elements
        b = data.shape[0]
        x = repeat(self.latents, "n d -> b n d", b=b)
        x = x + self.cross_attn(self.cross_norm(x), context=self.context_norm(data), mask=mask)
        x = x + self.cross_ff(x)
        x = x + self.self_attn(self.self_norm(x))
        x = x + self.self_ff(x)
        return self.to_logits(x.mean(dim=1))


def build():
    torch.manual_seed(0)
    model = Perceiver().eval()
    data = torch.randn(3, 10, 12)
    mask = torch.arange(10)[None, :] < torch.tensor([10, 7, 4])[:, None]
    return model, (data, mask)
