"""ViViT model 2, factorised encoder (Arnab et al., 2021): a spatial transformer per frame
produces one [CLS] embedding per frame, then a temporal transformer runs over the frames.
"""
import torch
import torch.nn as nn
from einops import rearrange, repeat


class Attention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=8):
        super().__init__()
        inner = heads * dim_head
        self.heads, self.scale = heads, dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Linear(inner, dim)

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(b, n, self.heads, -1).permute(0, 2, 1, 3) for t in (q, k, v))
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        attn = dots.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out)


class Transformer(nn.Module):
    def __init__(self, dim, depth, heads, mlp_dim):
        super().__init__()
        self.layers = nn.ModuleList([
            nn.ModuleList([nn.LayerNorm(dim), Attention(dim, heads),
                           nn.LayerNorm(dim), nn.Sequential(nn.Linear(dim, mlp_dim), nn.GELU(), nn.Linear(mlp_dim, dim))])
            for _ in range(depth)
        ])
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        for ln1, attn, ln2, ff in self.layers:
            x = x + attn(ln1(x))
            x = x + ff(ln2(x))
        return self.norm(x)


class ViViT(nn.Module):
    def __init__(self, image=12, patch=4, frames=6, dim=32, heads=4, num_classes=10):
        super().__init__()
        n = (image // patch) ** 2
        self.patch = patch
        self.to_patch = nn.Sequential(nn.LayerNorm(3 * patch * patch), nn.Linear(3 * patch * patch, dim), nn.LayerNorm(dim))
        self.pos_embedding = nn.Parameter(torch.randn(1, frames, n + 1, dim) * 0.02)
        self.space_token = nn.Parameter(torch.randn(1, 1, dim))
        self.temporal_token = nn.Parameter(torch.randn(1, 1, dim))
        self.space_transformer = Transformer(dim, 2, heads, 2 * dim)
        self.temporal_transformer = Transformer(dim, 2, heads, 2 * dim)
        self.mlp_head = nn.Linear(dim, num_classes)

    def forward(self, video):
        x = rearrange(video, "b t c (h p1) (w p2) -> b t (h w) (p1 p2 c)", p1=self.patch, p2=self.patch)
        x = self.to_patch(x)
        b, t, n, _ = x.shape
        cls = repeat(self.space_token, "1 1 d -> b t 1 d", b=b, t=t)
        x = torch.cat((cls, x), dim=2) + self.pos_embedding[:, :t, : n + 1]
        x = self.space_transformer(rearrange(x, "b t n d -> (b t) n d"))
        x = rearrange(x[:, 0], "(b t) d -> b t d", b=b)
        x = torch.cat((repeat(self.temporal_token, "1 1 d -> b 1 d", b=b), x), dim=1)
        x = self.temporal_transformer(x)
        return self.mlp_head(x[:, 0])


def build():
    torch.manual_seed(0)
    model = ViViT().eval()
    video = torch.randn(2, 6, 3, 12, 12)
    return model, (video,)
