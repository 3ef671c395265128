"""Phi-3-style decoder with LongRoPE: per-frequency rescale factors switch from the short to the
long list once the sequence exceeds the original context; hand-written RMSNorm."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SHORT_FACTOR = [1.0, 1.0, 1.1, 1.3]
LONG_FACTOR = [1.0, 1.6, 3.2, 6.4]


class RMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.pow(2).mean(1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states


class LongRoPE(nn.Module):
    def __init__(self, head_dim, base=10000.0, original_max=12, max_pos=48):
        super().__init__()
        self.original_max = original_max
        self.register_buffer("inv_freq", 1.0 / base ** (torch.arange(0, head_dim, 2).float() / head_dim), persistent=False)
        scale = max_pos / original_max
        self.attn_factor = math.sqrt(1 + math.log(scale) / math.log(original_max))

    def forward(self, seq_len, device):
        ext = torch.tensor(LONG_FACTOR if seq_len > self.original_max else SHORT_FACTOR, device=device)
        freqs = torch.outer(torch.arange(seq_len, device=device).float(), self.inv_freq / ext)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos() * self.attn_factor, emb.sin() * self.attn_factor


def rope(x, cos, sin):
    half = x.size(-1) // 2
    return x * cos + torch.cat((-x[..., half:], x[..., :half]), dim=-1) * sin


class Phi3Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.input_layernorm = RMSNorm(d)
        self.qkv_proj = nn.Linear(d, 3 * d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)
        self.post_attention_layernorm = RMSNorm(d)
        self.gate_up_proj = nn.Linear(d, 4 * d, bias=False)
        self.down_proj = nn.Linear(2 * d, d, bias=False)

    def forward(self, x, cos, sin):
        B, T, D = x.shape
        q, k, v = self.qkv_proj(self.input_layernorm(x)).view(B, T, 3, self.heads, self.hd).transpose(1, 3).unbind(2)
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o_proj(a.transpose(1, 2).reshape(B, T, D))
        gate, up = self.gate_up_proj(self.post_attention_layernorm(x)).chunk(2, dim=-1)
        return x + self.down_proj(F.silu(gate) * up)


class Phi3Mini(nn.Module):
    def __init__(self, vocab=128, d=32, heads=4, layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.rope = LongRoPE(d // heads)
        self.layers = nn.ModuleList(Phi3Block(d, heads) for _ in range(layers))
        self.norm = RMSNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        cos, sin = self.rope(input_ids.size(1), input_ids.device)
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h, cos, sin)
        return self.lm_head(self.norm(h))


def build():
    torch.manual_seed(0)
    model = Phi3Mini().eval()
    input_ids = torch.randint(0, 128, (2, 18))
    return model, (input_ids,)
