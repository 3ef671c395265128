"""Decoder with NTK-aware scaled rotary embeddings and a growing cos/sin cache.

The rotary base is stretched (base * alpha ** (d / (d - 2))) to extend the context; cos/sin
tables are cached, grown (doubling) when a larger position is needed, and gathered with
position_ids, which count the real tokens of left-padded prompts. Pad query rows may see
every key (their outputs are never used); real rows see earlier real tokens only.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NTKRotary(nn.Module):
    def __init__(self, dim, base=10000.0, alpha=4.0):
        super().__init__()
        self.dim = dim
        self.base = base * alpha ** (dim / (dim - 2))          # NTK-aware stretch of the base
        self._cached_len = 0
        self._cos = self._sin = None

    def _grow(self, length):
        inv = 1.0 / self.base ** (torch.arange(0, self.dim, 2).float() / self.dim)
        ang = torch.outer(torch.arange(length).float(), inv)
        emb = torch.cat([ang, ang], dim=-1)
        self._cos, self._sin, self._cached_len = emb.cos(), emb.sin(), length

    def forward(self, position_ids):
        needed = int(position_ids.max()) + 1
        if needed > self._cached_len:
            self._grow(max(needed, 2 * self._cached_len))
        return self._cos[position_ids][:, None], self._sin[position_ids][:, None]    # (B, 1, T, dim)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class Attention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)

    def forward(self, x, cos, sin, allowed):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        return self.o(o.transpose(1, 2).reshape(B, T, D))


class NTKDecoder(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, n_layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.rotary = NTKRotary(d // heads)
        self.attn = nn.ModuleList(Attention(d, heads) for _ in range(n_layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 64), nn.SiLU(), nn.Linear(64, d)) for _ in range(n_layers))
        self.n1 = nn.ModuleList(nn.RMSNorm(d) for _ in range(n_layers))
        self.n2 = nn.ModuleList(nn.RMSNorm(d) for _ in range(n_layers))
        self.norm = nn.RMSNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        cos, sin = self.rotary(position_ids)
        real = attention_mask.bool()
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        allowed = torch.where(real[:, :, None], causal[None] & real[:, None, :], torch.ones_like(causal)[None])
        x = self.tok(input_ids)
        for attn, mlp, n1, n2 in zip(self.attn, self.mlp, self.n1, self.n2):
            x = x + attn(n1(x), cos, sin, allowed[:, None])
            x = x + mlp(n2(x))
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = NTKDecoder().eval()
    ids = torch.randint(3, 64, (2, 12))
    mask = torch.ones(2, 12, dtype=torch.long)
    mask[0, :3] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
