"""Unpadded (varlen) causal LM in the style of flash-attn's varlen interface.

All documents of a batch are concatenated into one stream of N tokens; `cu_seqlens` holds the
cumulative document boundaries [0, n1, n1+n2, ...]. Attention runs document by document.
Rotary phases are taken from the token's index in the stream: rotary scores depend only on
the offset between query and key, and keys never cross a document boundary, so restarting
the count for each document would not change anything.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rotary_tables(n, dim, base=10000.0):
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
    freqs = torch.outer(torch.arange(n).float(), inv_freq)
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


def apply_rotary(x, cos, sin):
    # x: (N, H, Dh); cos/sin: (N, Dh)
    return x * cos[:, None] + rotate_half(x) * sin[:, None]


class VarlenAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.Wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x, cu_seqlens, cos, sin):
        N, D = x.shape
        qkv = self.Wqkv(x).view(N, 3, self.heads, self.head_dim)
        q, k, v = qkv.unbind(dim=1)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        out = torch.empty_like(q)
        for i in range(cu_seqlens.numel() - 1):
            s, e = int(cu_seqlens[i]), int(cu_seqlens[i + 1])
            qi, ki, vi = (t[s:e].transpose(0, 1) for t in (q, k, v))  # (H, L, Dh)
            out[s:e] = F.scaled_dot_product_attention(qi, ki, vi, is_causal=True).transpose(0, 1)
        return self.out_proj(out.reshape(N, D))


class SwiGLU(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class VarlenLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2, max_tokens=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([nn.ModuleList([nn.RMSNorm(dim), VarlenAttention(dim, heads),
                                                    nn.RMSNorm(dim), SwiGLU(dim, 64)]) for _ in range(depth)])
        self.norm = nn.RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        cos, sin = rotary_tables(max_tokens, dim // heads)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, input_ids, cu_seqlens):
        N = input_ids.numel()
        cos, sin = self.cos[:N], self.sin[:N]
        x = self.embed(input_ids)
        for n1, attn, n2, mlp in self.layers:
            x = x + attn(n1(x), cu_seqlens, cos, sin)
            x = x + mlp(n2(x))
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(12)
    model = VarlenLM().eval()
    lengths = torch.tensor([5, 7, 4])
    cu_seqlens = F.pad(lengths.cumsum(0), (1, 0))
    input_ids = torch.randint(0, 64, (int(lengths.sum()),))
    return model, (input_ids, cu_seqlens)
