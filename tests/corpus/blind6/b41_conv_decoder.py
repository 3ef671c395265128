"""Gated short-convolution decoder (H3/Mamba-style token mixer) with causal attention."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ShortConvMixer(nn.Module):
    def __init__(self, dim, kernel_size=4):
        super().__init__()
        self.in_proj = nn.Linear(dim, 2 * dim)
        self.conv1d = nn.Conv1d(dim, dim, kernel_size, groups=dim, padding=kernel_size - 1)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, x):
        T = x.shape[1]
        u, gate = self.in_proj(x).chunk(2, dim=-1)
        u = self.conv1d(u.transpose(1, 2))[..., -T:]
        u = F.silu(u.transpose(1, 2))
        return self.out_proj(u * F.silu(gate))


class CausalAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out(y.transpose(1, 2).reshape(B, T, C))


class HybridBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.RMSNorm(dim)
        self.mixer = ShortConvMixer(dim)
        self.norm2 = nn.RMSNorm(dim)
        self.attn = CausalAttention(dim, heads)
        self.norm3 = nn.RMSNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 3 * dim), nn.SiLU(), nn.Linear(3 * dim, dim))

    def forward(self, x):
        x = x + self.mixer(self.norm1(x))
        x = x + self.attn(self.norm2(x))
        return x + self.mlp(self.norm3(x))


class HybridLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(HybridBlock(dim, heads) for _ in range(depth))
        self.norm = nn.RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        x = self.embed(input_ids)
        for blk in self.blocks:
            x = blk(x)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = HybridLM().eval()
    input_ids = torch.randint(0, 64, (2, 10))
    return model, (input_ids,)
