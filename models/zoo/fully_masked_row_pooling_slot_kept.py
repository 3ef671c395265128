"""Attention pooling whose slot for a missing item sees no key, and whose output keeps that slot anyway.

The second sequence holds one item, so its second pooling query sees no key: the fused
kernel returns a row of zeros (an eager softmax, NaN) and the model hands it on as if it
pooled an item. Fix: keep only the slots that hold an item (`pooled[has_item]`), or give
each slot a key it may always read.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("fully-masked-row",)


class SlotPooling(nn.Module):
    def __init__(self, width: int = 16, heads: int = 2, slots: int = 2):
        super().__init__()
        self.heads, self.slots = heads, slots
        self.slot_queries = nn.Parameter(torch.randn(slots, width))
        self.to_q = nn.Linear(width, width)
        self.to_kv = nn.Linear(width, 2 * width)

    def forward(self, tokens, item_of_token, items_per_sequence):
        batch, length, width = tokens.shape
        def heads(t):
            return t.unflatten(-1, (self.heads, -1)).transpose(1, 2)
        q = heads(self.to_q(self.slot_queries).expand(batch, -1, -1))
        k, v = map(heads, self.to_kv(tokens).chunk(2, dim=-1))
        belongs = item_of_token[:, None, :] == torch.arange(self.slots)[None, :, None]   # (B, slots, T)
        pooled = F.scaled_dot_product_attention(q, k, v, attn_mask=belongs[:, None])  # BUG: fully-masked-row
        pooled = pooled.transpose(1, 2).flatten(2).flatten(0, 1)                          # (B * slots, width)
        return pooled


def build():
    torch.manual_seed(0)
    tokens = torch.randn(2, 8, 16)
    item_of_token = torch.tensor([[0, 0, 0, 0, 0, 1, 1, 1], [0, 0, 0, 0, 0, 0, 0, 0]])
    return SlotPooling().eval(), (tokens, item_of_token, torch.tensor([2, 1]))
