"""Sequence-first Bahdanau attention (as in PyTorch's seq2seq tutorial style) normalizing the (S, B) energies over the batch.

The energies are (S, B): one score per source position and sample. The context is the
weighted sum `(weights.unsqueeze(-1) * encoder_states).sum(0)` over the source positions, so
the weights must be normalized over dim 0; `softmax(dim=1)` normalizes across the samples.
Fix: `F.softmax(energy, dim=0)`.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("softmax-axis",)


class AttentionDecoder(nn.Module):
    def __init__(self, vocab: int = 24, width: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.encoder = nn.GRU(width, width)
        self.energy = nn.Linear(2 * width, width)
        self.v = nn.Parameter(torch.randn(width) * 0.3)
        self.cell = nn.GRUCell(2 * width, width)
        self.readout = nn.Linear(width, vocab)

    def attend(self, state, states):                           # (B, d), (S, B, d)
        paired = torch.cat([state.unsqueeze(0).expand(states.size(0), -1, -1), states], dim=-1)
        energy = torch.tanh(self.energy(paired)) @ self.v       # (S, B)
        weights = F.softmax(energy, dim=1)  # BUG: softmax-axis
        return (weights.unsqueeze(-1) * states).sum(0)          # (B, d)

    def forward(self, source, target):                          # (S, B), (T, B)
        states, last = self.encoder(self.embed(source))
        state, logits = last[0], []
        for step in range(target.size(0)):
            context = self.attend(state, states)
            state = self.cell(torch.cat([self.embed(target[step]), context], dim=-1), state)
            logits.append(self.readout(state))
        return torch.stack(logits)


def build():
    torch.manual_seed(0)
    return AttentionDecoder().eval(), (torch.randint(0, 24, (6, 3)), torch.randint(0, 24, (3, 3)))
