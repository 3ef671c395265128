"""CvT (Wu et al. 2021) stage: convolutional token embedding + convolutional projection attention.

Q, K and V are produced by depthwise-separable convolutions over the 2-D token map; K and V use
stride 2 to cut their length by 4.
"""
import torch
import torch.nn as nn
from einops import rearrange


class ConvProjection(nn.Module):
    def __init__(self, dim, kernel=3, stride=1):
        super().__init__()
        self.dw = nn.Conv2d(dim, dim, kernel, stride=stride, padding=kernel // 2, groups=dim, bias=False)
        self.bn = nn.BatchNorm2d(dim)

    def forward(self, x):
        return rearrange(self.bn(self.dw(x)), "b c h w -> b (h w) c")


class ConvAttention(nn.Module):
    def __init__(self, dim_in, dim_out, num_heads, kv_stride=2):
        super().__init__()
        self.num_heads = num_heads
        self.scale = dim_out ** -0.5
        self.conv_proj_q = ConvProjection(dim_in, stride=1)
        self.conv_proj_k = ConvProjection(dim_in, stride=kv_stride)
        self.conv_proj_v = ConvProjection(dim_in, stride=kv_stride)
        self.proj_q = nn.Linear(dim_in, dim_out)
        self.proj_k = nn.Linear(dim_in, dim_out)
        self.proj_v = nn.Linear(dim_in, dim_out)
        self.proj = nn.Linear(dim_out, dim_out)

    def forward(self, x, h, w):
        grid = rearrange(x, "b (h w) c -> b c h w", h=h, w=w)
        q = rearrange(self.proj_q(self.conv_proj_q(grid)), "b t (h d) -> b h t d", h=self.num_heads)
        k = rearrange(self.proj_k(self.conv_proj_k(grid)), "b t (h d) -> b h t d", h=self.num_heads)
        v = rearrange(self.proj_v(self.conv_proj_v(grid)), "b t (h d) -> b h t d", h=self.num_heads)
        attn_score = torch.einsum("bhlk,bhtk->bhlt", q, k) * self.scale
        attn = attn_score.softmax(dim=-1)
        x = torch.einsum("bhlt,bhtv->bhlv", attn, v)
        return self.proj(rearrange(x, "b h t d -> b t (h d)"))


class CvTBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = ConvAttention(dim, dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, h, w):
        x = x + self.attn(self.norm1(x), h, w)
        return x + self.mlp(self.norm2(x))


class CvTStage(nn.Module):
    def __init__(self, in_chans=3, dim=48, heads=4, depth=2):
        super().__init__()
        self.embed = nn.Conv2d(in_chans, dim, kernel_size=7, stride=4, padding=2)
        self.embed_norm = nn.LayerNorm(dim)
        self.blocks = nn.ModuleList([CvTBlock(dim, heads) for _ in range(depth)])

    def forward(self, img):
        x = self.embed(img)
        B, C, H, W = x.shape
        x = self.embed_norm(rearrange(x, "b c h w -> b (h w) c"))
        for blk in self.blocks:
            x = blk(x, H, W)
        return rearrange(x, "b (h w) c -> b c h w", h=H, w=W)


def build():
    torch.manual_seed(0)
    model = CvTStage().eval()
    return model, (torch.randn(2, 3, 32, 32),)
