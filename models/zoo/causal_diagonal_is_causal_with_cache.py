"""A decoder step over a KV cache that calls SDPA with `is_causal=True` while it has fewer queries than keys: torch's triangle is aligned at the top left, so the new queries cannot see their own keys (nor most of the cache).

With P cached keys and T new queries, query t is key P + t and must see keys 0 .. P + t.
`is_causal=True` builds `ones(T, P + T).tril()` instead: query t sees keys 0 .. t only.
Fix: `attn_mask=torch.ones(T, P + T, dtype=torch.bool).tril(P)`.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("causal-diagonal",)


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
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # BUG: causal-diagonal
        return y.transpose(1, 2).reshape(B, T, C)


def build():
    torch.manual_seed(0)
    model = CachedDecoder().eval()
    past = torch.randn(2, 2, 4, 8)
    return model, (torch.randn(2, 3, 16), past, past.clone())
