"""A cached decoder whose caller runs the beam search: the forward is given each step's parent rows and reorders its KV cache by them (`index_select(0, beam_rows[s])`, as transformers' `_reorder_cache`): correct.

The batch holds B prompts times K beams. A beam continues from its parent's cache, so rows
read each other's history where `beam_rows` says, and only there: that is the caller's
choice, not a leak the model makes. The batch witness says it cannot judge such a model
instead of reporting a leak. Twin of batch_leak_beam_rows_without_offset.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class CachedDecoder(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2, max_len: int = 16):
        super().__init__()
        self.n_heads = n_heads
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

    def forward(self, prompt_ids, step_tokens, beam_rows):
        """prompt_ids: (B * K, P); step_tokens and beam_rows: (steps, B * K)."""
        logits, cache = self.step(prompt_ids, None, 0)
        out = []
        for s in range(step_tokens.shape[0]):
            cache = tuple(t.index_select(0, beam_rows[s]) for t in cache)
            logits, cache = self.step(step_tokens[s][:, None], cache, prompt_ids.shape[1] + s)
            out.append(logits[:, -1])
        return torch.stack(out, dim=1)


def build():
    torch.manual_seed(0)
    prompts, beams = 2, 3
    prompt_ids = torch.randint(0, 30, (prompts, 4)).repeat_interleave(beams, dim=0)
    step_tokens = torch.randint(0, 30, (3, prompts * beams))
    beam_rows = torch.tensor([[0, 1, 2, 3, 4, 5], [0, 0, 1, 5, 3, 3], [2, 1, 1, 4, 4, 5]])  # parents in their own prompt
    return CachedDecoder().eval(), (prompt_ids, step_tokens, beam_rows)
