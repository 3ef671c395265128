"""Causal decoder with interleaved (GPT-J style) rotary embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    t = torch.arange(end).float()
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    # xq, xk: (B, T, H, D); channels (2i, 2i + 1) form one complex number
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis[None, :, None, :]
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x, freqs_cis):
        B, T, _ = x.shape
        q = self.wq(x).view(B, T, self.n_heads, self.head_dim)
        k = self.wk(x).view(B, T, self.n_heads, self.head_dim)
        v = self.wv(x).view(B, T, self.n_heads, self.head_dim)
        q, k = apply_rotary_emb(q, k, freqs_cis)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.wo(out.transpose(1, 2).reshape(B, T, -1))


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ln = nn.LayerNorm(dim)
        self.attn = Attention(dim, n_heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, freqs_cis):
        # parallel attention + MLP, as in GPT-J
        h = self.ln(x)
        return x + self.attn(h, freqs_cis) + self.mlp(h)


class RotaryLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_len=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)
        self.register_buffer("freqs_cis", precompute_freqs_cis(dim // n_heads, max_len), persistent=False)

    def forward(self, tokens, start_pos=0):
        T = tokens.shape[1]
        freqs_cis = self.freqs_cis[start_pos : start_pos + T]
        h = self.embed(tokens)
        for blk in self.blocks:
            h = blk(h, freqs_cis)
        return self.head(self.norm(h))


def build():
    torch.manual_seed(0)
    model = RotaryLM().eval()
    tokens = torch.randint(0, 64, (2, 10))
    return model, (tokens,)
