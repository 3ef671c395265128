import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_cache(T, dim, base=10000.0, device=None):
    inv = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32, device=device) / dim))
    freqs = torch.outer(torch.arange(T, dtype=torch.float32, device=device), inv)
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


def apply_rope(x, cos, sin):
    return x * cos + rotate_half(x) * sin


class MultiHeadLatentAttention(nn.Module):
    def __init__(self, dim=64, n_heads=4, q_lora_rank=24, kv_lora_rank=16, qk_nope_dim=16, qk_rope_dim=8, v_dim=16):
        super().__init__()
        self.h = n_heads
        self.kv_lora_rank = kv_lora_rank
        self.qk_nope_dim = qk_nope_dim
        self.qk_rope_dim = qk_rope_dim
        self.v_dim = v_dim
        self.wq_a = nn.Linear(dim, q_lora_rank, bias=False)
        self.q_norm = RMSNorm(q_lora_rank)
        self.wq_b = nn.Linear(q_lora_rank, n_heads * (qk_nope_dim + qk_rope_dim), bias=False)
        self.wkv_a = nn.Linear(dim, kv_lora_rank + qk_rope_dim, bias=False)
        self.kv_norm = RMSNorm(kv_lora_rank)
        self.wkv_b = nn.Linear(kv_lora_rank, n_heads * (qk_nope_dim + v_dim), bias=False)
        self.wo = nn.Linear(n_heads * v_dim, dim, bias=False)
        self.softmax_scale = (qk_nope_dim + qk_rope_dim) ** -0.5

    def forward(self, x):
        B, T, _ = x.shape
        q = self.wq_b(self.q_norm(self.wq_a(x))).view(B, T, self.h, self.qk_nope_dim + self.qk_rope_dim)
        q_nope, q_pe = q.split([self.qk_nope_dim, self.qk_rope_dim], dim=-1)
        c_kv, k_pe = self.wkv_a(x).split([self.kv_lora_rank, self.qk_rope_dim], dim=-1)
        kv = self.wkv_b(self.kv_norm(c_kv)).view(B, T, self.h, self.qk_nope_dim + self.v_dim)
        k_nope, v = kv.split([self.qk_nope_dim, self.v_dim], dim=-1)
        cos, sin = rope_cache(T, self.qk_rope_dim, device=x.device)
        q_pe = apply_rope(q_pe, cos[:, None, :], sin[:, None, :])
        k_pe = apply_rope(k_pe, cos, sin)
        scores = torch.einsum("bthd,bshd->bhts", q_nope, k_nope) + torch.einsum("bthd,bsd->bhts", q_pe, k_pe)
        scores = scores * self.softmax_scale
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(causal, float("-inf"))
        attn = scores.softmax(dim=-1, dtype=torch.float32).type_as(x)
        out = torch.einsum("bhts,bshd->bthd", attn, v).reshape(B, T, self.h * self.v_dim)
        return self.wo(out)


class MLADecoderLayer(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.attn_norm = RMSNorm(dim)
        self.attn = MultiHeadLatentAttention(dim)
        self.ffn_norm = RMSNorm(dim)
        self.w1 = nn.Linear(dim, 2 * dim, bias=False)
        self.w3 = nn.Linear(dim, 2 * dim, bias=False)
        self.w2 = nn.Linear(2 * dim, dim, bias=False)

    def forward(self, x):
        x = x + self.attn(self.attn_norm(x))
        h = self.ffn_norm(x)
        return x + self.w2(nn.functional.silu(self.w1(h)) * self.w3(h))


def build():
    torch.manual_seed(0)
    model = MLADecoderLayer(64).eval()
    x = torch.randn(2, 10, 64)
    return model, (x,)
