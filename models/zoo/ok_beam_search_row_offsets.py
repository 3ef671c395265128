"""Beam search with a GRU language model whose hidden rows are reordered by `beam + arange(B)[:, None] * K` after each step: correct.

The batch holds B prompts times K beams, flattened to B * K rows (each prompt's beams
consecutive). After each step's top-K over an example's `K * V` candidates, the chosen beam
numbers (0..K-1, within the example) get the offset of their example's first row, so the
hidden states are gathered from that example's own rows only: no example reads another's.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class GRUBeamSearch(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, beams: int = 3, steps: int = 3):
        super().__init__()
        self.beams, self.steps = beams, steps
        self.embed = nn.Embedding(vocab, d_model)
        self.gru = nn.GRU(d_model, d_model, batch_first=True)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, prompt):
        B, K, V = prompt.shape[0], self.beams, self.head.out_features
        _, h = self.gru(self.embed(prompt[:, :-1]))              # h: (1, B, d); the last token is fed below
        h = h.repeat_interleave(K, dim=1)                        # (1, B * K, d)
        last = prompt[:, -1].repeat_interleave(K)                # (B * K,)
        beam_scores = torch.zeros(B, K)
        beam_scores[:, 1:] = -1e9                                # the K copies are one beam at the start
        tokens = torch.zeros(B, K, 0, dtype=torch.long)
        for _ in range(self.steps):
            out, h = self.gru(self.embed(last)[:, None], h)
            logprobs = F.log_softmax(self.head(out[:, 0]), dim=-1).view(B, K, V)
            candidates = (beam_scores[:, :, None] + logprobs).view(B, K * V)
            beam_scores, best = candidates.topk(K, dim=-1)
            beam, token = best // V, best % V
            rows = (beam + torch.arange(B)[:, None] * K).view(-1)  # flat row of each chosen beam
            h = h[:, rows]
            tokens = torch.cat([tokens.gather(1, beam[..., None].expand_as(tokens)), token[..., None]], dim=-1)
            last = token.view(-1)
        return beam_scores, tokens


def build():
    torch.manual_seed(0)
    model = GRUBeamSearch().eval()
    return model, (torch.randint(0, 20, (3, 5)),)
