"""Decoder-only prefix LM (as in T5's prefix-LM objective / PaLI / UniLM).

Each row is `prefix ++ target`. Prefix tokens see the whole prefix (bidirectional), target
tokens see the prefix and the targets up to themselves (causal). Prefix lengths differ per
example and are given as a (B,) tensor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def prefix_lm_mask(prefix_len, T):
    """Boolean (B, T, T) mask, True where query i may attend key j."""
    i = torch.arange(T, device=prefix_len.device)[:, None]
    j = torch.arange(T, device=prefix_len.device)[None, :]
    causal = (j <= i)[None]
    bidirectional = (i < prefix_len[:, None, None])
    return causal | bidirectional


class Attention(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)

    def forward(self, x, mask):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, -1).transpose(1, 2)
        k = k.view(B, T, self.n_head, -1).transpose(1, 2)
        v = v.view(B, T, self.n_head, -1).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None])
        return self.c_proj(y.transpose(1, 2).reshape(B, T, C))


class Layer(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = Attention(d, n_head)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        x = x + self.attn(self.ln_1(x), mask)
        return x + self.mlp(self.ln_2(x))


class PrefixLM(nn.Module):
    def __init__(self, vocab=64, d=32, n_head=4, n_layer=2, block_size=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(block_size, d)
        self.h = nn.ModuleList([Layer(d, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx, prefix_len):
        B, T = idx.shape
        mask = prefix_lm_mask(prefix_len, T)
        x = self.wte(idx) + self.wpe(torch.arange(T, device=idx.device))
        for layer in self.h:
            x = layer(x, mask)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(7)
    model = PrefixLM().eval()
    idx = torch.randint(0, 64, (2, 12))
    prefix_len = torch.tensor([5, 3])
    return model, (idx, prefix_len)
