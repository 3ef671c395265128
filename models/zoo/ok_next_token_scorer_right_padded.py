"""A causal LM scoring each next token, `log_softmax(logits[:, :-1]).gather(-1, ids[:, 1:, None])`, on a right-padded batch with a causal mask only: correct.

With right padding every pad stands after the text of its row, so the causal mask alone keeps
it out of every real position's logits: position t reads tokens 0..t, all real while t + 1
is a real target. The scores whose target is a pad are zeroed with `attention_mask[:, 1:]`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


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
        scores = scores.masked_fill(~causal, float("-inf"))
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
        ids[row, :n] = torch.randint(1, 30, (n,))
        attention_mask[row, :n] = 1
    return NextTokenScorer().eval(), (ids, attention_mask)
