"""A dialogue LM whose mask is built from turn ids, with the padding mask laid along the queries instead of the keys.

`attention_mask[:, :, None]` varies along the queries: the padded keys stay visible to every real
query, and the padded queries' rows are emptied instead. Fix: `attention_mask.bool()[:, None, :]`.
Twin of ok_turn_mask_from_turn_ids.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("mask-axis",)


class TurnLM(nn.Module):
    def __init__(self, vocab: int = 50, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids, turns, attention_mask):
        B, T = ids.shape
        allowed = (turns[:, None, :] <= turns[:, :, None]) & attention_mask.bool()[:, :, None]
        x = self.embed(ids)
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        mixed = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed[:, None])  # BUG: mask-axis
        return self.head(x + mixed.transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    turns = torch.tensor([[0, 0, 0, 1, 1, 2, 2, 2, 2, 3], [0, 0, 1, 1, 1, 1, 2, 2, 2, 2]])
    mask = torch.ones(2, 10, dtype=torch.long)
    mask[1, 7:] = 0
    return TurnLM().eval(), (torch.randint(1, 50, (2, 10)), turns, mask)
