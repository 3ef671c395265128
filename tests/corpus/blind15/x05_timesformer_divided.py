"""TimeSformer with divided space-time attention (Bertasius et al., 2021).

Each block first attends over time (the same patch across frames), then over space (the
patches of one frame). Both use the same multi-head attention module.
"""
import torch
import torch.nn as nn
from einops import rearrange


class Attention(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in (q, k, v))
        scores = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        attn = scores.softmax(dim=-2)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class DividedBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm_t = nn.LayerNorm(dim)
        self.attn_t = Attention(dim, heads)
        self.norm_s = nn.LayerNorm(dim)
        self.attn_s = Attention(dim, heads)
        self.norm_ff = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        b, f, n, d = x.shape
        t = rearrange(x, "b f n d -> (b n) f d")
        t = t + self.attn_t(self.norm_t(t))
        x = rearrange(t, "(b n) f d -> b f n d", b=b)
        s = rearrange(x, "b f n d -> (b f) n d")
        s = s + self.attn_s(self.norm_s(s))
        x = rearrange(s, "(b f) n d -> b f n d", b=b)
        return x + self.ff(self.norm_ff(x))


class TimeSformer(nn.Module):
    def __init__(self, frames=4, image=16, patch=4, dim=32, depth=2, heads=4, num_classes=7):
        super().__init__()
        self.patch = patch
        n = (image // patch) ** 2
        self.to_patch = nn.Linear(3 * patch * patch, dim)
        self.pos_space = nn.Parameter(torch.randn(1, 1, n, dim) * 0.02)
        self.pos_time = nn.Parameter(torch.randn(1, frames, 1, dim) * 0.02)
        self.blocks = nn.ModuleList(DividedBlock(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, video):
        x = rearrange(video, "b f c (h p1) (w p2) -> b f (h w) (p1 p2 c)", p1=self.patch, p2=self.patch)
        x = self.to_patch(x) + self.pos_space + self.pos_time
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x.mean(dim=(1, 2))))


def build():
    torch.manual_seed(0)
    model = TimeSformer().eval()
    video = torch.randn(2, 4, 3, 16, 16)
    return model, (video,)
