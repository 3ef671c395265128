"""Correct: a tiny causal LM that ends with a softmax over the VOCABULARY (next-token probabilities).

Trap for a checker that treats every softmax as attention: the last softmax normalizes
over the 24 vocabulary logits and is never multiplied with values; the attention inside
is a correct causal one.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class TinyLM(nn.Module):
    def __init__(self, vocab: int = 24, d_model: int = 16, n_heads: int = 2, max_len: int = 32):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab)

    def forward(self, input_ids):
        B, T = input_ids.shape
        x = self.tok(input_ids) + self.pos(torch.arange(T))[None]
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        weights = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        x = x + self.proj((weights @ v).transpose(1, 2).reshape(B, T, -1))
        logits = self.lm_head(self.ln_f(x))  # (B, T, vocab)
        return torch.softmax(logits, dim=-1)  # next-token probabilities


def build():
    torch.manual_seed(0)
    model = TinyLM().eval()
    input_ids = torch.tensor([[1, 5, 7, 2, 9], [3, 3, 8, 4, 6]])
    return model, (input_ids,)
