"""A state-space language model (no attention) whose short convolution is centred, not causal.

The recurrence reads the positions one at a time, first to last, so the model is built to be
causal; its depthwise convolution pads both sides (`padding=kernel // 2`) and keeps the first
T outputs, so each position still reads the next token. Fix: `padding=kernel - 1`.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("causal-leak",)


def scan(decay, inputs):
    state = torch.zeros_like(inputs[:, 0])
    outputs = []
    for step in range(inputs.shape[1]):
        state = decay[:, step] * state + inputs[:, step]
        outputs.append(state)
    return torch.stack(outputs, dim=1)


class GatedScanLM(nn.Module):
    def __init__(self, vocab: int = 24, dim: int = 16, kernel: int = 4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.norm = nn.LayerNorm(dim)
        self.inner = nn.Linear(dim, 2 * dim)
        self.conv = nn.Conv1d(dim, dim, kernel, groups=dim, padding=kernel // 2)
        self.gate = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        x = self.embed(ids)
        length = ids.shape[1]
        u, z = self.inner(self.norm(x)).chunk(2, dim=-1)
        u = F.silu(self.conv(u.transpose(1, 2))[..., :length].transpose(1, 2))  # BUG: causal-leak
        decay = torch.sigmoid(self.gate(u))
        y = scan(decay, (1 - decay) * u)
        return self.head(x + self.out(y * F.silu(z)))


def build():
    torch.manual_seed(0)
    return GatedScanLM().eval(), (torch.randint(0, 24, (2, 10)),)
