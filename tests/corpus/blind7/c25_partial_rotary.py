import torch
import torch.nn as nn
import torch.nn.functional as F


class PartialRotary(nn.Module):
    def __init__(self, head_dim, rotary_pct=0.25, base=10000.0):
        super().__init__()
        self.rot_dim = int(head_dim * rotary_pct)
        inv_freq = 1.0 / (base ** (torch.arange(0, self.rot_dim, 2).float() / self.rot_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, position_ids):
        freqs = position_ids[..., None].float() * self.inv_freq
        emb = torch.cat([freqs, freqs], dim=-1)
        return emb.cos()[:, None], emb.sin()[:, None]


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_partial_rotary(q, k, cos, sin, rot_dim):
    q_rot, q_pass = q[..., :rot_dim], q[..., rot_dim:]
    k_rot, k_pass = k[..., :rot_dim], k[..., rot_dim:]
    q_rot = q_rot * cos + rotate_half(q_rot) * sin
    k_rot = k_rot * cos + rotate_half(k_rot) * sin
    return torch.cat([q_rot, q_pass], dim=-1), torch.cat([k_rot, k_pass], dim=-1)


class NeoXAttention(nn.Module):
    def __init__(self, d=64, heads=4):
        super().__init__()
        self.h = heads
        self.dh = d // heads
        self.query_key_value = nn.Linear(d, 3 * d)
        self.dense = nn.Linear(d, d)
        self.rotary = PartialRotary(self.dh)

    def forward(self, x, position_ids):
        B, T, D = x.shape
        qkv = self.query_key_value(x).view(B, T, self.h, 3 * self.dh).permute(0, 2, 1, 3)
        q, k, v = qkv.split(self.dh, dim=-1)
        cos, sin = self.rotary(position_ids)
        q, k = apply_partial_rotary(q, k, cos, sin, self.rotary.rot_dim)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.dense(out.transpose(1, 2).reshape(B, T, D))


class NeoXLayer(nn.Module):
    def __init__(self, d=64, heads=4):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(d)
        self.post_attention_layernorm = nn.LayerNorm(d)
        self.attention = NeoXAttention(d, heads)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, position_ids):
        attn = self.attention(self.input_layernorm(x), position_ids)
        mlp = self.mlp(self.post_attention_layernorm(x))
        return x + attn + mlp


def build():
    torch.manual_seed(0)
    model = NeoXLayer().eval()
    x = torch.randn(2, 10, 64)
    position_ids = torch.arange(10).unsqueeze(0).expand(2, -1).clone()
    return model, (x, position_ids)
