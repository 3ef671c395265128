"""Half-precision inference of a small vision transformer with a hand-written attention kernel
(the model is exported with .half() for a CPU/edge runtime)."""
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-2, -1)) * self.scale
        weights = torch.exp(scores)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        return self.proj((weights @ v).transpose(1, 2).reshape(B, N, C))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class ViT(nn.Module):
    def __init__(self, patch_dim=48, dim=64, heads=2, depth=2, n_patches=16, n_classes=10):
        super().__init__()
        self.patch_embed = nn.Linear(patch_dim, dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, n_patches + 1, dim) * 0.02)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, patches):
        x = self.patch_embed(patches.to(self.patch_embed.weight.dtype))
        x = torch.cat([self.cls_token.expand(x.size(0), -1, -1), x], dim=1) + self.pos_embed
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x)[:, 0]).float()


def build():
    torch.manual_seed(0)
    model = ViT()
    with torch.no_grad():  # stand-in for a trained checkpoint: sharper query/key projections
        for blk in model.blocks:
            blk.attn.qkv.weight[:128].mul_(4.0)
    model = model.half().eval()
    patches = torch.randn(2, 16, 48)
    return model, (patches,)
