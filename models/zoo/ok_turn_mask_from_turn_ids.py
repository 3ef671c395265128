"""A dialogue LM whose mask is built from turn ids, a sequence input of its own: tokens see their turn and the earlier ones, padded keys hidden: correct.

The mask is computed over the turn ids' positions, which the scores meet one by one when the mask
is applied: the same positions under another name, so padding told by the mask input is placed
on the tokens' outputs too. Twin of mask_axis_turn_mask_over_queries.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class TurnLM(nn.Module):
    def __init__(self, vocab: int = 50, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids, turns, attention_mask):
        B, T = ids.shape
        allowed = (turns[:, None, :] <= turns[:, :, None]) & attention_mask.bool()[:, None, :]
        x = self.embed(ids)
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        mixed = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed[:, None])
        return self.head(x + mixed.transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    turns = torch.tensor([[0, 0, 0, 1, 1, 2, 2, 2, 2, 3], [0, 0, 1, 1, 1, 1, 2, 2, 2, 2]])
    mask = torch.ones(2, 10, dtype=torch.long)
    mask[1, 7:] = 0
    return TurnLM().eval(), (torch.randint(1, 50, (2, 10)), turns, mask)
