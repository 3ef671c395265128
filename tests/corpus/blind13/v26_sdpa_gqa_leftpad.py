"""Batched generation prefill for a grouped-query decoder on left-padded prompts.

Rotary positions count real tokens only (position_ids from the attention mask). The boolean
SDPA mask (True = may attend) is causal AND key-is-real; a left-pad query would then have no
key at all, so every query is also allowed its own position, which keeps the pad rows finite
without opening anything to the real rows (they already see themselves).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rope_cache(position_ids, dim, base=10000.0):
    inv = 1.0 / base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim)
    ang = position_ids[..., None].float() * inv                      # (B, T, dim/2)
    emb = torch.cat([ang, ang], dim=-1)
    return emb.cos()[:, None], emb.sin()[:, None]                     # (B, 1, T, dim)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


class GQAAttention(nn.Module):
    def __init__(self, d=48, n_q=6, n_kv=2):
        super().__init__()
        self.n_q, self.n_kv, self.dh = n_q, n_kv, d // n_q
        self.q_proj = nn.Linear(d, n_q * self.dh, bias=False)
        self.k_proj = nn.Linear(d, n_kv * self.dh, bias=False)
        self.v_proj = nn.Linear(d, n_kv * self.dh, bias=False)
        self.o_proj = nn.Linear(n_q * self.dh, d, bias=False)

    def forward(self, x, cos, sin, allowed):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.n_q, self.dh).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_kv, self.dh).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_kv, self.dh).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed, enable_gqa=True)
        return self.o_proj(o.transpose(1, 2).reshape(B, T, -1))


class Layer(nn.Module):
    def __init__(self, d=48):
        super().__init__()
        self.ln1, self.ln2 = nn.RMSNorm(d), nn.RMSNorm(d)
        self.attn = GQAAttention(d)
        self.gate = nn.Linear(d, 2 * d, bias=False)
        self.up = nn.Linear(d, 2 * d, bias=False)
        self.down = nn.Linear(2 * d, d, bias=False)

    def forward(self, x, cos, sin, allowed):
        x = x + self.attn(self.ln1(x), cos, sin, allowed)
        h = self.ln2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class GQADecoder(nn.Module):
    def __init__(self, vocab=64, d=48, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(Layer(d) for _ in range(n_layers))
        self.norm = nn.RMSNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        cos, sin = rope_cache(position_ids, self.layers[0].attn.dh)
        real = attention_mask.bool()
        causal = torch.ones(T, T, dtype=torch.bool, device=input_ids.device).tril()
        allowed = causal[None] & real[:, None, :]
        allowed = allowed | torch.eye(T, dtype=torch.bool, device=input_ids.device)
        x = self.embed(input_ids)
        for layer in self.layers:
            x = layer(x, cos, sin, allowed[:, None])
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = GQADecoder().eval()
    ids = torch.randint(3, 64, (3, 10))
    mask = torch.ones(3, 10, dtype=torch.long)
    mask[0, :4] = 0
    mask[2, :2] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
