"""Correct: attention pooling with one learned query per item slot; a slot for an item a sequence lacks is dropped.

Each packed sequence holds up to `slots` items; pooling query s attends to the tokens of item
s. A sequence with fewer items leaves a slot that sees no key at all, and the fused kernel
gives that row zeros, not NaN. The model then keeps only the slots that hold an item
(`pooled[has_item]`), so the empty row never reaches the output.
Trap for a checker that judges every empty row of real queries: the row is dropped, which
only following the row to the output shows.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


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
        pooled = F.scaled_dot_product_attention(q, k, v, attn_mask=belongs[:, None])
        pooled = pooled.transpose(1, 2).flatten(2).flatten(0, 1)                          # (B * slots, width)
        has_item = (torch.arange(self.slots)[None, :] < items_per_sequence[:, None]).flatten()
        return pooled[has_item]


def build():
    torch.manual_seed(0)
    tokens = torch.randn(2, 8, 16)
    item_of_token = torch.tensor([[0, 0, 0, 0, 0, 1, 1, 1], [0, 0, 0, 0, 0, 0, 0, 0]])
    return SlotPooling().eval(), (tokens, item_of_token, torch.tensor([2, 1]))
