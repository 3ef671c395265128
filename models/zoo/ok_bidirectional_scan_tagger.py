"""A bidirectional scan model that scores the vocabulary at every position (a masked-token model).

It predicts its own tokens and reads the positions one at a time, but both first to last and
last to first: it is bidirectional by design, so later tokens may move every output.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


def scan(decay, inputs, steps):
    state = torch.zeros_like(inputs[:, 0])
    outputs = {}
    for step in steps:
        state = decay[:, step] * state + inputs[:, step]
        outputs[step] = state
    return torch.stack([outputs[step] for step in sorted(outputs)], dim=1)


class BidirectionalScanMLM(nn.Module):
    def __init__(self, vocab: int = 24, dim: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.gate = nn.Linear(dim, dim)
        self.head = nn.Linear(2 * dim, vocab)

    def forward(self, ids):
        x = self.embed(ids)
        decay = torch.sigmoid(self.gate(x))
        length = ids.shape[1]
        ahead = scan(decay, x, range(length))
        behind = scan(decay, x, range(length - 1, -1, -1))
        return self.head(torch.cat([ahead, behind], dim=-1))


def build():
    torch.manual_seed(0)
    return BidirectionalScanMLM().eval(), (torch.randint(0, 24, (2, 8)),)
