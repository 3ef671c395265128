"""A cached decoder that runs its own beam search and reorders the KV cache by the chosen beams' numbers without their prompt's row offset.

`best // V` is a beam within its own prompt (0..K-1), but the cache holds B * K rows: every
prompt's beams continue from rows of prompt 0, so the other prompts' scores depend on prompt 0.
Fix: `rows = (best // V + torch.arange(B)[:, None] * K).view(-1)`. Twin of
ok_beam_cache_reordered_by_given_rows.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("batch-leak",)


class BeamDecoder(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2, max_len: int = 16, beams: int = 3):
        super().__init__()
        self.n_heads, self.beams = n_heads, beams
        self.embed, self.pos = nn.Embedding(vocab, d_model), nn.Embedding(max_len, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.head = nn.Linear(d_model, vocab)

    def step(self, ids, cache, start):
        B, T = ids.shape
        x = self.embed(ids) + self.pos(torch.arange(start, start + T))
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        if cache is not None:
            k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None)
        return self.head(x + self.proj(out.transpose(1, 2).reshape(B, T, -1))), (k, v)

    def forward(self, prompt_ids, steps: int = 3):
        B, K = prompt_ids.shape[0], self.beams
        logits, cache = self.step(prompt_ids.repeat_interleave(K, dim=0), None, 0)
        scores = torch.zeros(B, K)
        scores[:, 1:] = -1e9  # the K copies start as one beam
        for s in range(steps):
            logp = F.log_softmax(logits[:, -1], dim=-1)
            V = logp.shape[-1]
            scores, best = (scores[..., None] + logp.view(B, K, V)).view(B, K * V).topk(K, dim=-1)
            rows = (best // V).view(-1)
            cache = tuple(t.index_select(0, rows) for t in cache)  # BUG: batch-leak
            logits, cache = self.step((best % V).view(-1, 1), cache, prompt_ids.shape[1] + s)
        return scores


def build():
    torch.manual_seed(0)
    return BeamDecoder().eval(), (torch.randint(0, 30, (2, 4)),)
