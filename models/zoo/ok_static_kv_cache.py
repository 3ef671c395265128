"""A decoder that writes keys into a static KV cache in place (`k_cache[:, :, pos] = k`, gpt-fast style) and masks the future: correct.

The keys the scores read come back from a preallocated buffer, not from the projection;
query t keeps keys j <= t. Twin of causal_leak_static_kv_cache.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class CachedAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, max_len: int = 12):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.register_buffer("k_cache", torch.zeros(1, n_heads, max_len, self.d_head))
        self.register_buffer("v_cache", torch.zeros(1, n_heads, max_len, self.d_head))

    def forward(self, x, input_pos):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_heads, self.d_head).transpose(1, 2) for t in (q, k, v))
        self.k_cache[:, :, input_pos] = k
        self.v_cache[:, :, input_pos] = v
        keys, values = self.k_cache, self.v_cache
        visible = input_pos[:, None] >= torch.arange(keys.shape[2])[None, :]
        scores = q @ keys.transpose(-2, -1) / math.sqrt(self.d_head)
        scores = scores.masked_fill(~visible, float("-inf"))
        y = F.softmax(scores, dim=-1) @ values
        return self.proj(y.transpose(1, 2).reshape(B, T, C))


class TinyLM(nn.Module):
    def __init__(self, vocab: int = 50, d_model: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.attn = CachedAttention(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids, input_pos):
        x = self.embed(ids)
        return self.head(x + self.attn(x, input_pos))


def build():
    torch.manual_seed(0)
    model = TinyLM().eval()
    ids = torch.randint(0, 50, (1, 8))
    return model, (ids, torch.arange(8))
