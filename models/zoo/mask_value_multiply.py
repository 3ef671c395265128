"""Padding mask multiplied (0/1) into the scores before the softmax: `scores * keep`.

Multiplying a score by 0 makes it 0, an ordinary score, so exp(0) = 1 still gives the [PAD]
keys a weight comparable to the real ones (and a real key with a negative score now counts
less than a pad). Fix: add -inf (or a very negative number) at the padded keys instead of
multiplying.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-value",)


class Attention(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)

    def forward(self, input_ids):
        x = self.embed(input_ids)  # (B, T, d)
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(q.size(-1))
        keep = (input_ids != 0).float().unsqueeze(1)  # (B, 1, T_k), 1 = real token
        scores = scores * keep  # BUG: mask-value
        weights = torch.softmax(scores, dim=-1)
        return torch.bmm(weights, v)


def build():
    torch.manual_seed(0)
    model = Attention().eval()
    input_ids = torch.tensor([[5, 3, 9, 2, 7], [4, 8, 6, 0, 0]])  # 0 = [PAD], trailing
    return model, (input_ids,)
