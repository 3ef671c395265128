"""Keep-mask built with `torch.triu` instead of `torch.tril`: each query sees itself and the whole FUTURE.

`keep = torch.triu(ones).bool()` is True for key >= query, and the scores are filled with
-inf where `keep` is False, so query t reads keys t..T-1 and none of its past: the causal
direction is reversed. Fix: `keep = torch.tril(torch.ones(T, T)).bool()`.
"""


import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-leak",)


class DecoderHead(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.key = nn.Linear(d_model, d_model, bias=False)
        self.query = nn.Linear(d_model, d_model, bias=False)
        self.value = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        k, q, v = self.key(x), self.query(x), self.value(x)
        wei = torch.bmm(q, k.transpose(1, 2)) * C ** -0.5
        keep = torch.triu(torch.ones(T, T)).bool()
        wei = torch.where(keep, wei, torch.full_like(wei, float("-inf")))  # BUG: causal-leak
        wei = torch.softmax(wei, dim=-1)
        return torch.bmm(wei, v)


def build():
    torch.manual_seed(0)
    model = DecoderHead().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
