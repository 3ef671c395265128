"""The checks follow the general rule, not the zoo's spelling: other ways students write the same thing."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import tracer


class Heads(nn.Module):
    """Correct projections and head split; subclasses write the part under test."""

    def __init__(self, d: int = 16, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def project(self, x):
        B, T, d = x.shape
        split = lambda t: t.view(B, T, self.heads, d // self.heads).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        return q, k, v, q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))


def causal(T: int, diagonal: int = 1) -> torch.Tensor:
    return torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal)


class SetItemCausal(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        scores[causal(x.size(1)).expand_as(scores)] = float("-inf")
        return scores.softmax(-1) @ v


class SetItemZero(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        scores[causal(x.size(1)).expand_as(scores)] = 0
        return scores.softmax(-1) @ v


class SetItemDiagonal(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        scores[causal(x.size(1), 0).expand_as(scores)] = -1e9
        return scores.softmax(-1) @ v


class SetItemAfterSoftmax(Heads):
    def forward(self, x, mask):
        q, k, v, scores = self.project(x)
        weights = scores.softmax(-1)
        weights[(mask[:, None, None, :] == 0).expand_as(weights)] = 0
        return weights @ v


class ImplicitSoftmaxDim(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        return nn.functional.softmax(scores) @ v  # legacy implicit dim: 1 on a 4-d table (heads)


class TinyNegativeFill(Heads):
    def forward(self, x, mask):
        q, k, v, scores = self.project(x)
        return scores.masked_fill(mask[:, None, None, :] == 0, -1e-9).softmax(-1) @ v


class LearnedTemperature(Heads):
    def __init__(self):
        super().__init__()
        self.temperature = nn.Parameter(torch.tensor(1.0))

    def forward(self, x):
        q, k, v, _ = self.project(x)
        return (q @ k.transpose(-2, -1) * self.temperature).softmax(-1) @ v


class QuerySoftmaxViaTranspose(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        weights = scores.transpose(-2, -1).softmax(-1).transpose(-2, -1)  # normalized over queries
        return weights @ v



# ---------------------------------------------------------------- correct code in other styles
B, T, d, H = 2, 6, 16, 4  # the sizes the classes below are written for
class GQA(nn.Module):
    """Grouped-query attention: 2 key/value heads repeated for 4 query heads."""
    def __init__(s):
        super().__init__(); s.q = nn.Linear(d, d); s.kv = nn.Linear(d, 2 * d // 2)
    def forward(s, x):
        q = s.q(x).view(B, T, H, d // H).transpose(1, 2)
        k, v = s.kv(x).view(B, T, 2, 2, d // H).permute(2, 0, 3, 1, 4)
        k = k.repeat_interleave(2, dim=1); v = v.repeat_interleave(2, dim=1)
        att = (q @ k.transpose(-2, -1)) * (d // H) ** -0.5
        att = att.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf")).softmax(-1)
        return (att @ v).transpose(1, 2).reshape(B, T, d)
class Baddbmm(nn.Module):
    def __init__(s):
        super().__init__(); s.qkv = nn.Linear(d, 3 * d)
    def forward(s, x, pad):
        q, k, v = s.qkv(x).split(d, dim=-1)
        f = lambda t: t.reshape(B, T, H, d // H).transpose(1, 2).reshape(B * H, T, d // H)
        q, k, v = f(q), f(k), f(v)
        bias = torch.zeros(B, 1, T).masked_fill(pad[:, None, :] == 0, float("-inf")).repeat_interleave(H, 0)
        w = torch.baddbmm(bias, q, k.transpose(1, 2), alpha=1 / math.sqrt(d // H)).softmax(-1)
        return torch.bmm(w, v).view(B, H, T, d // H).transpose(1, 2).reshape(B, T, d)
class SDPAFloatMask(nn.Module):
    def __init__(s):
        super().__init__(); s.qkv = nn.Linear(d, 3 * d)
    def forward(s, x):
        q, k, v = (t.view(B, T, H, d // H).transpose(1, 2) for t in s.qkv(x).chunk(3, -1))
        mask = torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask).transpose(1, 2).flatten(2)
class RawParams(nn.Module):
    def __init__(s):
        super().__init__(); s.Wq = nn.Parameter(torch.randn(d, d) / 4); s.Wk = nn.Parameter(torch.randn(d, d) / 4); s.Wv = nn.Parameter(torch.randn(d, d) / 4)
    def forward(s, x):
        q, k, v = x @ s.Wq, x @ s.Wk, x @ s.Wv
        return torch.softmax(q @ k.mT / math.sqrt(d), dim=-1) @ v
class Alibi(nn.Module):
    def __init__(s):
        super().__init__(); s.qkv = nn.Linear(d, 3 * d)
    def forward(s, x):
        q, k, v = (t.view(B, T, H, d // H).transpose(1, 2) for t in s.qkv(x).chunk(3, -1))
        pos = torch.arange(T)
        slopes = torch.tensor([2 ** -(i + 1) for i in range(H)]).view(H, 1, 1)
        bias = -slopes * (pos[None, :] - pos[:, None]).abs()
        att = (q @ k.transpose(-1, -2) / math.sqrt(d // H) + bias).softmax(-1)
        return (att @ v).transpose(1, 2).reshape(B, T, d)
class Window(nn.Module):
    def __init__(s):
        super().__init__(); s.qkv = nn.Linear(d, 3 * d)
    def forward(s, x):
        q, k, v = (t.view(B, T, H, d // H).transpose(1, 2) for t in s.qkv(x).chunk(3, -1))
        i = torch.arange(T)
        allowed = (i[None, :] <= i[:, None]) & (i[:, None] - i[None, :] < 3)
        att = (q @ k.transpose(-1, -2) / math.sqrt(d // H)).masked_fill(~allowed, float("-inf")).softmax(-1)
        return (att @ v).transpose(1, 2).reshape(B, T, d)
class CLSClassifier(nn.Module):
    def __init__(s):
        super().__init__(); s.emb = nn.Embedding(50, d); s.pos = nn.Embedding(32, d); s.enc = nn.TransformerEncoderLayer(d, H, 32, batch_first=True); s.head = nn.Linear(d, 3)
    def forward(s, ids):
        x = s.emb(ids) + s.pos(torch.arange(ids.size(1)))
        return s.head(s.enc(x, src_key_padding_mask=ids == 0)[:, 0]).softmax(-1)

X = torch.randn(2, 5, 16)
PADDING = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
X6 = torch.randn(B, T, d)
PADDING6 = torch.tensor([[1] * 6, [1] * 4 + [0] * 2])
IDS6 = torch.randint(1, 50, (B, T)).masked_fill(PADDING6 == 0, 0)
CASES = [
    (SetItemCausal, (X,), set()),
    (SetItemZero, (X,), {"mask-value"}),
    (SetItemDiagonal, (X,), {"causal-diagonal"}),  # its empty row 0 is a consequence under it
    (SetItemAfterSoftmax, (X, PADDING), {"mask-after-softmax"}),
    (ImplicitSoftmaxDim, (X,), {"softmax-axis"}),
    (TinyNegativeFill, (X, PADDING), {"mask-value"}),
    (LearnedTemperature, (X,), set()),
    (QuerySoftmaxViaTranspose, (X,), {"softmax-axis"}),
    (GQA, (X6,), set()),
    (Baddbmm, (X6, PADDING6), set()),
    (SDPAFloatMask, (X6,), set()),
    (RawParams, (X6,), set()),
    (Alibi, (X6,), set()),
    (Window, (X6,), set()),
    (CLSClassifier, (IDS6,), set()),
]


@pytest.mark.parametrize("model, args, expected", CASES, ids=[case[0].__name__ for case in CASES])
def test_style(model, args, expected):
    torch.manual_seed(0)
    report = tracer.check(model().eval(), *args)
    assert {f.code for f in report.findings if f.severity in ("error", "warning")} == expected


class AddedBooleanMask(Heads):
    """A 0/1 mask added to the scores as it is: masked keys get +1."""

    def forward(self, x):
        q, k, v, scores = self.project(x)
        return (scores + causal(x.size(1)).float()).softmax(-1) @ v


def test_boolean_mask_added_as_it_is_does_not_hide():
    torch.manual_seed(0)
    report = tracer.check(AddedBooleanMask().eval(), X)
    assert {f.code for f in report.findings} == {"mask-value"}
