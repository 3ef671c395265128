"""Streaming audio encoder: causal depthwise convolution plus causal self-attention."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConvModule(nn.Module):
    def __init__(self, dim, kernel_size=5):
        super().__init__()
        self.kernel_size = kernel_size
        self.pointwise_in = nn.Conv1d(dim, 2 * dim, kernel_size=1)
        self.depthwise = nn.Conv1d(dim, dim, kernel_size, groups=dim)
        self.norm = nn.LayerNorm(dim)
        self.pointwise_out = nn.Conv1d(dim, dim, kernel_size=1)

    def forward(self, x):
        # x: (B, T, C)
        h = F.glu(self.pointwise_in(x.transpose(1, 2)), dim=1)
        h = F.pad(h, (self.kernel_size - 1, 0))  # look only at past frames
        h = self.depthwise(h)
        h = self.norm(h.transpose(1, 2)).transpose(1, 2)
        return self.pointwise_out(F.silu(h)).transpose(1, 2)


class CausalAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.in_proj = nn.Linear(dim, 3 * dim)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.in_proj(x).view(B, T, 3, self.n_heads, -1).transpose(1, 3).unbind(2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out_proj(out.transpose(1, 2).reshape(B, T, C))


class StreamingBlock(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ff1 = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))
        self.attn_norm = nn.LayerNorm(dim)
        self.attn = CausalAttention(dim, n_heads)
        self.conv_norm = nn.LayerNorm(dim)
        self.conv = CausalConvModule(dim)
        self.out_norm = nn.LayerNorm(dim)

    def forward(self, x):
        x = x + 0.5 * self.ff1(x)
        x = x + self.attn(self.attn_norm(x))
        x = x + self.conv(self.conv_norm(x))
        return self.out_norm(x)


class StreamingEncoder(nn.Module):
    def __init__(self, n_mels=20, dim=32, n_heads=4, depth=2):
        super().__init__()
        self.input = nn.Linear(n_mels, dim)
        self.blocks = nn.ModuleList(StreamingBlock(dim, n_heads) for _ in range(depth))

    def forward(self, feats):
        x = self.input(feats)
        for blk in self.blocks:
            x = blk(x)
        return x


def build():
    torch.manual_seed(0)
    model = StreamingEncoder().eval()
    feats = torch.randn(2, 12, 20)
    return model, (feats,)
