"""Audio Spectrogram Transformer (Gong et al. 2021) with overlapping patches.

16x16-style patches are cut from the log-mel spectrogram with a stride smaller than the patch
size (here 8x8 patches, stride 6), a [CLS] and a [DIST] token are prepended, and the two
token outputs are averaged for clip-level tagging.
"""
import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, patch=8, fstride=6, tstride=6, dim=48):
        super().__init__()
        self.proj = nn.Conv2d(1, dim, kernel_size=(patch, patch), stride=(fstride, tstride))

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class Attention(nn.Module):
    def __init__(self, dim, num_heads=4, qkv_bias=True):
        super().__init__()
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        x = (attn @ v).reshape(B, N, C)
        return self.proj(x)


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn = Attention(dim, heads)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class ASTModel(nn.Module):
    def __init__(self, n_mels=32, frames=32, dim=48, depth=2, heads=4, n_labels=10):
        super().__init__()
        self.patch_embed = PatchEmbed(dim=dim)
        f_dim = (n_mels - 8) // 6 + 1
        t_dim = (frames - 8) // 6 + 1
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.dist_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, f_dim * t_dim + 2, dim) * 0.02)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.mlp_head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, n_labels))

    def forward(self, fbank):
        # fbank: (B, frames, n_mels) -> (B, 1, n_mels, frames)
        x = fbank.unsqueeze(1).transpose(2, 3)
        x = self.patch_embed(x)
        B = x.size(0)
        x = torch.cat([self.cls_token.expand(B, -1, -1), self.dist_token.expand(B, -1, -1), x], dim=1)
        x = x + self.pos_embed
        for blk in self.blocks:
            x = blk(x)
        x = self.norm(x)
        return self.mlp_head((x[:, 0] + x[:, 1]) / 2)


def build():
    torch.manual_seed(0)
    model = ASTModel()
    with torch.no_grad():
        model.cls_token.normal_(std=0.5)
        model.dist_token.normal_(std=0.5)
    model.eval()
    fbank = torch.randn(2, 32, 32)
    return model, (fbank,)
