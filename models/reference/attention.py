"""Scaled dot-product attention and multi-head attention, as the course writes them.

C = softmax(Q K^T / sqrt(d_k) + M) V, with the softmax over the KEY axis (the last axis of the
score table), one row per query. Every step is spelled out so that a student can put a
breakpoint between any two of them.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn


def _visible_keys(
    scores: Tensor, key_padding_mask: Tensor | None, causal: bool
) -> Tensor | None:
    """Bool table broadcastable to `scores` (..., T_q, T_k): True where query i may read key j.

    Returns None when nothing is masked. The padding mask is reshaped to (B, 1, ..., 1, T_k) so
    that it covers every head and every query of its sample: a mask that does not cover the
    whole m x H x T_q x T_k table is one of the course's named mistakes.
    """
    t_q, t_k = scores.shape[-2], scores.shape[-1]
    visible = None
    if key_padding_mask is not None:
        if scores.dim() < 3:
            raise ValueError(
                "key_padding_mask needs a batch axis: q must be (B, ..., T_q, d_k), "
                f"got a score table of shape {tuple(scores.shape)}"
            )
        batch = scores.shape[0]
        if key_padding_mask.dtype != torch.bool or tuple(key_padding_mask.shape) != (batch, t_k):
            raise ValueError(
                f"key_padding_mask must be a bool tensor of shape (B, T_k) = ({batch}, {t_k}) "
                f"with True = padding; got {key_padding_mask.dtype} {tuple(key_padding_mask.shape)}"
            )
        middle = (1,) * (scores.dim() - 2)  # head axes and the query axis
        visible = ~key_padding_mask.view(batch, *middle, t_k)
    if causal:
        # Query i reads keys j <= i (aligned at the top-left corner, as torch's is_causal).
        future = torch.ones(t_q, t_k, dtype=torch.bool, device=scores.device).triu(diagonal=1)
        visible = ~future if visible is None else visible & ~future
    return visible


def scaled_dot_product_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    key_padding_mask: Tensor | None = None,
    causal: bool = False,
) -> tuple[Tensor, Tensor]:
    """Masked, numerically stable attention; returns (output, weights).

    Shapes: q (..., T_q, d_k), k (..., T_k, d_k), v (..., T_k, d_v), with the same leading
    (batch, head, ...) axes; output (..., T_q, d_v); weights (..., T_q, T_k).

    key_padding_mask: bool (B, T_k), **True = padding**: that key is ignored by every query and
    every head of sample b. (torch.nn.functional.scaled_dot_product_attention uses the opposite
    convention for a bool attn_mask: True = may attend.) B is q's first axis.

    causal: query i reads keys j <= i only.

    Raises ValueError when some query has every key masked: its softmax would be 0 / 0 (NaN).
    """
    d_k = q.size(-1)
    if k.size(-1) != d_k:
        raise ValueError(f"queries and keys must have the same width d_k: {d_k} vs {k.size(-1)}")
    if k.size(-2) != v.size(-2):
        raise ValueError(
            f"keys and values must have the same number of rows T_k: {k.size(-2)} vs {v.size(-2)}"
        )

    # Divide by sqrt(d_k), the query/key width (not d): it brings the variance of q . k back to 1.
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)

    visible = _visible_keys(scores, key_padding_mask, causal)
    if visible is not None:
        empty_rows = ~visible.any(dim=-1).expand(scores.shape[:-1])
        if empty_rows.any():
            first = tuple(empty_rows.nonzero()[0].tolist())
            raise ValueError(
                f"query at index {first} (leading axes..., query) has every key masked: "
                "its softmax has nothing to normalize (NaN). Check that each sample has at "
                "least one unpadded key visible to every query."
            )
        # Fill forbidden scores with -inf BEFORE the softmax, so that exp gives exactly 0.
        scores = scores.masked_fill(~visible, float("-inf"))

    # Softmax over the key axis, by hand. Subtracting the row maximum (over the visible keys:
    # -inf never wins the max) keeps exp from overflowing and does not change the result, so
    # no gradient needs to flow through the shift.
    row_max = scores.amax(dim=-1, keepdim=True).detach()
    exp_scores = torch.exp(scores - row_max)
    weights = exp_scores / exp_scores.sum(dim=-1, keepdim=True)

    return weights @ v, weights


def loop_attention(q: Tensor, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
    """Single-head attention one query at a time (exercise 7's slow, obvious version).

    q (T_q, d_k), k (T_k, d_k), v (T_k, d_v). Each query row is scored against every key,
    normalized over the keys and used to average the values; the batched version must agree.
    """
    scale = math.sqrt(q.size(-1))
    outputs, weight_rows = [], []
    for q_i in q:
        scores_i = (k @ q_i) / scale  # (T_k,)
        exp_i = torch.exp(scores_i - scores_i.max())
        w_i = exp_i / exp_i.sum()
        weight_rows.append(w_i)
        outputs.append(w_i @ v)  # (d_v,)
    return torch.stack(outputs), torch.stack(weight_rows)


class MultiHeadAttention(nn.Module):
    """H heads of scaled dot-product attention with d_k = d_v = d_model / H.

    W_Q, W_K, W_V each map d_model -> d_model; the output is read as H blocks of d_h columns,
    block r being head r's projection W^(r). The concatenated heads go through W_O.
    Self-attention when x_kv is None; cross-attention (T_q != T_k allowed) otherwise.
    """

    def __init__(self, d_model: int, num_heads: int) -> None:
        super().__init__()
        if num_heads <= 0 or d_model % num_heads != 0:
            raise ValueError(
                f"d_model={d_model} is not divisible by num_heads={num_heads}: "
                "each head needs d_model / num_heads features"
            )
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_head = d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def split_heads(self, x: Tensor) -> Tensor:
        """(B, T, d_model) -> (B, H, T, d_h): the feature axis splits into (head, d_h)."""
        batch, length, _ = x.shape
        return x.view(batch, length, self.num_heads, self.d_head).transpose(1, 2)

    def merge_heads(self, x: Tensor) -> Tensor:
        """(B, H, T, d_h) -> (B, T, d_model): heads go back next to each other (Concat)."""
        batch, _, length, _ = x.shape
        return x.transpose(1, 2).reshape(batch, length, self.d_model)

    def forward(
        self,
        x_q: Tensor,
        x_kv: Tensor | None = None,
        key_padding_mask: Tensor | None = None,
        causal: bool = False,
    ) -> tuple[Tensor, Tensor]:
        """x_q (B, T_q, d), x_kv (B, T_k, d) -> output (B, T_q, d), weights (B, H, T_q, T_k)."""
        if x_kv is None:
            x_kv = x_q
        q = self.split_heads(self.w_q(x_q))
        k = self.split_heads(self.w_k(x_kv))
        v = self.split_heads(self.w_v(x_kv))
        context, weights = scaled_dot_product_attention(q, k, v, key_padding_mask, causal)
        return self.w_o(self.merge_heads(context)), weights
