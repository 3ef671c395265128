"""Llama-style rotary embeddings through complex numbers (`view_as_complex(x.reshape(..., -1, 2)) * freqs_cis`): correct.

The pairs of features become complex numbers, rotated by `polar(1, t * inv_freq)`, and
come back with `view_as_real(...).flatten(3)`: every axis keeps its meaning, so the
attention's output adds to the residual over the same positions.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


def rotary_table(head_dim: int, length: int) -> torch.Tensor:
    inv_freq = 1.0 / (10000 ** (torch.arange(0, head_dim, 2).float() / head_dim))
    return torch.polar(torch.ones(length, head_dim // 2), torch.outer(torch.arange(length).float(), inv_freq))


def rotate(x: torch.Tensor, freqs_cis: torch.Tensor) -> torch.Tensor:
    pairs = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))  # (B, T, H, d/2)
    return torch.view_as_real(pairs * freqs_cis[None, :, None, :]).flatten(3).type_as(x)


class RotaryBlock(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, ids):
        x = self.embed(ids)
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.n_heads, -1) for t in self.qkv(x).chunk(3, dim=-1))
        freqs_cis = rotary_table(C // self.n_heads, T)
        q, k = rotate(q, freqs_cis), rotate(k, freqs_cis)
        y = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return x + self.out(y.transpose(1, 2).reshape(B, T, C))


def build():
    torch.manual_seed(0)
    model = RotaryBlock().eval()
    return model, (torch.randint(0, 30, (2, 7)),)
