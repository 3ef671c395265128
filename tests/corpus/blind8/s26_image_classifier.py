import torch
import torch.nn as nn
from einops import rearrange
from einops.layers.torch import Rearrange


class Attention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=8, dropout=0.1):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.norm = nn.LayerNorm(dim)
        self.attend = nn.Softmax(dim=-1)
        self.dropout = nn.Dropout(dropout)
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner, dim), nn.Dropout(dropout))

    def forward(self, x):
        x = self.norm(x)
        qkv = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.heads), qkv)
        dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        attn = self.dropout(self.attend(dots))
        out = torch.matmul(attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class SimpleViT(nn.Module):
    def __init__(self, image_size=12, patch_size=4, num_classes=6, dim=32, depth=2, heads=4, channels=3):
        super().__init__()
        n = (image_size // patch_size) ** 2
        patch_dim = channels * patch_size * patch_size
        self.to_patch_embedding = nn.Sequential(
            Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=patch_size, p2=patch_size),
            nn.LayerNorm(patch_dim), nn.Linear(patch_dim, dim), nn.LayerNorm(dim))
        self.pos_embedding = nn.Parameter(torch.randn(1, n, dim) * 0.02)
        self.layers = nn.ModuleList([nn.ModuleList([
            Attention(dim, heads),
            nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)),
        ]) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, img):
        x = self.to_patch_embedding(img) + self.pos_embedding
        for attn, ff in self.layers:
            x = attn(x) + x
            x = ff(x) + x
        x = self.norm(x).mean(dim=1)
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = SimpleViT().eval()
    img = torch.randn(2, 3, 12, 12)
    return model, (img,)
