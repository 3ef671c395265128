"""Dialogue-act tagger that also reports per-head attention maps for inspection.

nn.MultiheadAttention gets a 3-D float mask of shape (batch * heads, T, T): a per-head
speaker-turn bias laid out sample-major (row b * heads + h), and the key padding mask as a
separate boolean. need_weights=True with average_attn_weights=False returns the weights of
every head, (B, heads, T, T).
"""
import torch
import torch.nn as nn


class TurnBiasedTagger(nn.Module):
    def __init__(self, vocab=60, d=32, heads=4, n_tags=7):
        super().__init__()
        self.heads = heads
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(16, d)
        self.mha = nn.MultiheadAttention(d, heads, batch_first=True)
        self.same_turn_bonus = nn.Parameter(torch.linspace(-1.0, 1.0, heads))
        self.ln = nn.LayerNorm(d)
        self.tag = nn.Linear(d, n_tags)

    def forward(self, ids, speaker):
        B, T = ids.shape
        pad = ids == 0
        same = (speaker[:, :, None] == speaker[:, None, :]).float()                 # (B, T, T)
        bias = same[:, None] * self.same_turn_bonus[None, :, None, None]           # (B, H, T, T)
        attn_mask = bias.reshape(B * self.heads, T, T)
        x = self.emb(ids) + self.pos(torch.arange(T, device=ids.device))
        a, weights = self.mha(x, x, x, attn_mask=attn_mask, key_padding_mask=pad,
                              need_weights=True, average_attn_weights=False)
        x = self.ln(x + a)
        return self.tag(x), weights


def build():
    torch.manual_seed(0)
    model = TurnBiasedTagger().eval()
    ids = torch.randint(1, 60, (3, 10))
    ids[0, 7:] = 0
    ids[2, 4:] = 0
    speaker = torch.tensor([[0, 0, 1, 1, 1, 0, 0, 1, 1, 1],
                            [1, 1, 1, 0, 0, 1, 0, 0, 0, 1],
                            [0, 1, 1, 0, 1, 1, 1, 1, 1, 1]])
    return model, (ids, speaker)
