"""Target padding mask shaped (B, 1, T, 1) ANDed with the causal mask: it hides padded query rows, not padded keys.

The target mask of the annotated-Transformer recipe is `(tgt != pad).unsqueeze(-2) & subsequent`:
(B, 1, T) against (T, T), so the padding varies over the KEYS. Here the padding is unsqueezed
at the end, (B, 1, T, 1), so it varies over the QUERIES: padded queries lose their whole row
(all -inf: NaN weights, and NaN everywhere after weights @ V) while the real queries are
only protected from the padded keys by the causal part. Fix: `(tgt != pad)[:, None, None, :]`.
Secondary: the -inf rows make the output NaN -> ALSO = ("nan",).
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("mask-axis",)
ALSO: tuple[str, ...] = ("nan",)
PAD = 0


def make_trg_mask(trg: torch.Tensor) -> torch.Tensor:
    T = trg.size(1)
    pad_mask = (trg != PAD).unsqueeze(1).unsqueeze(3)  # (B, 1, T, 1)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    return pad_mask & causal  # (B, 1, T, T)


class DecoderSelfAttention(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, d_model // n_heads
        self.embedding = nn.Embedding(vocab, d_model)
        self.fc_q = nn.Linear(d_model, d_model)
        self.fc_k = nn.Linear(d_model, d_model)
        self.fc_v = nn.Linear(d_model, d_model)
        self.fc_o = nn.Linear(d_model, d_model)

    def forward(self, trg):
        trg_mask = make_trg_mask(trg)
        x = self.embedding(trg)
        B, T, d = x.shape
        Q = self.fc_q(x).view(B, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        K = self.fc_k(x).view(B, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        V = self.fc_v(x).view(B, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        energy = torch.matmul(Q, K.permute(0, 1, 3, 2)) / math.sqrt(self.head_dim)
        energy = energy.masked_fill(trg_mask == 0, float("-inf"))  # BUG: mask-axis
        attention = torch.softmax(energy, dim=-1)
        out = torch.matmul(attention, V).permute(0, 2, 1, 3).contiguous().view(B, T, d)
        return self.fc_o(out)


def build():
    torch.manual_seed(0)
    model = DecoderSelfAttention().eval()
    trg = torch.tensor([[2, 5, 9, 4, 7, 3], [6, 8, 3, PAD, PAD, PAD]])
    return model, (trg,)
