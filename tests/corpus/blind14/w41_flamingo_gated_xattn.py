"""Flamingo gated cross-attention layer: each text token attends only to the visual tokens of the
most recent <image> at or before it; text before the first image gets no visual input.
Interleaved with a causal LM layer."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange, repeat


class MaskedCrossAttention(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, 2 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim, bias=False)

    def forward(self, x, media, media_locations):
        B, T_img, n = media.shape[:3]
        x = self.norm(x)
        q = rearrange(self.to_q(x), "b t (h d) -> b h t d", h=self.heads)
        k, v = rearrange(self.to_kv(rearrange(media, "b i n d -> b (i n) d")), "b m (two h d) -> two b h m d", two=2, h=self.heads)
        sim = torch.einsum("bhtd,bhmd->bhtm", q * self.scale, k)
        text_time = media_locations.cumsum(dim=-1)  # index (1-based) of the latest image seen
        media_time = repeat(torch.arange(T_img, device=x.device) + 1, "i -> (i n)", n=n)
        keep = text_time[:, None, :, None] == media_time[None, None, None, :]
        sim = sim.masked_fill(~keep, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        attn = attn.masked_fill(rearrange(text_time == 0, "b t -> b 1 t 1"), 0.0)  # no image yet
        out = torch.einsum("bhtm,bhmd->bhtd", attn, v)
        return self.to_out(rearrange(out, "b h t d -> b t (h d)"))


class GatedCrossAttentionBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = MaskedCrossAttention(dim)
        self.attn_gate = nn.Parameter(torch.tensor([0.0]))
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.ff_gate = nn.Parameter(torch.tensor([0.0]))

    def forward(self, x, media, media_locations):
        x = x + self.attn(x, media, media_locations) * self.attn_gate.tanh()
        return x + self.ff(x) * self.ff_gate.tanh()


class FlamingoLayer(nn.Module):
    def __init__(self, vocab=70, dim=32, heads=4, image_token=1):
        super().__init__()
        self.image_token = image_token
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(32, dim) * 0.02)
        self.xattn = GatedCrossAttentionBlock(dim)
        self.lm_norm = nn.LayerNorm(dim)
        self.lm_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids, media):
        T = input_ids.size(1)
        x = self.embed(input_ids) + self.pos[:T]
        x = self.xattn(x, media, input_ids == self.image_token)
        h = self.lm_norm(x)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        x = x + self.lm_attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = FlamingoLayer().eval()
    with torch.no_grad():
        model.xattn.attn_gate.fill_(0.7)
        model.xattn.ff_gate.fill_(0.4)
    input_ids = torch.randint(2, 70, (2, 14))
    input_ids[0, [2, 8]] = 1  # <image> tokens
    input_ids[1, [0, 5]] = 1
    media = torch.randn(2, 2, 3, 32)  # (batch, images, latents per image, dim) from the resampler
    return model, (input_ids, media)
