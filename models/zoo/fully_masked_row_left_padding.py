"""Left-padded batch with a causal mask built on position ids: the first real queries see nothing.

With left padding the real tokens of a short sequence start at index n_pad. The student
builds the causal mask by comparing the KEY INDEX with the QUERY'S POSITION ID
(`attention_mask.cumsum(-1) - 1`, which restarts at 0 on the first real token). The first
real query (position id 0) may then read only key 0, which is padding, so after the key
padding mask its whole row is masked (-1e9 everywhere, uniform weights over padding); the
second real query likewise. Fix: compare indices with indices (`k <= q`), or position ids
with position ids. Secondary: the shift also hides each real query's own key in the padded
sequence -> ALSO = ("causal-diagonal",).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("fully-masked-row",)
ALSO: tuple[str, ...] = ("causal-diagonal",)


class LeftPaddedDecoder(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, d = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d_k)
        position_ids = attention_mask.cumsum(-1) - 1  # (B, T): -1, -1, 0, 1, 2 when left-padded
        key_index = torch.arange(T)
        causal = key_index[None, None, :] <= position_ids[:, :, None]  # (B, T_q, T_k)
        keep = causal & attention_mask[:, None, :].bool()
        scores = scores.masked_fill(~keep[:, None], -1e9)  # BUG: fully-masked-row
        weights = torch.softmax(scores, dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(B, T, d)
        return self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = LeftPaddedDecoder().eval()
    x = torch.randn(2, 5, 16)
    attention_mask = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]])  # first row left-padded
    return model, (x,), {"attention_mask": attention_mask}
