"""Attention written with einops, as much public code is: findings land on the user's own line."""

from __future__ import annotations

import inspect

import pytest
import torch
from torch import nn

from support import run, serious

einops = pytest.importorskip("einops")
rearrange = einops.rearrange


class EinopsAttention(nn.Module):
    def __init__(self, dim: int = 16, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in (q, k, v))
        sim = torch.einsum("b h i d, b h j d -> b h i j", q, k) * q.shape[-1] ** -0.5
        out = torch.einsum("b h i j, b h j d -> b h i d", sim.softmax(dim=-1), v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


SPLIT_LINE = inspect.getsourcelines(EinopsAttention.forward)[1] + 2


def test_correct_einops_attention_is_clean():
    assert serious(run(EinopsAttention(), (torch.randn(2, 6, 16),)), ("error", "warning")) == []


def test_a_rearrange_that_fails_is_reported_at_the_users_line_not_inside_einops():
    found = serious(run(EinopsAttention(heads=3), (torch.randn(2, 6, 16),)))  # 16 features do not split in 3
    assert [(f["code"], f["file"], f["line"]) for f in found] == [("shape-error", __file__, SPLIT_LINE)]
