"""Correct: learned memory key/value slots prepended to the keys (Tk = M + T) with a causal mask shifted by M.

Trap for a checker that needs square causal masks: every query sees all M memory slots and
the tokens up to itself, so the visible keys of query t are 0 .. M + t.
"""


import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


class MemoryAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, n_memory: int = 3):
        super().__init__()
        self.h, self.dk, self.m = n_heads, d_model // n_heads, n_memory
        self.to_q = nn.Linear(d_model, d_model, bias=False)
        self.to_kv = nn.Linear(d_model, 2 * d_model, bias=False)
        self.mem_k = nn.Parameter(torch.randn(n_heads, n_memory, d_model // n_heads))
        self.mem_v = nn.Parameter(torch.randn(n_heads, n_memory, d_model // n_heads))
        self.to_out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.to_q(x).view(B, T, self.h, self.dk).transpose(1, 2)
        k, v = self.to_kv(x).view(B, T, 2, self.h, self.dk).permute(2, 0, 3, 1, 4)
        k = torch.cat([self.mem_k.expand(B, -1, -1, -1), k], dim=2)  # (B, H, M + T, dk)
        v = torch.cat([self.mem_v.expand(B, -1, -1, -1), v], dim=2)
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * self.dk ** -0.5
        visible = torch.ones(T, self.m + T, dtype=torch.bool).tril(diagonal=self.m)
        dots = dots.masked_fill(~visible, float("-inf"))
        attn = dots.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.to_out(out.transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    model = MemoryAttention().eval()
    return model, (torch.randn(2, 5, 16),)
