"""One beam-search step: the batch holds batch x beams rows, and the candidates of an example's beams are
viewed side by side, `(N, V) -> (N // beams, beams * V)`, to pick the best over its beams.

That view puts whole consecutive rows (one example's beams) together on purpose; it tears no sample.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class BeamStep(nn.Module):
    def __init__(self, vocab: int = 12, width: int = 16, beams: int = 3):
        super().__init__()
        self.beams = beams
        self.embed, self.head = nn.Embedding(vocab, width), nn.Linear(width, vocab)

    def forward(self, last_tokens, beam_scores):
        logprobs = F.log_softmax(self.head(self.embed(last_tokens)), dim=-1)
        scores = beam_scores[:, None] + logprobs
        rows, vocab = scores.shape
        return scores.view(rows // self.beams, self.beams * vocab)


def build():
    torch.manual_seed(0)
    return BeamStep().eval(), (torch.randint(0, 12, (6,)), -torch.rand(6))
