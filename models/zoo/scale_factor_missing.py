"""No scaling at all: the raw q . k scores (variance d_k) go straight into the softmax.

Single-head bmm attention with d_k = 16. Without the 1/sqrt(d_k) factor the scores are
sqrt(d_k) = 4 times too large (standard deviation ~sqrt(d_k) for unit-variance q and k), so
the softmax saturates toward one-hot rows and its gradients vanish. There is no scaling line, so the marker sits on the
line that computes the scores. Fix: `torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d_k)`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("scale-factor",)


class UnscaledAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        scores = torch.bmm(q, k.transpose(1, 2))  # BUG: scale-factor
        weights = torch.softmax(scores, dim=-1)
        return torch.bmm(weights, v)


def build():
    torch.manual_seed(0)
    model = UnscaledAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
