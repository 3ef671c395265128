import torch
import torch.nn as nn
import torch.nn.functional as F


def repeat_kv(x, n_rep):
    B, n_kv, T, d = x.shape
    if n_rep == 1:
        return x
    x = x.reshape(B * n_kv, T, d).repeat(n_rep, 1, 1)
    return x.reshape(B, n_kv * n_rep, T, d)


def rope(x, base=10000.0):
    T, d = x.shape[-2], x.shape[-1]
    inv = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float32, device=x.device) / d)
    f = torch.outer(torch.arange(T, dtype=torch.float32, device=x.device), inv)
    cos, sin = torch.cat([f, f], -1).cos(), torch.cat([f, f], -1).sin()
    x1, x2 = x.chunk(2, -1)
    return x * cos + torch.cat([-x2, x1], -1) * sin


class GQAttention(nn.Module):
    def __init__(self, d=32, n_heads=4, n_kv_heads=2):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv = n_kv_heads
        self.dh = d // n_heads
        self.q_proj = nn.Linear(d, n_heads * self.dh, bias=False)
        self.k_proj = nn.Linear(d, n_kv_heads * self.dh, bias=False)
        self.v_proj = nn.Linear(d, n_kv_heads * self.dh, bias=False)
        self.o_proj = nn.Linear(n_heads * self.dh, d, bias=False)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.dh).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_kv, self.dh).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_kv, self.dh).transpose(1, 2)
        q, k = rope(q), rope(k)
        k = repeat_kv(k, self.n_heads // self.n_kv)
        v = repeat_kv(v, self.n_heads // self.n_kv)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(B, T, -1))


class GQALayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.input_norm = nn.RMSNorm(d)
        self.attn = GQAttention(d)
        self.post_norm = nn.RMSNorm(d)
        self.gate = nn.Linear(d, 64, bias=False)
        self.up = nn.Linear(d, 64, bias=False)
        self.down = nn.Linear(64, d, bias=False)

    def forward(self, x):
        x = x + self.attn(self.input_norm(x))
        h = self.post_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


def build():
    torch.manual_seed(0)
    model = GQALayer().eval()
    x = torch.randn(2, 8, 32)
    return model, (x,)
