"""A causal LM scoring each next token on a LEFT-padded batch, with a causal mask only: the pads stand before the text, so every real token attends to them.

`log_softmax(logits[:, :-1]).gather(-1, ids[:, 1:, None])` scores each real token from the
tokens before it, but on a left-padded row "before it" includes the pads: the causal mask does
not hide them, and the scores move with what the padding holds (and with how long the other
texts of the batch are). Fix: hide the padded keys too (each pad query keeping itself, so
no row is empty), `keep = causal & (attention_mask.bool()[:, None, None, :] | torch.eye(T, dtype=torch.bool))`,
count positions from each row's first real token, and score only tokens that follow a real one
(`* attention_mask[:, :-1] * attention_mask[:, 1:]`).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("padding-leak",)


class NextTokenScorer(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2, max_len: int = 16):
        super().__init__()
        self.n_heads = n_heads
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab)

    def forward(self, ids, attention_mask):
        B, T = ids.shape
        x = self.tok(ids) + self.pos(torch.arange(T))
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        scores = scores.masked_fill(~causal, float("-inf"))  # BUG: padding-leak
        x = x + self.proj((scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, -1))
        logits = self.lm_head(x)
        token_logprobs = F.log_softmax(logits[:, :-1], dim=-1).gather(-1, ids[:, 1:, None]).squeeze(-1)
        return token_logprobs * attention_mask[:, 1:]


def build():
    torch.manual_seed(0)
    lengths, T = [9, 6, 4], 9
    ids = torch.zeros(3, T, dtype=torch.long)
    attention_mask = torch.zeros(3, T, dtype=torch.long)
    for row, n in enumerate(lengths):
        ids[row, T - n:] = torch.randint(1, 30, (n,))
        attention_mask[row, T - n:] = 1
    return NextTokenScorer().eval(), (ids, attention_mask)
