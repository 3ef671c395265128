"""Inverted boolean `attn_mask` for SDPA: True marks the padding, but SDPA reads True as "attend here".

For SDPA a boolean attn_mask is True where attention IS allowed (the opposite of
nn.MultiheadAttention's key_padding_mask). The student passes `input_ids == PAD` (True at
the trailing pad tokens), so every query attends only to the padding. Fix:
`attn_mask=(input_ids != PAD)[:, None, None, :]`.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("mask-polarity",)

PAD = 0


class TinyEncoder(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, input_ids):
        x = self.embed(input_ids)
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, d // self.n_heads).permute(2, 0, 3, 1, 4)
        pad_mask = (input_ids == PAD)[:, None, None, :]  # (B, 1, 1, T_k), True at padding
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask)  # BUG: mask-polarity
        return self.proj(out.transpose(1, 2).reshape(B, T, d))


def build():
    torch.manual_seed(0)
    model = TinyEncoder().eval()
    input_ids = torch.tensor([[7, 3, 12, 5, 0], [4, 9, 0, 0, 0]])  # trailing 0 = [PAD]
    return model, (input_ids,)
