"""Additive (Bahdanau) attention whose softmax runs over dim 0 of the (B, S) scores: the batch, not the source positions.

Each source position's weights are shared out across the samples of the batch, and every
sample's context mixes its states with weights meant for the others. Fix: `dim=1` (or -1).
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("softmax-axis",)


class AdditiveAttention(nn.Module):
    def __init__(self, width: int = 16):
        super().__init__()
        self.from_state = nn.Linear(width, width, bias=False)
        self.from_memory = nn.Linear(width, width, bias=False)
        self.energy = nn.Linear(width, 1, bias=False)

    def forward(self, state, memory, valid):                   # state (B, d), memory (B, S, d), valid (B, S)
        energy = torch.tanh(self.from_state(state).unsqueeze(1) + self.from_memory(memory))
        scores = self.energy(energy).squeeze(2)                 # (B, S)
        scores = scores.masked_fill(valid == 0, -1e9)
        weights = torch.softmax(scores, dim=0)  # BUG: softmax-axis
        return torch.bmm(weights.unsqueeze(1), memory).squeeze(1)


class Seq2Seq(nn.Module):
    def __init__(self, vocab: int = 20, width: int = 16, steps: int = 3):
        super().__init__()
        self.steps = steps
        self.embed = nn.Embedding(vocab, width)
        self.encoder = nn.GRU(width, width, batch_first=True)
        self.attend = AdditiveAttention(width)
        self.decoder = nn.GRUCell(2 * width, width)
        self.readout = nn.Linear(width, vocab)

    def forward(self, source, valid):
        memory, last = self.encoder(self.embed(source))
        state, token = last[0], torch.zeros_like(last[0])
        logits = []
        for _ in range(self.steps):
            context = self.attend(state, memory, valid)
            state = self.decoder(torch.cat([token, context], dim=-1), state)
            logits.append(self.readout(state))
            token = context
        return torch.stack(logits, dim=1)


def build():
    torch.manual_seed(0)
    source = torch.randint(1, 20, (3, 7))
    valid = torch.tensor([[1] * 7, [1] * 5 + [0] * 2, [1] * 4 + [0] * 3])
    return Seq2Seq().eval(), (source * valid, valid)
