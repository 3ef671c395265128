"""U-Net attention block written from scratch: a hand-written GroupNorm (statistics over each
group of channels and all pixels), then single-head-per-group self-attention over the pixels."""
import torch
import torch.nn as nn
from einops import rearrange


class GroupNorm32(nn.Module):
    def __init__(self, groups, channels, eps=1e-5):
        super().__init__()
        self.groups, self.eps = groups, eps
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):  # (B, C, H, W)
        B, C, H, W = x.shape
        g = x.view(B, self.groups, C // self.groups, H, W)
        mean = g.mean(dim=(2, 3, 4), keepdim=True)
        var = g.var(dim=(2, 3, 4), keepdim=True, unbiased=False)
        g = (g - mean) / torch.sqrt(var + self.eps)
        return g.view(B, C, H, W) * self.weight[None, :, None, None] + self.bias[None, :, None, None]


class AttentionBlock(nn.Module):
    def __init__(self, channels=32, heads=4, groups=8):
        super().__init__()
        self.heads = heads
        self.norm = GroupNorm32(groups, channels)
        self.qkv = nn.Conv1d(channels, 3 * channels, 1)
        self.proj_out = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        qkv = self.qkv(self.norm(x).reshape(b, c, h * w))  # (b, 3c, hw)
        q, k, v = rearrange(qkv, "b (three heads d) n -> three b heads n d", three=3, heads=self.heads)
        weight = torch.einsum("bhnd,bhmd->bhnm", q, k) / q.shape[-1] ** 0.5
        weight = weight.softmax(dim=-1)
        a = torch.einsum("bhnm,bhmd->bhnd", weight, v)
        a = rearrange(a, "b heads n d -> b (heads d) n")
        return x + self.proj_out(a).reshape(b, c, h, w)


class MidBlock(nn.Module):
    def __init__(self, channels=32):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.attn = AttentionBlock(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.act = nn.SiLU()

    def forward(self, x):
        x = x + self.conv1(self.act(x))
        x = self.attn(x)
        return x + self.conv2(self.act(x))


def build():
    torch.manual_seed(0)
    model = MidBlock().eval()
    with torch.no_grad():
        model.attn.norm.weight.uniform_(0.5, 1.5)
        model.attn.norm.bias.normal_(0, 0.1)
    x = torch.randn(3, 32, 5, 5) * 2 + 1
    return model, (x,)
