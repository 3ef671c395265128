"""SegFormer (MiT) encoder stage: efficient self-attention with spatial reduction and Mix-FFN.

Keys and values come from a strided-conv reduction of the token map (sequence reduction ratio
R), so the score table is (N, N / R^2); queries keep full resolution.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EfficientSelfAttention(nn.Module):
    def __init__(self, dim, num_heads, sr_ratio):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.proj = nn.Linear(dim, dim)
        self.sr_ratio = sr_ratio
        if sr_ratio > 1:
            self.sr = nn.Conv2d(dim, dim, kernel_size=sr_ratio, stride=sr_ratio)
            self.norm = nn.LayerNorm(dim)

    def forward(self, x, H, W):
        B, N, C = x.shape
        q = self.q(x).reshape(B, N, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        if self.sr_ratio > 1:
            x_ = x.permute(0, 2, 1).reshape(B, C, H, W)
            x_ = self.sr(x_).reshape(B, C, -1).permute(0, 2, 1)
            x_ = self.norm(x_)
        else:
            x_ = x
        kv = self.kv(x_).reshape(B, -1, 2, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        k, v = kv[0], kv[1]
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(out)


class MixFFN(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.dwconv = nn.Conv2d(hidden, hidden, 3, padding=1, groups=hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x, H, W):
        x = self.fc1(x)
        B, N, C = x.shape
        x = self.dwconv(x.transpose(1, 2).reshape(B, C, H, W)).flatten(2).transpose(1, 2)
        return self.fc2(F.gelu(x))


class MiTBlock(nn.Module):
    def __init__(self, dim, heads, sr_ratio):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = EfficientSelfAttention(dim, heads, sr_ratio)
        self.norm2 = nn.LayerNorm(dim)
        self.ffn = MixFFN(dim, 4 * dim)

    def forward(self, x, H, W):
        x = x + self.attn(self.norm1(x), H, W)
        return x + self.ffn(self.norm2(x), H, W)


class MiTStage(nn.Module):
    def __init__(self, in_ch=3, dim=32, heads=2, sr_ratio=4, depth=2, patch=4):
        super().__init__()
        self.patch_embed = nn.Conv2d(in_ch, dim, kernel_size=patch + 3, stride=patch, padding=(patch + 3) // 2)
        self.embed_norm = nn.LayerNorm(dim)
        self.blocks = nn.ModuleList([MiTBlock(dim, heads, sr_ratio) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, img):
        x = self.patch_embed(img)
        B, C, H, W = x.shape
        x = self.embed_norm(x.flatten(2).transpose(1, 2))
        for blk in self.blocks:
            x = blk(x, H, W)
        return self.norm(x).transpose(1, 2).reshape(B, C, H, W)


def build():
    torch.manual_seed(0)
    model = MiTStage().eval()
    img = torch.randn(2, 3, 32, 32)
    return model, (img,)
