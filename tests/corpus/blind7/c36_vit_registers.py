import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.norm1 = nn.LayerNorm(d, eps=1e-6)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.norm2 = nn.LayerNorm(d, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.ls1 = nn.Parameter(torch.full((d,), 0.5))
        self.ls2 = nn.Parameter(torch.full((d,), 0.5))

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(self.norm1(x)).reshape(B, N, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v)
        x = x + self.ls1 * self.proj(a.transpose(1, 2).reshape(B, N, C))
        return x + self.ls2 * self.mlp(self.norm2(x))


class ViTWithRegisters(nn.Module):
    def __init__(self, img=16, patch=4, in_ch=3, d=32, heads=4, depth=2, n_reg=4, n_classes=10):
        super().__init__()
        self.n_reg = n_reg
        self.patch_embed = nn.Conv2d(in_ch, d, patch, stride=patch)
        n_patches = (img // patch) ** 2
        self.cls_token = nn.Parameter(torch.randn(1, 1, d) * 0.02)
        self.reg_tokens = nn.Parameter(torch.randn(1, n_reg, d) * 0.02)
        self.pos_embed = nn.Parameter(torch.randn(1, 1 + n_patches, d) * 0.02)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(d, eps=1e-6)
        self.head = nn.Linear(d, n_classes)

    def forward(self, images):
        B = images.shape[0]
        x = self.patch_embed(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(B, -1, -1), x], dim=1) + self.pos_embed
        x = torch.cat([x[:, :1], self.reg_tokens.expand(B, -1, -1), x[:, 1:]], dim=1)
        for blk in self.blocks:
            x = blk(x)
        x = self.norm(x)
        cls = x[:, 0]
        patch_tokens = x[:, 1 + self.n_reg:]
        return self.head(cls), patch_tokens


def build():
    torch.manual_seed(0)
    model = ViTWithRegisters().eval()
    images = torch.randn(2, 3, 16, 16)
    return model, (images,)
