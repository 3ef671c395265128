"""Hand-written softmax normalizes over the query axis: einsum scores "bqk", exp / sum over dim=1.

The student writes a numerically stable softmax by hand (max subtracted, exp, divide by the
sum) but takes the max and the sum over dim=1, which is the QUERY axis of the "bqk" table.
Each key's column sums to 1 instead of each query's row, and the einsum "bqk,bkd->bqd" then
sums those weights against the values over k. Fix: reduce over dim=-1 (the k axis).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("softmax-axis",)


class SingleHeadAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.d_k = d_model
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        scores = torch.einsum("bqd,bkd->bqk", q, k) / math.sqrt(self.d_k)
        e = torch.exp(scores - scores.amax(dim=1, keepdim=True))
        weights = e / e.sum(dim=1, keepdim=True)  # BUG: softmax-axis
        return torch.einsum("bqk,bkd->bqd", weights, v)


def build():
    torch.manual_seed(0)
    model = SingleHeadAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
