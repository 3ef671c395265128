import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, query_dim, context_dim=None, heads=4, dim_head=8):
        super().__init__()
        inner = heads * dim_head
        context_dim = context_dim or query_dim
        self.heads = heads
        self.to_q = nn.Linear(query_dim, inner, bias=False)
        self.to_k = nn.Linear(context_dim, inner, bias=False)
        self.to_v = nn.Linear(context_dim, inner, bias=False)
        self.to_out = nn.Linear(inner, query_dim)

    def forward(self, x, context=None, context_mask=None):
        context = x if context is None else context
        B, N, _ = x.shape
        q, k, v = self.to_q(x), self.to_k(context), self.to_v(context)
        q, k, v = (t.view(B, t.size(1), self.heads, -1).transpose(1, 2) for t in (q, k, v))
        mask = None if context_mask is None else context_mask[:, None, None, :]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.to_out(out.transpose(1, 2).reshape(B, N, -1))


class SpatialTransformer(nn.Module):
    def __init__(self, channels=32, context_dim=24, groups=8):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels, eps=1e-6)
        self.proj_in = nn.Conv2d(channels, channels, 1)
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(channels), nn.LayerNorm(channels), nn.LayerNorm(channels)
        self.attn1 = CrossAttention(channels)
        self.attn2 = CrossAttention(channels, context_dim)
        self.ff = nn.Sequential(nn.Linear(channels, 2 * channels), nn.GELU(), nn.Linear(2 * channels, channels))
        self.proj_out = nn.Conv2d(channels, channels, 1)

    def forward(self, x, context, context_mask):
        b, c, h, w = x.shape
        x_in = x
        x = self.proj_in(self.norm(x))
        x = x.permute(0, 2, 3, 1).reshape(b, h * w, c)
        x = x + self.attn1(self.ln1(x))
        x = x + self.attn2(self.ln2(x), context, context_mask)
        x = x + self.ff(self.ln3(x))
        x = x.reshape(b, h, w, c).permute(0, 3, 1, 2)
        return self.proj_out(x) + x_in


class ResBlock(nn.Module):
    def __init__(self, c=32, t_dim=32):
        super().__init__()
        self.n1, self.n2 = nn.GroupNorm(8, c), nn.GroupNorm(8, c)
        self.c1, self.c2 = nn.Conv2d(c, c, 3, padding=1), nn.Conv2d(c, c, 3, padding=1)
        self.t = nn.Linear(t_dim, c)

    def forward(self, x, temb):
        h = self.c1(F.silu(self.n1(x))) + self.t(temb)[:, :, None, None]
        return x + self.c2(F.silu(self.n2(h)))


class TinyUNetMid(nn.Module):
    def __init__(self, c=32, text_vocab=40, context_dim=24):
        super().__init__()
        self.inp = nn.Conv2d(4, c, 3, padding=1)
        self.text = nn.Embedding(text_vocab, context_dim)
        self.temb = nn.Sequential(nn.Linear(1, c), nn.SiLU(), nn.Linear(c, c))
        self.res1, self.res2 = ResBlock(c), ResBlock(c)
        self.attn = SpatialTransformer(c, context_dim)
        self.out = nn.Conv2d(c, 4, 3, padding=1)

    def forward(self, latents, timesteps, text_ids, text_mask):
        temb = self.temb(timesteps.float()[:, None] / 1000)
        ctx = self.text(text_ids)
        h = self.res1(self.inp(latents), temb)
        h = self.attn(h, ctx, text_mask.bool())
        return self.out(self.res2(h, temb))


def build():
    torch.manual_seed(0)
    model = TinyUNetMid().eval()
    latents = torch.randn(2, 4, 6, 6)
    t = torch.tensor([10, 700])
    text = torch.zeros(2, 8, dtype=torch.long)
    text[0, :8] = torch.randint(1, 40, (8,))
    text[1, :3] = torch.randint(1, 40, (3,))
    return model, (latents, t, text, (text != 0).long())
