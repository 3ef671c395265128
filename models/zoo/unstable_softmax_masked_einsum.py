"""Hand-written masked softmax in einsum style: `scores.exp()` after a -inf padding fill, no max subtracted.

The -inf fill is right (exp(-inf) = 0 for the padded keys), but the remaining scores are
exponentiated as they are: a large score overflows to inf and the row becomes NaN. The
stable form subtracts the row maximum over the visible keys before `exp`:
`scores - scores.amax(dim=-1, keepdim=True)`.
"""


import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("unstable-softmax",)


class MaskedEinsumAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.to_q = nn.Linear(d_model, d_model, bias=False)
        self.to_kv = nn.Linear(d_model, 2 * d_model, bias=False)
        self.to_out = nn.Linear(d_model, d_model)

    def forward(self, x, key_padding_mask):  # key_padding_mask: (B, T), True = pad
        B, T, d = x.shape
        H, dk = self.n_heads, self.d_k
        q = self.to_q(x).view(B, T, H, dk)
        k, v = self.to_kv(x).view(B, T, 2, H, dk).unbind(dim=2)
        scores = torch.einsum("bihd,bjhd->bhij", q, k) * dk ** -0.5
        scores = scores.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        num = scores.exp()  # BUG: unstable-softmax
        attn = num / num.sum(dim=-1, keepdim=True)
        out = torch.einsum("bhij,bjhd->bihd", attn, v).reshape(B, T, d)
        return self.to_out(out)


def build():
    torch.manual_seed(0)
    model = MaskedEinsumAttention().eval()
    x = torch.randn(2, 6, 16)
    key_padding_mask = torch.tensor([[False] * 6, [False, False, False, False, True, True]])
    return model, (x, key_padding_mask)
