"""Llama-style decoder running a left-padded batch prefill."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, position_ids):
        # position_ids: (B, T) -> cos, sin: (B, 1, T, dim)
        freqs = position_ids[..., None].float() * self.inv_freq
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos()[:, None], emb.sin()[:, None]


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, dim, bias=False)
        self.v_proj = nn.Linear(dim, dim, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x, cos, sin, attn_bias):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_bias)
        return self.o_proj(out.transpose(1, 2).reshape(B, T, -1))


class DecoderLayer(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.input_layernorm = nn.RMSNorm(dim, eps=1e-6)
        self.self_attn = Attention(dim, n_heads)
        self.post_attention_layernorm = nn.RMSNorm(dim, eps=1e-6)
        self.gate_proj = nn.Linear(dim, 64, bias=False)
        self.up_proj = nn.Linear(dim, 64, bias=False)
        self.down_proj = nn.Linear(64, dim, bias=False)

    def forward(self, x, cos, sin, attn_bias):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin, attn_bias)
        h = self.post_attention_layernorm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class LeftPaddedLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.rotary = RotaryEmbedding(dim // n_heads)
        self.layers = nn.ModuleList(DecoderLayer(dim, n_heads) for _ in range(n_layers))
        self.norm = nn.RMSNorm(dim, eps=1e-6)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        position_ids = attention_mask.long().cumsum(-1) - 1
        position_ids = position_ids.masked_fill(attention_mask == 0, 1)
        cos, sin = self.rotary(position_ids)

        h = self.embed_tokens(input_ids)
        causal = torch.ones(T, T, dtype=torch.bool, device=input_ids.device).tril()
        allowed = causal[None, None] & attention_mask[:, None, None, :].bool()
        # padded queries attend to themselves so that no row is empty
        allowed = allowed | torch.eye(T, dtype=torch.bool, device=input_ids.device)
        attn_bias = torch.zeros(allowed.shape, dtype=h.dtype).masked_fill(~allowed, torch.finfo(h.dtype).min)

        for layer in self.layers:
            h = layer(h, cos, sin, attn_bias)
        h = self.norm(h) * attention_mask[..., None].to(h.dtype)
        return self.lm_head(h)


def build():
    torch.manual_seed(0)
    model = LeftPaddedLM().eval()
    attention_mask = torch.tensor([[1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1]])
    input_ids = torch.randint(1, 64, (2, 8)) * attention_mask
    return model, (input_ids, attention_mask)
