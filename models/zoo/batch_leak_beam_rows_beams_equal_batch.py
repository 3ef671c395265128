"""Beam search over a GRU cell whose hidden rows are picked by the chosen beams' numbers alone, with as many beams as prompts.

`best // V` is a beam within its own prompt (0..K-1), but the hidden state holds B * K rows:
every prompt's beams continue from rows of prompt 0, so the other prompts' scores depend on
prompt 0. With K == B the beams' axis has the batch's size, which says nothing about where its
entries come from: they are picked from the prompt's own candidates.
Fix: `rows = (best // V + torch.arange(B)[:, None] * K).flatten()`. Twin of ok_beam_search_row_offsets.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("batch-leak",)


class CellBeamSearch(nn.Module):
    def __init__(self, vocab: int = 24, d_model: int = 16, beams: int = 3, steps: int = 4):
        super().__init__()
        self.beams, self.steps = beams, steps
        self.embed = nn.Embedding(vocab, d_model)
        self.encode = nn.Linear(d_model, d_model)
        self.cell = nn.GRUCell(d_model, d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, prompt):
        B, K, V = prompt.shape[0], self.beams, self.head.out_features
        state = torch.tanh(self.encode(self.embed(prompt).mean(1)))   # (B, d)
        state = state.repeat_interleave(K, dim=0)                     # (B * K, d)
        token = prompt[:, -1].repeat_interleave(K)
        scores = torch.zeros(B, K)
        scores[:, 1:] = float("-inf")
        for _ in range(self.steps):
            state = self.cell(self.embed(token), state)
            logp = F.log_softmax(self.head(state), dim=-1)
            scores, best = (scores.unsqueeze(-1) + logp.view(B, K, V)).flatten(1).topk(K, dim=-1)
            rows = (best // V).flatten()
            state = state[rows]  # BUG: batch-leak
            token = (best % V).flatten()
        return scores


def build():
    torch.manual_seed(0)
    return CellBeamSearch().eval(), (torch.randint(0, 24, (3, 6)),)
