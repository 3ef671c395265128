import torch
import torch.nn as nn
import torch.nn.functional as F


def ntk_inv_freq(dim, base=10000.0, scaling_factor=4.0):
    base = base * scaling_factor ** (dim / (dim - 2))
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(hidden, n_rep):
    B, n_kv, T, d = hidden.shape
    if n_rep == 1:
        return hidden
    hidden = hidden[:, :, None, :, :].expand(B, n_kv, n_rep, T, d)
    return hidden.reshape(B, n_kv * n_rep, T, d)


class Attention(nn.Module):
    def __init__(self, d=48, n_heads=6, n_kv_heads=2, head_dim=8):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv = n_kv_heads
        self.dh = head_dim
        self.q_proj = nn.Linear(d, n_heads * head_dim, bias=False)
        self.k_proj = nn.Linear(d, n_kv_heads * head_dim, bias=False)
        self.v_proj = nn.Linear(d, n_kv_heads * head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * head_dim, d, bias=False)
        self.q_norm = nn.RMSNorm(head_dim, eps=1e-6)
        self.k_norm = nn.RMSNorm(head_dim, eps=1e-6)
        self.register_buffer("inv_freq", ntk_inv_freq(head_dim), persistent=False)

    def forward(self, x, position_ids):
        B, T, _ = x.shape
        q = self.q_norm(self.q_proj(x).view(B, T, self.n_heads, self.dh)).transpose(1, 2)
        k = self.k_norm(self.k_proj(x).view(B, T, self.n_kv, self.dh)).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_kv, self.dh).transpose(1, 2)
        freqs = position_ids[:, :, None].float() * self.inv_freq[None, None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().unsqueeze(1), emb.sin().unsqueeze(1)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = repeat_kv(k, self.n_heads // self.n_kv)
        v = repeat_kv(v, self.n_heads // self.n_kv)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(B, T, -1))


class DecoderLayer(nn.Module):
    def __init__(self, d=48):
        super().__init__()
        self.input_layernorm = nn.RMSNorm(d, eps=1e-6)
        self.self_attn = Attention(d)
        self.post_attention_layernorm = nn.RMSNorm(d, eps=1e-6)
        self.gate_proj = nn.Linear(d, 96, bias=False)
        self.up_proj = nn.Linear(d, 96, bias=False)
        self.down_proj = nn.Linear(96, d, bias=False)

    def forward(self, x, position_ids):
        x = x + self.self_attn(self.input_layernorm(x), position_ids)
        h = self.post_attention_layernorm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


def build():
    torch.manual_seed(0)
    model = DecoderLayer().eval()
    x = torch.randn(2, 10, 48)
    position_ids = torch.arange(10).unsqueeze(0).repeat(2, 1)
    return model, (x, position_ids)
