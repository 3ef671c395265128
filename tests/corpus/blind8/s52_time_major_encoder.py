import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.in_proj = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask):
        tgt_len, bsz, embed_dim = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.contiguous().reshape(bsz * self.num_heads, tgt_len, self.head_dim)
        k = k.contiguous().reshape(bsz * self.num_heads, tgt_len, self.head_dim)
        v = v.contiguous().reshape(bsz * self.num_heads, tgt_len, self.head_dim)
        w = torch.bmm(q * self.head_dim ** -0.5, k.transpose(1, 2))
        w = w.view(bsz, self.num_heads, tgt_len, tgt_len)
        w = w.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        w = F.softmax(w.view(bsz * self.num_heads, tgt_len, tgt_len), dim=-1)
        o = torch.bmm(w, v)
        o = o.transpose(0, 1).contiguous().view(tgt_len, bsz, embed_dim)
        return self.out_proj(o)


class EncoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.self_attn = SelfAttention(d, h)
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

    def forward(self, x, key_padding_mask):
        x = self.norm1(x + self.self_attn(x, key_padding_mask))
        return self.norm2(x + self.ff(x))


class Encoder(nn.Module):
    def __init__(self, d=32, h=4):
        super().__init__()
        self.layers = nn.ModuleList([EncoderLayer(d, h) for _ in range(2)])

    def forward(self, src, key_padding_mask):
        for layer in self.layers:
            src = layer(src, key_padding_mask)
        return src


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    src = torch.randn(6, 2, 32)
    key_padding_mask = torch.tensor([[False] * 6, [False, False, False, False, True, True]])
    return model, (src, key_padding_mask)
