"""Multi-head latent attention (low-rank compressed KV with a decoupled RoPE key)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rope(x, start_pos=0, base=10000.0):
    # x: (B, T, H, D), half-split rotation
    T, D = x.shape[1], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, D, 2, dtype=torch.float32) / D))
    t = torch.arange(start_pos, start_pos + T, dtype=torch.float32)
    freqs = torch.outer(t, inv_freq)
    cos = torch.cat([freqs.cos(), freqs.cos()], -1)[None, :, None, :]
    sin = torch.cat([freqs.sin(), freqs.sin()], -1)[None, :, None, :]
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat([-x2, x1], dim=-1) * sin


class MultiHeadLatentAttention(nn.Module):
    def __init__(self, dim=48, n_heads=4, kv_lora_rank=16, qk_nope_dim=8, qk_rope_dim=4, v_dim=8):
        super().__init__()
        self.n_heads = n_heads
        self.kv_lora_rank = kv_lora_rank
        self.qk_nope_dim = qk_nope_dim
        self.qk_rope_dim = qk_rope_dim
        self.v_dim = v_dim
        self.wq = nn.Linear(dim, n_heads * (qk_nope_dim + qk_rope_dim), bias=False)
        self.wkv_a = nn.Linear(dim, kv_lora_rank + qk_rope_dim, bias=False)
        self.kv_norm = nn.RMSNorm(kv_lora_rank, eps=1e-6)
        self.wkv_b = nn.Linear(kv_lora_rank, n_heads * (qk_nope_dim + v_dim), bias=False)
        self.wo = nn.Linear(n_heads * v_dim, dim, bias=False)
        self.softmax_scale = (qk_nope_dim + qk_rope_dim) ** -0.5

    def forward(self, x, start_pos=0):
        B, T, _ = x.shape
        H = self.n_heads
        q = self.wq(x).view(B, T, H, self.qk_nope_dim + self.qk_rope_dim)
        q_nope, q_pe = q.split([self.qk_nope_dim, self.qk_rope_dim], dim=-1)
        q_pe = rope(q_pe, start_pos)

        kv = self.wkv_a(x)
        c_kv, k_pe = kv.split([self.kv_lora_rank, self.qk_rope_dim], dim=-1)
        k_pe = rope(k_pe.unsqueeze(2), start_pos)  # one rope key shared by all heads
        kv = self.wkv_b(self.kv_norm(c_kv)).view(B, T, H, self.qk_nope_dim + self.v_dim)
        k_nope, v = kv.split([self.qk_nope_dim, self.v_dim], dim=-1)

        q = torch.cat([q_nope, q_pe], dim=-1).transpose(1, 2)
        k = torch.cat([k_nope, k_pe.expand(-1, -1, H, -1)], dim=-1).transpose(1, 2)
        v = v.transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=self.softmax_scale)
        return self.wo(out.transpose(1, 2).reshape(B, T, H * self.v_dim))


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn_norm = nn.RMSNorm(dim, eps=1e-6)
        self.attn = MultiHeadLatentAttention(dim)
        self.ffn_norm = nn.RMSNorm(dim, eps=1e-6)
        self.w1 = nn.Linear(dim, 2 * dim, bias=False)
        self.w3 = nn.Linear(dim, 2 * dim, bias=False)
        self.w2 = nn.Linear(2 * dim, dim, bias=False)

    def forward(self, x, start_pos=0):
        x = x + self.attn(self.attn_norm(x), start_pos)
        h = self.ffn_norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class LatentLM(nn.Module):
    def __init__(self, vocab=64, dim=48, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Block(dim) for _ in range(n_layers))
        self.norm = nn.RMSNorm(dim, eps=1e-6)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens, start_pos=0):
        h = self.embed(tokens)
        for layer in self.layers:
            h = layer(h, start_pos)
        return self.head(self.norm(h))


def build():
    torch.manual_seed(0)
    model = LatentLM().eval()
    tokens = torch.randint(0, 64, (2, 10))
    return model, (tokens,)
