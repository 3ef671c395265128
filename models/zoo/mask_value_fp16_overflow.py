"""float32's minimum used as the mask value on float16 scores: it overflows to -inf and 0 * -inf gives NaN.

The model runs in float16. `torch.finfo(torch.float32).min` (-3.4e38) cast to float16 is
-inf, and the HF-style additive mask `(1 - attention_mask) * min_value` then computes
0 * -inf = NaN at every KEPT key (and -inf at the padded ones). Adding that bias to the
scores makes the scores, the weights and the output NaN. Fix: take the minimum of the
scores' own dtype, `torch.finfo(scores.dtype).min`, or use `masked_fill(pad, float("-inf"))`.
Secondary: the NaN itself (first produced by the multiplication on the line above the
marked one) -> ALSO = ("nan",).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-value",)
ALSO: tuple[str, ...] = ("nan",)


class HalfAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)

    def heads(self, t):
        B, T, _ = t.shape
        return t.view(B, T, self.n_heads, self.d_k).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        B, T, d = hidden_states.shape
        q = self.heads(self.query(hidden_states))
        k = self.heads(self.key(hidden_states))
        v = self.heads(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d_k)
        min_value = torch.tensor(torch.finfo(torch.float32).min, dtype=scores.dtype)  # -inf in fp16
        bias = (1.0 - attention_mask[:, None, None, :].to(scores.dtype)) * min_value
        scores = scores + bias  # BUG: mask-value
        probs = nn.functional.softmax(scores, dim=-1)
        context = torch.matmul(probs, v).permute(0, 2, 1, 3).reshape(B, T, d)
        return context


def build():
    torch.manual_seed(0)
    model = HalfAttention().half().eval()
    x = torch.randn(2, 5, 16).half()
    attention_mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    return model, (x, attention_mask)
