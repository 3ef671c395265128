import torch
import torch.nn as nn


def chunked_attention(q, k, v, q_chunk, kv_chunk):
    B, H, T, d = q.shape
    scale = d ** -0.5
    out = torch.empty_like(q)
    for qs in range(0, T, q_chunk):
        qb = q[:, :, qs:qs + q_chunk] * scale
        num = torch.zeros(B, H, qb.shape[2], d, dtype=q.dtype, device=q.device)
        den = torch.zeros(B, H, qb.shape[2], 1, dtype=q.dtype, device=q.device)
        for ks in range(0, k.shape[2], kv_chunk):
            s = qb @ k[:, :, ks:ks + kv_chunk].transpose(-2, -1)
            p = torch.exp(s)
            num = num + p @ v[:, :, ks:ks + kv_chunk]
            den = den + p.sum(dim=-1, keepdim=True)
        out[:, :, qs:qs + q_chunk] = num / den
    return out


class ChunkedEncoderLayer(nn.Module):
    def __init__(self, d=32, heads=4, q_chunk=4, kv_chunk=3):
        super().__init__()
        self.h = heads
        self.q_chunk = q_chunk
        self.kv_chunk = kv_chunk
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.norm1 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.norm2 = nn.LayerNorm(d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        o = chunked_attention(q, k, v, self.q_chunk, self.kv_chunk)
        x = self.norm1(x + self.proj(o.transpose(1, 2).reshape(B, T, D)))
        return self.norm2(x + self.ff(x))


def build():
    torch.manual_seed(0)
    model = ChunkedEncoderLayer().eval()
    x = torch.randn(2, 11, 32)
    return model, (x,)
