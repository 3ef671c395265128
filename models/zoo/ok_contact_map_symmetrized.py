"""A protein language model's contact head (ESM style): each layer's attention maps, made symmetric with `maps + maps.transpose(-1, -2)`, then weighed per head into a contact score: correct.

Adding a table to its own transpose mixes its query and key positions on purpose: a contact
between residues i and j is one fact, whichever attended to which. Not the axis-mismatch
of two different tables lined up by accident.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class ContactModel(nn.Module):
    def __init__(self, vocab: int = 24, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.embed, self.pos = nn.Embedding(vocab, d_model), nn.Embedding(32, d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.contact = nn.Linear(n_heads, 1)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos(torch.arange(tokens.shape[1]))
        _, maps = self.attn(x, x, x, need_weights=True, average_attn_weights=False)  # (B, H, L, L)
        maps = maps + maps.transpose(-1, -2)
        return torch.sigmoid(self.contact(maps.permute(0, 2, 3, 1)).squeeze(-1))


def build():
    torch.manual_seed(0)
    return ContactModel().eval(), (torch.randint(0, 24, (3, 10)),)
