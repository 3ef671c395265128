"""Sliding-window (local) self-attention, computed two ways, for exercise 10.

Query t reads keys t-w+1 .. t only: itself and the w-1 positions before it. Position t can
therefore relate x[t] to x[t-D] only when D <= w-1; with L stacked layers information can
hop L times, so the farthest position that can reach t is L(w-1) back.

Both methods give the same weights on the visible keys; they differ in what they compute:

- "chunked": queries in blocks of w read their own block and the block before (2w keys),
  and a mask hides the keys outside each query's window. The score table is
  m x H x T x 2w: it grows linearly with T, which is the point of local attention.
- "masked": the full m x H x T x T table, every key outside the window filled with -inf
  before the softmax. Often how a window is first written: it changes what is visible,
  not what is computed.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor

from ..reference import MultiHeadAttention, TransformerClassifier
from .tasks import RepeatTask

METHODS = ("chunked", "masked")


def _softmax_over_keys(scores: Tensor, hidden: Tensor) -> Tensor:
    """The reference attention's stable softmax (same ops), after hiding keys with -inf.

    Using the same op sequence as `models.reference` keeps the op counts of global and local
    models comparable: the differences come from the windowing, not from the softmax.
    """
    scores = scores.masked_fill(hidden, float("-inf"))
    row_max = scores.amax(dim=-1, keepdim=True).detach()
    exp_scores = torch.exp(scores - row_max)
    return exp_scores / exp_scores.sum(dim=-1, keepdim=True)


class SlidingWindowAttention(MultiHeadAttention):
    """Multi-head self-attention in which query t sees keys t-`window`+1 .. t (see the module doc)."""

    def __init__(self, d_model: int, num_heads: int, window: int, method: str = "chunked") -> None:
        super().__init__(d_model, num_heads)
        if window < 1:
            raise ValueError(f"the window must hold at least one key, got {window}")
        if method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {method!r}")
        self.window = window
        self.method = method

    def forward(
        self,
        x_q: Tensor,
        x_kv: Tensor | None = None,
        key_padding_mask: Tensor | None = None,
        causal: bool = False,
    ) -> tuple[Tensor, Tensor]:
        """x_q (B, T, d) -> output (B, T, d) and the weights (chunked: B, H, T/w, w, 2w; masked: B, H, T, T).

        Self-attention only. A padding mask is accepted (the reference classifier always
        passes one) but must hide nothing: a padded query whose whole window is padding would
        have no key left to read.
        """
        if x_kv is not None or causal:
            raise ValueError("sliding-window attention is self-attention over past keys only (no x_kv, no causal)")
        if key_padding_mask is not None and bool(key_padding_mask.any()):
            raise ValueError("sliding-window attention does not support padded sequences")
        q, k, v = (self.split_heads(project(x_q)) for project in (self.w_q, self.w_k, self.w_v))
        compute = self._chunked if self.method == "chunked" else self._masked
        context, weights = compute(q, k, v)
        return self.w_o(self.merge_heads(context)), weights

    def _masked(self, q: Tensor, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        positions = torch.arange(q.size(-2), device=q.device)
        back = positions.view(-1, 1) - positions.view(1, -1)  # (T, T): how far key j lies behind query i
        hidden = (back < 0) | (back >= self.window)
        weights = _softmax_over_keys(q @ k.transpose(-2, -1) / math.sqrt(self.d_head), hidden)
        return weights @ v, weights

    def _chunked(self, q: Tensor, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        batch, heads, length, d_head = q.shape
        w = self.window
        if length % w:
            raise ValueError(f"chunked sliding-window attention needs T divisible by the window: T={length}, w={w}")
        blocks = length // w

        def block_and_previous(x: Tensor) -> Tensor:
            """(B, H, T, d_h) -> (B, H, T/w, 2w, d_h): block i's rows follow block i-1's (zeros before block 0)."""
            padded = F.pad(x, (0, 0, w, 0)).view(batch, heads, blocks + 1, w, d_head)
            return torch.cat([padded[:, :, :-1], padded[:, :, 1:]], dim=3)

        queries = q.view(batch, heads, blocks, w, d_head)
        scores = queries @ block_and_previous(k).transpose(-2, -1) / math.sqrt(d_head)  # (B, H, T/w, w, 2w)
        # Query r of block i is position i*w + r; key slot j is position (i-1)*w + j.
        row = torch.arange(w, device=q.device).view(1, w, 1)
        slot = torch.arange(2 * w, device=q.device).view(1, 1, 2 * w)
        block = torch.arange(blocks, device=q.device).view(blocks, 1, 1)
        back = w + row - slot
        hidden = (back < 0) | (back >= w) | ((block - 1) * w + slot < 0)  # (T/w, w, 2w)
        weights = _softmax_over_keys(scores, hidden)
        context = weights @ block_and_previous(v)  # (B, H, T/w, w, d_h)
        return context.reshape(batch, heads, length, d_head), weights


def window_classifier(
    task: RepeatTask, d_model: int, num_heads: int, d_ff: int, num_layers: int,
    window: int | None, method: str = "chunked",
) -> TransformerClassifier:
    """The reference Transformer classifier, its self-attention made local (`window=None`: global).

    Everything else (embedding, positions, FFN, norms, pooling, head) is the reference code,
    so a comparison against the global model varies the attention pattern only.
    """
    model = TransformerClassifier(task.vocab, d_model, num_heads, d_ff, num_layers, task.num_classes, task.length)
    if window is not None:
        for layer in model.encoder.layers:
            layer.self_attn = SlidingWindowAttention(d_model, num_heads, window, method)
    return model
