"""Correct: attention with a key/value cache: the keys are the P cached positions then the T new ones (Tk = P + T).

Trap for a checker that needs square causal masks: new query t sits at position P + t, so it
sees every cached key and the new keys up to itself; the mask is bottom-right aligned.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


class CachedAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, hidden, past_key, past_value):  # past_*: (B, H, P, head_dim)
        B, T, _ = hidden.shape
        shape = (B, T, self.n_heads, self.head_dim)
        q = self.q_proj(hidden).view(shape).transpose(1, 2)
        k = torch.cat([past_key, self.k_proj(hidden).view(shape).transpose(1, 2)], dim=2)
        v = torch.cat([past_value, self.v_proj(hidden).view(shape).transpose(1, 2)], dim=2)
        past = past_key.shape[2]
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.head_dim)
        query_pos = torch.arange(past, past + T)[:, None]
        key_pos = torch.arange(past + T)[None, :]
        scores = scores.masked_fill(key_pos > query_pos, float("-inf"))
        weights = nn.functional.softmax(scores, dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(B, T, -1)
        return self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = CachedAttention().eval()
    hidden = torch.randn(2, 3, 16)
    past_key, past_value = torch.randn(2, 2, 4, 8), torch.randn(2, 2, 4, 8)
    return model, (hidden, past_key, past_value)
