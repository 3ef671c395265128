"""Decoder-only LM with YaRN-scaled rotary embeddings (cos/sin cache with attention temperature)
and hand-written RMSNorm; grouped-query attention through an explicit repeat_kv."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, hidden_states):
        variance = hidden_states.float().pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.eps)
        return self.weight * hidden_states


class YaRNRotary(nn.Module):
    def __init__(self, dim, max_pos=64, base=10000.0, factor=4.0, original_max=16):
        super().__init__()
        freq_extra = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        freq_inter = freq_extra / factor
        find = lambda rot: dim * math.log(original_max / (rot * 2 * math.pi)) / (2 * math.log(base))
        low, high = max(math.floor(find(32)), 0), min(math.ceil(find(1)), dim - 1)
        ramp = ((torch.arange(dim // 2).float() - low) / max(high - low, 0.001)).clamp(0, 1)
        inv_freq = freq_inter * ramp + freq_extra * (1 - ramp)
        mscale = 0.1 * math.log(factor) + 1.0
        t = torch.arange(max_pos).float()
        emb = torch.cat([torch.outer(t, inv_freq)] * 2, dim=-1)
        self.register_buffer("cos_cached", emb.cos() * mscale, persistent=False)
        self.register_buffer("sin_cached", emb.sin() * mscale, persistent=False)

    def forward(self, position_ids):  # (B, T) -> (B, 1, T, dim)
        return self.cos_cached[position_ids].unsqueeze(1), self.sin_cached[position_ids].unsqueeze(1)


def apply_rotary(x, cos, sin):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


def repeat_kv(x, n_rep):
    b, h, t, d = x.shape
    return x[:, :, None].expand(b, h, n_rep, t, d).reshape(b, h * n_rep, t, d)


class Attention(nn.Module):
    def __init__(self, dim, heads, kv_heads):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, dim // heads
        self.q_proj = nn.Linear(dim, heads * self.hd, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.o_proj = nn.Linear(heads * self.hd, dim, bias=False)

    def forward(self, x, cos, sin):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, -1, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(B, T, -1, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(B, T, -1, self.hd).transpose(1, 2)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        n_rep = self.heads // self.kv_heads
        out = F.scaled_dot_product_attention(q, repeat_kv(k, n_rep), repeat_kv(v, n_rep), is_causal=True)
        return self.o_proj(out.transpose(1, 2).contiguous().view(B, T, -1))


class Layer(nn.Module):
    def __init__(self, dim, heads, kv_heads):
        super().__init__()
        self.input_layernorm, self.post_attention_layernorm = RMSNorm(dim), RMSNorm(dim)
        self.self_attn = Attention(dim, heads, kv_heads)
        self.gate_up = nn.Linear(dim, 4 * dim, bias=False)
        self.down = nn.Linear(2 * dim, dim, bias=False)

    def forward(self, x, cos, sin):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin)
        gate, up = self.gate_up(self.post_attention_layernorm(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(gate) * up)


class Model(nn.Module):
    def __init__(self, vocab=100, dim=48, layers=2, heads=6, kv_heads=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rotary = YaRNRotary(dim // heads)
        self.layers = nn.ModuleList(Layer(dim, heads, kv_heads) for _ in range(layers))
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        position_ids = torch.arange(input_ids.size(1), device=input_ids.device).expand_as(input_ids)
        cos, sin = self.rotary(position_ids)
        x = self.embed(input_ids)
        for layer in self.layers:
            x = layer(x, cos, sin)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = Model().eval()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, RMSNorm):
                m.weight.uniform_(0.5, 1.5)
    input_ids = torch.randint(0, 100, (3, 22))
    return model, (input_ids,)
