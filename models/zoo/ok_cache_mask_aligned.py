"""A decoder step over a KV cache with an explicit mask aligned at the cached keys (query t sees keys 0 .. P + t): correct.

Twin of causal_diagonal_is_causal_with_cache, which passes `is_causal=True` instead.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class CachedDecoder(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, past_k, past_v):
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)
        cached = k.shape[2] - T
        visible = torch.ones(T, k.shape[2], dtype=torch.bool).tril(cached)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=visible)
        return y.transpose(1, 2).reshape(B, T, C)


def build():
    torch.manual_seed(0)
    model = CachedDecoder().eval()
    past = torch.randn(2, 2, 4, 8)
    return model, (torch.randn(2, 3, 16), past, past.clone())
