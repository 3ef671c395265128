import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class MaskedCrossAttention(nn.Module):
    """Each text token attends to the visual latents of the most recent <image> before it."""

    def __init__(self, dim=32, dim_visual=24, heads=4, dim_head=8):
        super().__init__()
        self.heads, self.scale = heads, dim_head ** -0.5
        inner = heads * dim_head
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_kv = nn.Linear(dim_visual, inner * 2, bias=False)
        self.to_out = nn.Linear(inner, dim, bias=False)

    def forward(self, x, media, media_locations):
        # x [b, n, d]; media [b, t, m, dv] (t images, m latents each); media_locations [b, n] bool
        b, t, m, _ = media.shape
        x = self.norm(x)
        q = rearrange(self.to_q(x), "b n (h d) -> b h n d", h=self.heads) * self.scale
        k, v = self.to_kv(rearrange(media, "b t m d -> b (t m) d")).chunk(2, dim=-1)
        k, v = (rearrange(z, "b s (h d) -> b h s d", h=self.heads) for z in (k, v))
        sim = torch.einsum("b h i d, b h j d -> b h i j", q, k)
        text_time = media_locations.cumsum(dim=-1)  # image index each token belongs to (0 = none yet)
        media_time = torch.arange(t, device=x.device) + 1
        attend = rearrange(text_time, "b i -> b 1 i 1") == rearrange(media_time.repeat_interleave(m), "j -> 1 1 1 j")
        sim = sim.masked_fill(~attend, -torch.finfo(sim.dtype).max)
        sim = sim - sim.amax(dim=-1, keepdim=True).detach()
        attn = sim.softmax(dim=-1)
        out = torch.einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class GatedCrossAttentionBlock(nn.Module):
    def __init__(self, dim=32, dim_visual=24):
        super().__init__()
        self.attn = MaskedCrossAttention(dim, dim_visual)
        self.attn_gate = nn.Parameter(torch.tensor([0.7]))
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.ff_gate = nn.Parameter(torch.tensor([0.5]))

    def forward(self, x, media, media_locations):
        x = self.attn(x, media, media_locations) * self.attn_gate.tanh() + x
        return self.ff(x) * self.ff_gate.tanh() + x


class TinyFlamingo(nn.Module):
    def __init__(self, vocab=50, dim=32, image_token=3):
        super().__init__()
        self.image_token = image_token
        self.emb = nn.Embedding(vocab, dim)
        self.xattn = GatedCrossAttentionBlock(dim)
        self.lm = nn.TransformerEncoderLayer(dim, 4, 64, 0.0, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids, media):
        T = ids.size(1)
        causal = nn.Transformer.generate_square_subsequent_mask(T)
        x = self.xattn(self.emb(ids), media, ids == self.image_token)
        x = self.lm(x, src_mask=causal, is_causal=True)
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = TinyFlamingo().eval()
    ids = torch.randint(4, 50, (2, 12))
    ids[0, 3] = ids[0, 8] = 3  # "a cat <image> ... <image> ..."
    ids[1, 0] = ids[1, 6] = 3
    media = torch.randn(2, 2, 3, 24)  # 2 images x 3 perceiver latents
    return model, (ids, media)
